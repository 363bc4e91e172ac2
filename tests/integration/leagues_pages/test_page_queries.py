"""The league pages' queries: a kept page costs its state's one light query; rendered
afresh, a page takes as many after three rounds as after one (none per match or board)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.league_world import LeagueWorld, build_league

pytestmark = pytest.mark.django_db

#: The most queries a league page takes rendered afresh (a tournament page's bound is 20).
BOUND = 12


def _play_round(world: LeagueWorld, number: int) -> None:
    """Every board of the round won 2-1 by the team with the better seed."""
    from games.series.format import MatchScore
    from leagues import services
    from leagues.models import TeamMatch
    from matches.services.results import match_result_record

    for match in TeamMatch.objects.filter(division=world.division, round_number=number):
        assert match.away is not None
        for team in (match.home, match.away):
            name = str(team.team.name).split()[0]
            services.lineup_submit(actor=world.organizer, match=match, team=team,
                                   boards=world.players[name][:4])
        home_stronger = (match.home.seed or 0) < (match.away.seed or 0)
        for board in match.boards.select_related("pairing"):
            pairing = board.pairing
            assert pairing is not None
            first_wins = home_stronger == board.home_moves_first  # A moves first in game 1
            match_result_record(actor=world.organizer, pairing=pairing,
                                expected_version=pairing.version,
                                score=MatchScore(2, 1) if first_wins else MatchScore(1, 2))


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.fixture
def season(make_user: Any) -> LeagueWorld:
    from leagues import services

    world = build_league(make_user("query_boss"))
    services.season_start(actor=world.organizer, season=world.season)
    return world


def test_kept_pages_cost_one_query_and_rendering_is_bounded(client: Client,
                                                            season: LeagueWorld) -> None:
    from leagues.models import TeamMatch

    _play_round(season, 1)
    number = season.season.number
    match = TeamMatch.objects.filter(division=season.division, round_number=1).first()
    assert match is not None
    urls = {
        "season": reverse("leagues:season-detail", args=["four-clubs", number]),
        "match": reverse("leagues:match-detail", args=["four-clubs", number, match.pk]),
        "team": reverse("leagues:team-detail", args=["four-clubs", number, season.teams[0].pk]),
    }
    fresh = {}
    for name, url in urls.items():
        cache.clear()
        fresh[name] = _count(client, url)
        assert _count(client, url) <= 2, name  # the state (and the session's language)
    _play_round(season, 2)
    _play_round(season, 3)
    for name, url in urls.items():
        cache.clear()
        assert _count(client, url) == fresh[name], name  # no query per match or board
        assert fresh[name] <= BOUND, name


def test_a_lineup_stays_private_until_both_are_in(client: Client, season: LeagueWorld) -> None:
    from leagues import services
    from leagues.models import TeamMatch

    match = TeamMatch.objects.filter(division=season.division, round_number=1).first()
    assert match is not None and match.away is not None
    home = str(match.home.team.name).split()[0]
    services.lineup_submit(actor=season.organizer, match=match, team=match.home,
                           boards=season.players[home][:4])
    url = reverse("leagues:match-detail", args=["four-clubs", season.season.number, match.pk])
    page = client.get(url).content.decode()
    assert "The boards are shown once both lineups are in." in page
    assert f"{home} 1" not in page
    away = str(match.away.team.name).split()[0]
    services.lineup_submit(actor=season.organizer, match=match, team=match.away,
                           boards=season.players[away][:4])
    page = client.get(url).content.decode()
    assert f"{home} 1" in page and f"{away} 4" in page and "first" in page


def test_league_history_names_champion_promoted_and_relegated(client: Client,
                                                             season: LeagueWorld) -> None:
    from leagues import services
    from leagues.models import SeasonTeam

    for number in range(1, 7):
        _play_round(season, number)
    services.season_finish(actor=season.organizer, season=season.season)
    services.season_next(actor=season.organizer, season=season.season, name="2028")
    # one division has nowhere to move its teams: a relegation as a lower division's
    # existence would give it (written here: the page is under test, not the finish)
    SeasonTeam.objects.filter(season=season.season, final_rank=4).update(movement="relegated")
    finished = {team.team.name: team for team in SeasonTeam.objects.filter(
        season=season.season).select_related("team")}
    champion = next(t for t in finished.values() if t.final_rank == 1)
    page = client.get(reverse("leagues:league-detail", args=["four-clubs"])).content.decode()
    assert "2028" in page and "2027" in page

    def cells(kind: str) -> list[str]:
        return [part.split("</td>")[0] for part in page.split(f'class="{kind}">')[1:]]

    assert cells("champion")[0] == "–"  # the new season, in planning
    assert cells("champion")[1].endswith(f"{champion.team.name}</a>")
    moved = [team for team in finished.values() if team.movement]
    assert moved
    for team in moved:
        assert team.team.name in cells(str(team.movement))[1]
    ratings = client.get(reverse("leagues:season-ratings",
                                 args=["four-clubs", season.season.number])).content.decode()
    assert "Kugamai" in ratings and "North 1" in ratings and 'class="num change">+' in ratings
    table = client.get(reverse("leagues:season-detail",
                               args=["four-clubs", season.season.number])).content.decode()
    assert "zone-promotion" in table and "zone-relegation" in table
