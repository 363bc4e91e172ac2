from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError, ConflictError
from games.engines import get_engine
from games.series import deal_for_game, game_roles
from matches.models import Game
from matches.services.games import DuplicateGameError, game_record
from tournaments.models import Outcome, ResultChange
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


def first_pairing(tournament: Any, organizer: Any) -> Any:
    round_ = round_pair_next(actor=organizer, tournament=tournament, release=True)
    return round_.pairings.filter(entrant_b__isnull=False).order_by("board").first()


def played_record(game: str, index: int, seed: int = 11) -> dict[str, Any]:
    engine = get_engine(game)
    state = engine.new_game(deal=deal_for_game(game, {}, seed, game_roles(game, index)))
    while not engine.is_over(state):
        state = engine.play(state, engine.legal_moves(state)[-1])
    return engine.record(state)


def test_first_to_three_match_is_recorded_game_by_game(make_event: Any, organizer: Any) -> None:
    tournament = make_event(match_format={"kind": "first_to", "games": 3, "max_games": 9})
    pairing = first_pairing(tournament, organizer)
    for result in ("a", "draw", "b", "a", "a"):
        recorded = game_record(actor=organizer, pairing=pairing, result=result)
    assert recorded.match_decided
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.wins_a, pairing.wins_b, pairing.draws) == (
        Outcome.A_WINS, 3, 1, 1)
    assert [g.first_side for g in pairing.games.all()] == [0, 1, 0, 1, 0]
    assert ResultChange.objects.filter(pairing=pairing).count() == 1
    with pytest.raises(ApplicationError, match="already has its result"):
        game_record(actor=organizer, pairing=pairing, result="b")
    assert pairing.games.count() == 5


def test_record_gives_the_result_and_is_checked(make_event: Any, organizer: Any) -> None:
    tournament = make_event(match_format={"kind": "fixed", "games": 2})
    pairing = first_pairing(tournament, organizer)
    record = played_record("kugamai", 0)
    winner = get_engine("kugamai").replay(record)[1]
    assert winner is not None
    recorded = game_record(actor=organizer, pairing=pairing, record=record)
    assert recorded.game.winner_side == winner["winner"]
    assert recorded.game.move_count == len(record["moves"])
    # game 2: side B holds the low doubles; the same roles as game 1 are refused
    with pytest.raises(ApplicationError, match="should hold the low doubles"):
        game_record(actor=organizer, pairing=pairing, record=played_record("kugamai", 0))
    bad = played_record("kugamai", 1)
    bad["moves"][2] = "0-0"
    with pytest.raises(ApplicationError, match=r"Game 2 record: move 3, 0-0"):
        game_record(actor=organizer, pairing=pairing, record=bad)
    assert pairing.games.count() == 1


def test_stale_and_duplicate_writes_are_refused(make_event: Any, organizer: Any) -> None:
    tournament = make_event(match_format={"kind": "best_of", "games": 3})
    pairing = first_pairing(tournament, organizer)
    seen = pairing.version
    game_record(actor=organizer, pairing=pairing, result="a", expected_version=seen)
    with pytest.raises(ConflictError):
        game_record(actor=organizer, pairing=pairing, result="a", expected_version=seen)
    with pytest.raises(DuplicateGameError):
        game_record(actor=organizer, pairing=pairing, result="a", number=1)
    assert Game.objects.filter(pairing=pairing).count() == 1


def test_other_clubs_organizer_cannot_record(make_event: Any, organizer: Any,
                                             club_b: Any) -> None:
    from django.core.exceptions import PermissionDenied

    tournament = make_event()
    pairing = first_pairing(tournament, organizer)
    with pytest.raises(PermissionDenied):
        game_record(actor=club_b.organizers.get(), pairing=pairing, result="a")
    assert not Game.objects.exists()
