"""The public league pages: the list, a league's seasons and history, a season's tables and
schedule, a team match board by board, a team page, the rating list; in English and
Russian; cached under the board tournaments' state (``leagues.freshness``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.league_world import LeagueWorld, build_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_user: Any) -> LeagueWorld:
    return build_league(make_user("league_boss"))


def _text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_league_list_and_league_page(client: Client, world: LeagueWorld) -> None:
    page = _text(client.get(reverse("leagues:league-list")))
    assert "Four Clubs League" in page and "North Club" in page
    assert reverse("leagues:league-detail", args=["four-clubs"]) in page
    page = _text(client.get(reverse("leagues:league-detail", args=["four-clubs"])))
    assert "2027" in page and "Planning" in page
    assert reverse("leagues:season-detail", args=["four-clubs", world.season.number]) in page
    assert client.get(reverse("leagues:league-detail", args=["no-such"])).status_code == 404


def test_planning_season_lists_its_teams_uncached(client: Client, world: LeagueWorld) -> None:
    url = reverse("leagues:season-detail", args=["four-clubs", world.season.number])
    response = client.get(url)
    page = _text(response)
    for name in ("North Team", "East Team", "South Team", "West Team"):
        assert name in page
    assert "The schedule is made when the season starts." in page
    assert "ETag" not in response  # no board tournament yet: not cached
    team = world.teams[1]
    page = _text(client.get(reverse("leagues:team-detail",
                                    args=["four-clubs", world.season.number, team.pk])))
    assert "East 1" in page and "East 5" in page and "reserve" in page
    assert client.get(reverse("leagues:season-detail", args=["four-clubs", 99])).status_code \
        == 404


def test_pages_in_russian(client: Client, world: LeagueWorld) -> None:
    client.cookies["django_language"] = "ru"
    page = _text(client.get(reverse("leagues:league-list")))
    assert "Лиги" in page
    page = _text(client.get(reverse("leagues:season-detail",
                                    args=["four-clubs", world.season.number])))
    assert "Таблицы и расписание" in page and "Команда" in page


def _attach_board_tournament(world: LeagueWorld) -> Any:
    """A board tournament for the division, as the season's start makes it (here written
    directly: this test is about the triggers, whatever writes the rows)."""
    from leagues.models import Division
    from tournaments.models import Tournament

    tournament = Tournament.objects.create(
        club=world.league.host, name="Premier boards", format="team_double_round_robin",
        slug="premier-boards", game="kugamai")
    Division.objects.filter(pk=world.division.pk).update(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_league_rows_bump_the_board_tournament(world: LeagueWorld) -> None:
    from leagues.models import League, RosterEntry, Season, SeasonTeam
    from players.models import Player, Team

    tournament = _attach_board_tournament(world)

    def version() -> int:
        tournament.refresh_from_db(fields=["version"])
        return tournament.version

    writes = [
        lambda: League.objects.filter(pk=world.league.pk).update(name="Renamed League"),
        lambda: Season.objects.filter(pk=world.season.pk).update(name="2027/28"),
        lambda: SeasonTeam.objects.filter(pk=world.teams[0].pk).update(final_rank=1),
        lambda: RosterEntry.objects.filter(season_team=world.teams[0], order=1).update(
            reserve=True),
        lambda: Team.objects.filter(pk=world.teams[0].team_id).update(name="North Stars"),
        lambda: Player.objects.filter(display_name="North 5").update(display_name="N. Five"),
    ]
    for write in writes:
        before = version()
        write()
        assert version() > before, write
    before = version()
    Team.objects.filter(pk=world.teams[0].team_id).update(name="North Stars")  # unchanged
    assert version() == before
    assert connection.vendor == "postgresql"


def test_running_season_pages_answer_304_until_a_write(client: Client,
                                                       world: LeagueWorld) -> None:
    from leagues.models import Season
    from players.models import Team

    _attach_board_tournament(world)
    Season.objects.filter(pk=world.season.pk).update(status="running")
    number = world.season.number
    for url in (reverse("leagues:season-detail", args=["four-clubs", number]),
                reverse("leagues:season-results", args=["four-clubs", number]),
                reverse("leagues:team-detail", args=["four-clubs", number, world.teams[0].pk])):
        first = client.get(url)
        assert first.status_code == 200 and first["ETag"]
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304
        Team.objects.filter(pk=world.teams[0].team_id).update(name=f"North {url[-12:]}")
        changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert changed.status_code == 200
        assert f"North {url[-12:]}" in changed.content.decode()


def test_board_tournament_page_names_its_league(client: Client, world: LeagueWorld) -> None:
    from tournaments.models import Tournament

    tournament = _attach_board_tournament(world)
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    page = _text(client.get(reverse("pages:tournament-detail",
                                    args=[world.league.host.slug, "premier-boards"])))
    assert "Part of" in page and "Four Clubs League, 2027" in page and "Premier" in page
    assert reverse("leagues:season-detail", args=["four-clubs", world.season.number]) in page
