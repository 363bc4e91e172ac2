"""Right after a write commits, the tournament's page and the API lists show it: one test
per kind of write (each table the page or a list shows, through a service, an admin form
or raw SQL as a shell would), with the page and the list first served from the cache.
Committed writes (transactional tests): the database triggers of ``tournaments.freshness``
are all that tells the cached answers, whatever wrote the row."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from config import list_cache
from games.series.format import MatchScore
from matches.services import games as game_services
from matches.services import results as result_services
from players import services as player_services
from players.models import Player, TeamMembership
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PLAYING = 'class="progress-note">playing'


@pytest.fixture(autouse=True)
def empty_caches() -> Iterator[None]:
    cache.clear()
    list_cache.clear()
    yield
    cache.clear()
    list_cache.clear()


def _sql(statement: str, params: list[Any]) -> None:
    """A write as a shell or another program would make it: no service, no model."""
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


class Seen:
    """A page or list read twice before the write (the second answer from the cache)."""

    def __init__(self, client: Client, url: str) -> None:
        self.client, self.url = client, url
        self.before = self._read()
        assert self._read() == self.before

    def _read(self) -> str:
        answer = self.client.get(self.url)
        assert answer.status_code == 200, (self.url, answer.status_code)
        return answer.content.decode()

    def now(self) -> str:
        """The answer right after the write: not the one seen before."""
        after = self._read()
        assert after != self.before, f"{self.url} was served as before the write"
        return after


def _url(tournament: Tournament, tail: str = "") -> str:
    return f"/tournaments/{tournament.club.slug}/{tournament.slug}/{tail}"


@pytest.fixture
def paired(make_tournament: Callable[..., Any], organizer: Any) -> tuple[Tournament, Round]:
    event = make_tournament("round_robin", entrants=4)
    return event, services.round_pair_next(actor=organizer, tournament=event, release=True)


def _first_board(round_: Round) -> Any:
    return round_.pairings.order_by("board").first()


# -- rounds, pairings, games ---------------------------------------------------------------

def test_a_round_paired_by_the_service(client: Client, organizer: Any,
                                       make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    page = Seen(client, _url(event))
    services.round_pair_next(actor=organizer, tournament=event, release=True)
    assert _url(event, "rounds/1/") in page.now()


def test_a_round_deleted_in_raw_sql(client: Client, paired: Any) -> None:
    event, round_ = paired
    page = Seen(client, _url(event))
    assert _url(event, "rounds/1/") in page.before
    _sql("DELETE FROM tournaments_roundentry WHERE round_id = %s", [round_.pk])
    _sql("DELETE FROM tournaments_pairing WHERE round_id = %s", [round_.pk])
    _sql("DELETE FROM tournaments_round WHERE id = %s", [round_.pk])
    assert _url(event, "rounds/1/") not in page.now()


def test_a_result_by_the_service(client: Client, organizer: Any, paired: Any) -> None:
    event, round_ = paired
    page = Seen(client, _url(event, "rounds/1/"))
    board = _first_board(round_)
    result_services.match_result_record(actor=organizer, pairing=board,
                                        score=MatchScore(1, 0, 0),
                                        expected_version=board.version)
    assert '<td class="score">1–0</td>' in page.now()


def test_a_result_in_raw_sql(client: Client, paired: Any) -> None:
    event, round_ = paired
    page = Seen(client, _url(event, "rounds/1/"))
    assert page.before.count(PLAYING) == 2
    _sql("UPDATE tournaments_pairing SET outcome = 'a_forfeit_win' WHERE id = %s",
         [_first_board(round_).pk])
    assert page.now().count(PLAYING) == 1


def test_a_game_by_the_service(client: Client, organizer: Any, paired: Any) -> None:
    event, round_ = paired
    page = Seen(client, _url(event, "rounds/1/"))
    recorded = game_services.game_record(actor=organizer, pairing=_first_board(round_),
                                         result="a")
    assert f'href="/games/{recorded.game.pk}/"' in page.now()


def test_a_game_deleted_in_raw_sql(client: Client, organizer: Any, paired: Any) -> None:
    event, round_ = paired
    recorded = game_services.game_record(actor=organizer, pairing=_first_board(round_),
                                         result="a")
    page = Seen(client, _url(event, "rounds/1/"))
    assert f'href="/games/{recorded.game.pk}/"' in page.before
    _sql("DELETE FROM players_ratingchange WHERE game_id = %s", [recorded.game.pk])
    _sql("DELETE FROM games_game WHERE id = %s", [recorded.game.pk])
    assert f'href="/games/{recorded.game.pk}/"' not in page.now()


# -- entrants and byes ---------------------------------------------------------------------

def test_an_entrant_registered_by_the_service(client: Client, organizer: Any, club_a: Any,
                                              make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("swiss", entrants=4, rounds_planned=3, tiebreaks=[], start=False)
    event = services.tournament_open_registration(actor=organizer, tournament=event)
    page, listed = Seen(client, _url(event)), Seen(client, "/api/tournaments/")
    newcomer = Player.objects.create(display_name="Late Newcomer", club=club_a)
    services.entrant_register(actor=organizer, tournament=event, player=newcomer)
    assert "Late Newcomer" in page.now()
    assert '"entrant_count":5' in listed.now()


def test_an_entrant_withdrawn_in_raw_sql(client: Client, make_tournament: Callable[..., Any],
                                         play_round: Any) -> None:
    swiss = make_tournament("swiss", entrants=6, rounds_planned=4, tiebreaks=[])
    play_round(swiss)
    entrant = swiss.entrants.order_by("seed").last()
    page = Seen(client, _url(swiss))
    _sql("UPDATE tournaments_entrant SET withdrawn_from_round = 2 WHERE id = %s", [entrant.pk])
    assert "withdrawn from round 2" in page.now()


def test_a_bye_cancelled_in_raw_sql(client: Client, organizer: Any,
                                    make_tournament: Callable[..., Any], play_round: Any) -> None:
    swiss = make_tournament("swiss", entrants=6, rounds_planned=4, tiebreaks=[])
    play_round(swiss)
    entrant = swiss.entrants.order_by("seed").first()
    services.bye_request(actor=organizer, entrant=entrant, round_number=3)
    page = Seen(client, _url(swiss))
    assert 'id="byes-heading"' in page.before
    _sql("DELETE FROM tournaments_requestedbye WHERE entrant_id = %s", [entrant.pk])
    assert 'id="byes-heading"' not in page.now()


# -- players, teams, memberships ------------------------------------------------------------

def test_a_player_renamed_in_the_admin(client: Client, organizer: Any,
                                       make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    player = event.entrants.select_related("player").order_by("seed").first().player
    page, listed = Seen(client, _url(event)), Seen(client, "/api/players/")
    admin = Client()
    admin.force_login(organizer)
    answer = admin.post(f"/admin/players/player/{player.pk}/change/",
                        {"display_name": "Renamed In Admin", "club": player.club_id,
                         "bot_kind": "", "bot_settings": "{}", "fide_id": ""})
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    assert "Renamed In Admin" in page.now()
    assert "Renamed In Admin" in listed.now()


def test_a_player_renamed_in_raw_sql(client: Client, make_tournament: Callable[..., Any]
                                     ) -> None:
    event = make_tournament("round_robin", entrants=4)
    player = event.entrants.select_related("player").order_by("seed").first().player
    page, listed = Seen(client, _url(event)), Seen(client, "/api/players/")
    _sql("UPDATE players_player SET display_name = 'Renamed In SQL' WHERE id = %s", [player.pk])
    assert "Renamed In SQL" in page.now()
    assert "Renamed In SQL" in listed.now()


def test_a_player_created_by_the_service(client: Client, organizer: Any, club_a: Any) -> None:
    listed = Seen(client, "/api/players/")
    player_services.player_create(actor=organizer, display_name="Brand New", club=club_a)
    assert "Brand New" in listed.now()


@pytest.fixture
def team_event(club_a: Any, organizer: Any) -> tuple[Tournament, Any, list[Player]]:
    people = [Player.objects.create(display_name=f"Member {i}", club=club_a) for i in range(4)]
    event = services.tournament_create(actor=organizer, club=club_a, name="Pairs night",
                                       game="kazambi-pairs", format="round_robin")
    teams = []
    for index in range(2):
        team = player_services.team_create(actor=organizer, name=f"Team {index}", club=club_a,
                                           members=people[2 * index: 2 * index + 2],
                                           joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team)
        teams.append(team)
    return services.tournament_start(actor=organizer, tournament=event), teams, people


def test_a_team_renamed_in_raw_sql(client: Client, team_event: Any) -> None:
    event, teams, _people = team_event
    page = Seen(client, _url(event))
    _sql("UPDATE players_team SET name = 'Team Raw' WHERE id = %s", [teams[0].pk])
    assert "Team Raw" in page.now()


def test_a_membership_deleted_in_raw_sql(client: Client, team_event: Any) -> None:
    event, teams, people = team_event
    page = Seen(client, _url(event))
    membership = TeamMembership.objects.get(team=teams[1], player=people[3])
    _sql("DELETE FROM players_teammembership WHERE id = %s", [membership.pk])
    teams_part = page.now().split('id="teams-heading"')[1]
    assert people[2].display_name in teams_part and people[3].display_name not in teams_part


# -- the tournament and its club --------------------------------------------------------------

def test_the_tournament_renamed_by_the_service(client: Client, organizer: Any,
                                               make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    page, listed = Seen(client, _url(event)), Seen(client, "/api/tournaments/")
    services.tournament_update(actor=organizer, tournament=event, name="Spring Open")
    assert "Spring Open" in page.now()
    assert "Spring Open" in listed.now()


def test_the_tournament_renamed_in_raw_sql(client: Client,
                                           make_tournament: Callable[..., Any]) -> None:
    """No ``updated_at`` written: the tournament's own row moves its version itself."""
    event = make_tournament("round_robin", entrants=4)
    page, listed = Seen(client, _url(event)), Seen(client, "/api/tournaments/")
    _sql("UPDATE tournaments_tournament SET name = 'Raw Open' WHERE id = %s", [event.pk])
    assert "Raw Open" in page.now()
    assert "Raw Open" in listed.now()


def test_the_club_renamed_in_raw_sql(client: Client, club_a: Any,
                                     make_tournament: Callable[..., Any]) -> None:
    """The club's name is part of the page's state: no tournament row is written."""
    event = make_tournament("round_robin", entrants=4)
    version = Tournament.objects.get(pk=event.pk).version
    page, listed = Seen(client, _url(event)), Seen(client, "/api/tournaments/")
    _sql("UPDATE players_club SET name = 'Omega Raw' WHERE id = %s", [club_a.pk])
    assert "Omega Raw" in page.now()
    assert "Omega Raw" in listed.now()
    assert Tournament.objects.get(pk=event.pk).version == version
