"""Upper bounds (core/bounds.py), enforced in the services and backed by the database.

Before: ``{"kind": "first_to", "games": 30000}`` and ``bo1000000001`` were accepted (and
30000-0 ran 16 minutes in one transaction), as were 30000 planned rounds, any number of
entrants and a ``clock_left`` of any length.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.bounds import MAX_ENTRANTS, MAX_MATCH_GAMES, MAX_ROUNDS
from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.models import Game
from matches.services import games as game_services
from matches.services import results as result_services
from players import services as player_services
from players.models import Player
from tournaments import services
from tournaments.models import Entrant, Pairing, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(club_a: Any) -> Any:
    return club_a.organizers.get()


@pytest.fixture
def alice_api(api: Any, alice: Any) -> Any:
    api.force_authenticate(alice)
    return api


def _create(api: Any, club: Any, **fields: Any) -> Any:
    body = {"club": club.pk, "name": "Bounded cup", "game": "kugamai",
            "format": "round_robin", **fields}
    return api.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize("match_format", [
    {"kind": "first_to", "games": 30000},
    {"kind": "first_to", "games": 3, "max_games": 101},
    "bo1000000001",
    "bo101",
    "fixed101",
    "ft101",
])
def test_a_match_longer_than_the_bound_is_refused(alice_api: Any, club_a: Any,
                                                  match_format: Any) -> None:
    answer = _create(alice_api, club_a, match_format=match_format)
    assert answer.status_code == 400, answer.content
    assert "match_format" in answer.json()["errors"]
    assert str(MAX_MATCH_GAMES) in answer.json()["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("match_format", "stored"), [
    ("bo99", {"kind": "best_of", "games": 99, "max_games": None, "duplicate": False}),
    ("fixed100", {"kind": "fixed", "games": 100, "max_games": None, "duplicate": False}),
    ("ft3", {"kind": "first_to", "games": 3, "max_games": 100, "duplicate": False}),
    ("ft3/9", {"kind": "first_to", "games": 3, "max_games": 9, "duplicate": False}),
])
def test_formats_within_the_bound_are_kept_and_an_open_first_to_is_capped(
        alice_api: Any, club_a: Any, match_format: str, stored: dict[str, Any]) -> None:
    answer = _create(alice_api, club_a, match_format=match_format)
    assert answer.status_code == 201, answer.content
    assert answer.json()["match_format"] == stored


def test_the_admin_form_checks_the_same_bound(club_a: Any, alice: Any) -> None:
    from tournaments.admin import TournamentForm

    form = TournamentForm(data={
        "club": club_a.pk, "name": "Long", "game": "kugamai", "format": "round_robin",
        "match_kind": "first_to", "match_games": "30000",
        "points_win": "1", "points_draw": "0.5", "points_loss": "0", "points_bye": "1",
        "rated": "on", "grand_final_reset": "on",
    })
    assert not form.is_valid()
    assert "match_games" in form.errors or str(MAX_MATCH_GAMES) in str(form.errors)


def test_rounds_are_bounded(alice_api: Any, club_a: Any, alice: Any) -> None:
    answer = _create(alice_api, club_a, format="swiss", rounds_planned=MAX_ROUNDS + 1)
    assert answer.status_code == 400
    assert "rounds_planned" in answer.json()["errors"]
    with pytest.raises(ApplicationError, match=f"at most {MAX_ROUNDS} rounds"):
        services.tournament_create(actor=alice, club=club_a, name="Long", game="kugamai",
                                   format="swiss", rounds_planned=30000)
    assert _create(alice_api, club_a, format="swiss",
                   rounds_planned=MAX_ROUNDS).status_code == 201


def _players(club: Any, count: int) -> list[Player]:
    return Player.objects.bulk_create(
        Player(display_name=f"Entrant {index}", club=club) for index in range(count))


def test_a_round_robin_takes_as_many_entrants_as_fit_in_the_rounds(
        club_a: Any, alice: Any) -> None:
    double = services.tournament_create(actor=alice, club=club_a, name="Double",
                                        game="kugamai", format="double_round_robin")
    players = _players(club_a, 51)
    Entrant.objects.bulk_create(Entrant(tournament=double, player=p) for p in players[:50])
    with pytest.raises(ApplicationError, match="at most 50 entrants") as error:
        services.entrant_register(actor=alice, tournament=double, player=players[50])
    assert error.value.field == "entrants"
    assert double.entrants.count() == 50


def test_a_swiss_takes_at_most_the_bound(club_a: Any, alice: Any) -> None:
    swiss = services.tournament_create(actor=alice, club=club_a, name="Big", game="kugamai",
                                       format="swiss", rounds_planned=5)
    players = _players(club_a, MAX_ENTRANTS + 1)
    Entrant.objects.bulk_create(Entrant(tournament=swiss, player=p)
                                for p in players[:MAX_ENTRANTS])
    with pytest.raises(ApplicationError, match=f"at most {MAX_ENTRANTS} entrants"):
        services.entrant_register(actor=alice, tournament=swiss, player=players[-1])


def test_changing_the_format_cannot_smuggle_entrants_past_the_start(
        club_a: Any, alice: Any) -> None:
    cup = services.tournament_create(actor=alice, club=club_a, name="Switch", game="kugamai",
                                     format="swiss", rounds_planned=5)
    Entrant.objects.bulk_create(Entrant(tournament=cup, player=p) for p in _players(club_a, 101))
    cup = services.tournament_update(actor=alice, tournament=cup, format="round_robin")
    with pytest.raises(ApplicationError, match="at most 100 entrants"):
        services.tournament_start(actor=alice, tournament=cup)
    cup.refresh_from_db()
    assert cup.status == "draft"


def test_board_size_is_bounded(alice_api: Any, club_a: Any) -> None:
    answer = _create(alice_api, club_a, game="kazambi",
                     game_options={"rows": 1000, "cols": 1000})
    assert answer.status_code == 400
    assert "game_options" in answer.json()["errors"]


@pytest.mark.parametrize(("path", "field", "extra"), [
    ("/api/players/", "display_name", {}),
    ("/api/teams/", "name", {}),
    ("/api/tournaments/", "name", {"game": "kugamai", "format": "swiss"}),
])
def test_names_are_bounded_at_the_api(alice_api: Any, club_a: Any, path: str, field: str,
                                      extra: dict[str, Any]) -> None:
    answer = alice_api.post(path, {"club": club_a.pk, field: "x" * 5000, **extra},
                            format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"]


def test_names_are_bounded_in_the_services(club_a: Any, alice: Any) -> None:
    with pytest.raises((ValidationError, ApplicationError)):
        player_services.player_create(actor=alice, display_name="x" * 5000, club=club_a)
    with pytest.raises((ValidationError, ApplicationError)):
        player_services.team_create(actor=alice, name="x" * 5000, club=club_a)
    with pytest.raises((ValidationError, ApplicationError)):
        services.tournament_create(actor=alice, club=club_a, name="x" * 5000,
                                   game="kugamai", format="swiss")
    assert not Player.objects.exists() and not Tournament.objects.exists()


@pytest.fixture
def board(make_event: Any, alice: Any) -> Pairing:
    tournament = make_event(entrants=2, match_format="ft3/9")
    round_ = services.round_pair_next(actor=alice, tournament=tournament, release=True)
    return round_.pairings.get()


@pytest.mark.parametrize("clock_left", [[1.0] * 10_000, [1e308, 1.0], [-1.0], [3.0, 2.0, 1.0]])
def test_clock_left_is_bounded(alice_api: Any, board: Pairing, clock_left: list[float]) -> None:
    answer = alice_api.post(f"/api/pairings/{board.pk}/games/",
                            {"version": 1, "result": "a", "clock_left": clock_left},
                            format="json")
    assert answer.status_code == 400, answer.content
    assert "clock_left" in answer.json()["errors"]
    assert not Game.objects.exists()


def test_clock_left_is_bounded_in_the_service(board: Pairing, alice: Any) -> None:
    with pytest.raises(ApplicationError) as error:
        game_services.game_entry_record(actor=alice, pairing=board, expected_version=1,
                                        result="a", clock_left=[1.0] * 3)
    assert error.value.field == "clock_left"
    recorded = game_services.game_entry_record(actor=alice, pairing=board, expected_version=1,
                                               result="a", clock_left=[12.5, 3])
    assert recorded.game.clock_left == [12.5, 3.0]


def test_a_first_to_stored_before_the_bound_stops_at_the_bound(board: Pairing,
                                                              alice: Any) -> None:
    """A row written before the bound ({"kind": "first_to", "games": 30000}, no cap) is
    refused past 100 games instead of writing 30,000 of them."""
    Tournament.objects.filter(pk=board.round.tournament_id).update(
        match_format={"kind": "first_to", "games": 30000, "max_games": None,
                      "duplicate": False})
    board.refresh_from_db()
    with pytest.raises(ApplicationError, match=f"at most {MAX_MATCH_GAMES} games"):
        result_services.result_record(actor=alice, pairing=board, expected_version=1,
                                      score=MatchScore(30000, 0, 0))
    assert not Game.objects.exists()


def test_the_database_backs_the_bounds(board: Pairing) -> None:
    tournament = board.round.tournament
    checks = [
        lambda: Game.objects.create(pairing=board, number=MAX_MATCH_GAMES + 1,
                                    game="kugamai", first_side=0, played_at=timezone.now()),
        lambda: Pairing.objects.filter(pk=board.pk).update(
            outcome="a_wins", wins_a=MAX_MATCH_GAMES, wins_b=1),
        lambda: Round.objects.create(tournament=tournament, number=MAX_ROUNDS + 1),
        lambda: Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=MAX_ROUNDS + 1),
    ]
    for check in checks:
        with pytest.raises(IntegrityError), transaction.atomic():
            check()
