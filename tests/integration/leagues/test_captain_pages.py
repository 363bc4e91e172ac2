"""A league captain's private link (/league/captain/<token>/): the page, a lineup submitted
over HTTP, refusals shown with their reason and nothing changed (late, out of order, another
team's match), availability and reserves, revoked links, the guessing limit, CSRF, log
masking; and the league manager's captain links page in the admin."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.test import Client
from django.utils import timezone

from leagues import services
from leagues.models import Availability, Lineup, RosterEntry, SeasonTeam, TeamMatch
from playerlinks.guard import mask
from players.models import Club, Player, Team

pytestmark = pytest.mark.django_db

ROSTER = 5  # four regulars and a reserve


@pytest.fixture(autouse=True)
def _fresh_counts() -> Any:
    cache.clear()
    yield
    cache.clear()


@dataclass
class World:
    organizer: Any
    club: Club
    teams: list[SeasonTeam]
    players: dict[int, list[Player]]
    match: TeamMatch
    token: str

    @property
    def mine(self) -> SeasonTeam:
        return self.teams[0]

    @property
    def url(self) -> str:
        return f"/league/captain/{self.token}/"

    def lineup_url(self, match: TeamMatch | None = None) -> str:
        return f"{self.url}match/{(match or self.match).pk}/lineup/"


def _world(organizer: Any, club: Club, *, rule: str = "fixed") -> World:
    league = services.league_create(actor=organizer, host=club, name="Town league",
                                    slug="town-league", game="kugamai", boards=4,
                                    lineup_rule=rule, rating_tolerance=0,
                                    lineup_deadline_hours=24)
    season = services.season_create(actor=organizer, league=league, name="2027")
    division = services.division_create(actor=organizer, season=season, name="First",
                                        system="team_round_robin")
    teams, players = [], {}
    for number in range(1, 5):
        team = Team.objects.create(club=club, name=f"Team {number}")
        squad = [Player.objects.create(display_name=f"T{number} player {seat}", club=club)
                 for seat in range(1, ROSTER + 1)]
        entered = services.team_enter(actor=organizer, division=division, team=team,
                                      captain=squad[0], seed=number)
        services.roster_set(actor=organizer, season_team=entered, players=squad[:4],
                            reserves=squad[4:])
        teams.append(entered)
        players[entered.pk] = squad
    services.season_start(actor=organizer, season=season)
    match = TeamMatch.objects.get(Q(home=teams[0]) | Q(away=teams[0]), round_number=1)
    match = services.match_schedule(actor=organizer, match=match,
                                    starts_at=timezone.now() + dt.timedelta(days=3),
                                    venue="Club hall")
    _, token = services.captain_link_issue(actor=organizer, season_team=teams[0])
    return World(organizer, club, teams, players, match, token)


@pytest.fixture
def world(organizer: Any, club_a: Club) -> World:
    return _world(organizer, club_a)


def _hygienic(response: Any) -> None:
    assert response["Referrer-Policy"] == "no-referrer"
    assert response["Cache-Control"] == "private, no-store"
    assert "noindex" in response["X-Robots-Tag"]


def _boards(*players: Player | None) -> dict[str, str]:
    return {f"board_{n}": str(p.pk) if p else "" for n, p in enumerate(players, start=1)}


def _lineups(world: World) -> list[tuple[int, int | None]]:
    return list(Lineup.objects.filter(match=world.match, team=world.mine)
                .values_list("boards__board", "boards__player_id").order_by("boards__board"))


def test_the_page_shows_the_team_its_match_and_the_form(world: World) -> None:
    page = Client().get(world.url)
    assert page.status_code == 200
    _hygienic(page)
    text = page.content.decode()
    assert "Team 1" in text and "Town league" in text and "Club hall" in text
    assert "Lineup deadline" in text and "in 1\xa0day" in text  # the countdown
    assert f'action="{world.lineup_url()}"' in text
    assert 'name="board_4"' in text and "Order rule: fixed" in text
    # regulars first, then reserves: the reserve is offered after the four regulars
    squad = world.players[world.mine.pk]
    assert text.index(f'value="{squad[3].pk}"') < text.index(f'value="{squad[4].pk}"')


def test_a_lineup_submitted_from_the_link(world: World) -> None:
    client = Client()
    client.get(world.url)
    squad = world.players[world.mine.pk]
    answer = client.post(world.lineup_url(), _boards(squad[0], squad[1], squad[2], squad[3]))
    assert answer.status_code == 302 and answer["Location"].startswith(world.url)
    _hygienic(answer)
    assert _lineups(world) == [(1, squad[0].pk), (2, squad[1].pk), (3, squad[2].pk),
                               (4, squad[3].pk)]
    text = client.get(answer["Location"]).content.decode()
    assert "Your lineup is in." in text and f'id="lineup-{world.match.pk}"' in text
    # a change before the deadline replaces it: the reserve on board 4
    client.post(world.lineup_url(), _boards(squad[0], squad[1], squad[2], squad[4]))
    assert _lineups(world)[-1] == (4, squad[4].pk)


def test_a_late_lineup_is_refused_with_the_reason_and_changes_nothing(world: World) -> None:
    client = Client()
    page = client.get(world.url).content.decode()  # the form, while it was open
    assert f'id="lineup-form-{world.match.pk}"' in page
    TeamMatch.objects.filter(pk=world.match.pk).update(
        lineup_deadline=timezone.now() - dt.timedelta(minutes=1))
    squad = world.players[world.mine.pk]
    answer = client.post(world.lineup_url(), _boards(*squad[:4]))
    assert answer.status_code == 400
    text = answer.content.decode()
    assert 'role="alert"' in text and "deadline" in text.lower()
    assert not Lineup.objects.filter(match=world.match).exists()
    closed = client.get(world.url).content.decode()
    assert f'id="lineup-form-{world.match.pk}"' not in closed
    assert "only the league manager can accept a late change" in closed


def test_a_lineup_out_of_order_is_refused_and_the_form_keeps_it(world: World) -> None:
    squad = world.players[world.mine.pk]
    answer = Client().post(world.lineup_url(), _boards(squad[1], squad[0], squad[2], squad[3]))
    assert answer.status_code == 400
    text = answer.content.decode()
    assert 'role="alert"' in text and squad[0].display_name in text
    assert not Lineup.objects.filter(match=world.match).exists()
    # what was posted is still selected, so the captain corrects it rather than starting over
    first = text.index('name="board_1"')
    assert text.index(f'value="{squad[1].pk}" selected', first) < text.index('name="board_2"')


def test_a_player_off_the_roster_or_a_bad_value_is_refused(world: World) -> None:
    other = world.players[world.teams[1].pk][0]
    client = Client()
    squad = world.players[world.mine.pk]
    assert client.post(world.lineup_url(), _boards(other, *squad[1:4])).status_code == 400
    answer = client.post(world.lineup_url(), {**_boards(*squad[:4]), "board_2": "x\x00"})
    assert answer.status_code == 400 and "Choose a player from the list." in answer.content.decode()
    assert client.post(world.lineup_url(), {**_boards(*squad[:4]),
                                            "board_3": "999999999"}).status_code == 400
    assert not Lineup.objects.filter(match=world.match).exists()


def test_another_teams_match_in_the_url_is_refused(world: World) -> None:
    theirs = TeamMatch.objects.filter(round_number=1).exclude(
        Q(home=world.mine) | Q(away=world.mine)).get()
    squad = world.players[world.mine.pk]
    answer = Client().post(world.lineup_url(theirs), _boards(*squad[:4]))
    assert answer.status_code == 404
    _hygienic(answer)
    assert not Lineup.objects.exists()


def test_availability_grid(world: World) -> None:
    squad = world.players[world.mine.pk]
    client = Client()
    text = client.get(world.url).content.decode()
    assert f'name="avail_{squad[1].pk}_1"' in text and f'name="avail_{squad[1].pk}_3"' in text
    ticked = {f"avail_{p.pk}_{r}": "on" for p in squad for r in (1, 2, 3)}
    del ticked[f"avail_{squad[1].pk}_2"]
    answer = client.post(world.url + "availability/", ticked)
    assert answer.status_code == 302
    assert list(Availability.objects.filter(season_team=world.mine)
                .values_list("player_id", "round_number", "available")) == [
        (squad[1].pk, 2, False)]
    text = client.get(world.url).content.decode()
    assert f'name="avail_{squad[1].pk}_2" id="avail_{squad[1].pk}_2" aria-label' in text
    assert f'name="avail_{squad[1].pk}_1" id="avail_{squad[1].pk}_1" checked' in text
    client.post(world.url + "availability/", {**ticked, f"avail_{squad[1].pk}_2": "on"})
    assert Availability.objects.get(season_team=world.mine, player=squad[1],
                                    round_number=2).available


def test_an_unavailable_player_is_refused_in_a_lineup(world: World) -> None:
    squad = world.players[world.mine.pk]
    services.availability_set(actor=world.organizer, season_team=world.mine,
                              player=squad[2], round_number=1, available=False)
    page = Client().get(world.url).content.decode()
    # the starting lineup leaves the unavailable player out: the reserve comes in
    assert f'value="{squad[4].pk}" selected' in page
    answer = Client().post(world.lineup_url(), _boards(*squad[:4]))
    assert answer.status_code == 400 and squad[2].display_name in answer.content.decode()
    assert not Lineup.objects.exists()


def test_a_reserve_is_brought_in_and_plays(world: World, club_b: Club) -> None:
    newcomer = Player.objects.create(display_name="Newcomer", club=world.club)
    stranger = Player.objects.create(display_name="Stranger", club=club_b)
    client = Client()
    text = client.get(world.url).content.decode()
    assert "Newcomer" in text and "Stranger" not in text
    refused = client.post(world.url + "reserves/", {"player": str(stranger.pk)})
    assert refused.status_code == 400 and 'id="reserve-error"' in refused.content.decode()
    answer = client.post(world.url + "reserves/", {"player": str(newcomer.pk)})
    assert answer.status_code == 302
    entry = RosterEntry.objects.get(player=newcomer)
    assert entry.season_team == world.mine and entry.reserve
    assert not RosterEntry.objects.filter(player=stranger).exists()
    squad = world.players[world.mine.pk]
    assert client.post(world.lineup_url(), _boards(*squad[:3], newcomer)).status_code == 302
    assert _lineups(world)[-1] == (4, newcomer.pk)


def test_revoked_and_replaced_links_answer_404(world: World) -> None:
    link = services.captain_link_issue(actor=world.organizer, season_team=world.mine)
    new, token = link
    client = Client()
    old = client.get(world.url)
    assert old.status_code == 404
    _hygienic(old)
    assert client.get(f"/league/captain/{token}/").status_code == 200
    services.captain_link_revoke(actor=world.organizer, link=new)
    assert client.get(f"/league/captain/{token}/").status_code == 404
    squad = world.players[world.mine.pk]
    assert client.post(f"/league/captain/{token}/match/{world.match.pk}/lineup/",
                       _boards(*squad[:4])).status_code == 404
    assert not Lineup.objects.exists()


def test_guessing_is_limited_per_address(world: World, settings: Any) -> None:
    settings.LINK_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(3):
        assert client.get(f"/league/captain/{secrets.token_urlsafe(24)}/").status_code == 404
    paused = client.get(world.url)  # even the right token waits: nothing is looked up
    assert paused.status_code == 429 and int(paused["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="10.0.0.9").get(world.url).status_code == 200


def test_odd_paths_under_the_prefix_count_as_guesses(world: World, settings: Any) -> None:
    settings.LINK_FAILURE_LIMIT = 2
    client = Client()
    assert client.get("/league/captain/a/b/c").status_code == 404
    assert client.get("/league/captain/x\x00y/").status_code in (400, 404)
    assert client.get(world.url).status_code == 429


def test_posts_need_the_csrf_token(world: World) -> None:
    client = Client(enforce_csrf_checks=True)
    squad = world.players[world.mine.pk]
    forged = client.post(world.lineup_url(), _boards(*squad[:4]))
    assert forged.status_code == 403
    assert client.post(world.url + "availability/", {}).status_code == 403
    assert not Lineup.objects.exists() and not Availability.objects.exists()
    page = client.get(world.url)
    csrf = page.cookies["csrftoken"].value
    # a no-referrer page's browser sends "Origin: null": the token still decides
    answer = client.post(world.lineup_url(), {**_boards(*squad[:4]),
                                              "csrfmiddlewaretoken": csrf},
                         HTTP_ORIGIN="null")
    assert answer.status_code == 302 and Lineup.objects.exists()


def test_the_token_is_masked_in_logs_and_nginx() -> None:
    from pathlib import Path

    token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"
    assert mask(f"POST /league/captain/{token}/match/3/lineup/ HTTP/1.1") == (
        "POST /league/captain/<token>/match/3/lineup/ HTTP/1.1")
    nginx = (Path(__file__).parents[3] / "deploy" / "nginx" / "clubtourney.conf").read_text()
    assert "/league/captain/)" in nginx


def test_the_page_speaks_russian(world: World) -> None:
    client = Client()
    client.post(world.url + "language/", {"language": "ru"})
    text = client.get(world.url).content.decode()
    assert "Порядок досок: постоянный" in text


# -- the admin's captain links page --------------------------------------------------------


def test_the_manager_issues_reissues_and_revokes_captain_links(world: World,
                                                                club_b: Club) -> None:
    client = Client()
    client.force_login(world.organizer)
    season = world.mine.season
    url = f"/admin/leagues/season/{season.pk}/captain-links/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert world.url in text and "Team 2" in text and "no live link" in text
    fresh = client.post(url, {"season_team": str(world.teams[1].pk), "action": "issue"})
    assert fresh.status_code == 200 and 'id="fresh-url"' in fresh.content.decode()
    again = client.post(url, {"season_team": str(world.mine.pk), "action": "reissue"})
    assert again.status_code == 200
    assert Client().get(world.url).status_code == 404  # the old link stopped
    client.post(url, {"season_team": str(world.teams[1].pk), "action": "revoke"})
    assert not world.teams[1].captain_links.filter(revoked_at__isnull=True).exists()

    stranger = club_b.organizers.get()
    stranger.is_staff = True
    stranger.save()
    client.force_login(stranger)
    assert client.get(url).status_code == 403


def test_the_season_admin_leads_to_the_captain_links(world: World) -> None:
    client = Client()
    client.force_login(world.organizer)
    season = world.mine.season
    url = f"/admin/leagues/season/{season.pk}/captain-links/"
    assert url in client.get(f"/admin/leagues/season/{season.pk}/change/").content.decode()
    chosen = client.post("/admin/leagues/season/", {
        "action": "open_captain_links", "_selected_action": [str(season.pk)]})
    assert chosen.status_code == 302 and chosen["Location"] == url


def test_the_page_takes_the_same_queries_however_much_it_shows(world: World) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = Client()
    squad = world.players[world.mine.pk]

    def more(number: int) -> None:
        services.reserve_add(actor=world.organizer, season_team=world.mine,
                             player=Player.objects.create(display_name=f"R{number}",
                                                          club=world.club))
        services.availability_set(actor=world.organizer, season_team=world.mine,
                                  player=squad[number], round_number=number + 1,
                                  available=False)

    client.post(world.lineup_url(), _boards(*squad[:4]))
    more(0)
    with CaptureQueriesContext(connection) as before:
        assert client.get(world.url).status_code == 200
    later = TeamMatch.objects.get(Q(home=world.mine) | Q(away=world.mine), round_number=3)
    client.post(world.lineup_url(later), _boards(*squad[:4]))
    more(1)
    more(2)
    with CaptureQueriesContext(connection) as after:
        assert client.get(world.url).status_code == 200
    assert Lineup.objects.filter(team=world.mine).count() == 2
    assert len(after) == len(before) <= 12
