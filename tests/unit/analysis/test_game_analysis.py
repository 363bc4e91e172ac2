"""A recorded game annotated move by move: exact blunders (with the better move) where
the solver's value dropped, win-rate drops elsewhere; Stolbiki's sampling of hidden hands;
records that do not replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.analysis import AnalysisError, Budget, analyse_game, analyse_position, position_at
from games.bots.solvers.kazambi import live_tile_count
from games.engines import get_engine
from tests.unit.analysis.exhaustive import (
    Exhaustive,
    blunder_game,
    random_game,
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_kugamai_blunder_is_marked_with_the_better_move(seed: int) -> None:
    record, number, before, after, better, referee = blunder_game(seed)
    report = analyse_game(record)
    assert len(report.moves) == len(record["moves"])
    note = report.moves[number - 1]
    assert note.move == record["moves"][number - 1]
    assert (note.value_before, note.value_after) == (before, after)
    assert note.blunder and note.better_move in better
    # Perfect play after the blunder: the analysis agrees with the referee move by move.
    for later in report.moves[number:]:
        assert not later.blunder
    assert [n.number for n in report.blunders()] == [
        n.number for n in report.moves[: number - 1] if n.blunder] + [number]
    as_dict = report.as_dict()
    assert number in as_dict["blunders"]
    assert as_dict["moves"][number - 1]["better_move"] == note.better_move
    assert as_dict["result"] == get_engine("kugamai").replay(record)[1]


def test_every_exact_value_of_a_late_kugamai_game_matches_the_referee() -> None:
    record, number, *_ = blunder_game(7)
    referee = Exhaustive("kugamai")
    for note in analyse_game(record).moves[number - 1:]:
        state = position_at(record, note.number - 1)[1]
        values = referee.move_values(state)
        assert note.value_before == max(values.values())
        assert note.value_after == values[note.move]


def test_kazambi_marks_only_exact_blunders() -> None:
    engine = get_engine("kazambi")
    state = random_game("kazambi", 5, rows=4, cols=5)
    record = engine.record(state)
    report = analyse_game(record, Budget(iterations=200, seed=3))
    methods = [note.method for note in report.moves]
    assert methods[-1] == "exact" and "mcts" in methods
    for note in report.moves:
        if note.method == "mcts":
            assert not note.blunder and note.value_before is None
        else:
            position = position_at(record, note.number - 1)[1]
            assert live_tile_count(position) <= 12
            values = Exhaustive("kazambi").move_values(position)
            assert note.blunder == (values[note.move] < max(values.values()))
            if note.blunder:
                assert values[note.better_move or ""] == max(values.values())
    drops = [note.drop for note in report.moves if note.method == "mcts" and not note.forced]
    assert drops and all(drop is not None and drop >= 0 for drop in drops)


def _stolbiki_position(seed: int) -> Any:
    engine = get_engine("stolbiki")
    rng = random.Random(seed)
    state = engine.new_game(seed=seed)
    for _ in range(8):
        legal = engine.legal_moves(state)
        state = engine.play(state, legal[rng.randrange(len(legal))])
    return state


def test_stolbiki_sees_only_what_the_seat_to_move_sees() -> None:
    """Two positions that differ only in the hands the seat to move cannot see get the
    same analysis; with every hand known (a finished game's right) they may differ."""
    engine = get_engine("stolbiki")
    state = _stolbiki_position(2)
    seat = engine.to_move(state)
    doc = engine.to_dict(state)
    other = [s for s in range(len(doc["hands"])) if s % 2 != seat % 2]
    first, second = doc["hands"][other[0]], doc["hands"][other[1]]
    swapped = {**doc, "hands": list(doc["hands"])}
    swapped["hands"][other[0]] = [second[0], *first[1:]]
    swapped["hands"][other[1]] = [first[0], *second[1:]]
    twin = engine.from_dict(swapped)
    assert engine.observation(twin, seat) == engine.observation(state, seat)
    budget = Budget(iterations=600, seed=4)
    seen = analyse_position("stolbiki", state, budget)
    assert seen.method == "sampling" and seen.information == "observed"
    assert seen.as_dict()["moves"] == analyse_position("stolbiki", twin, budget).as_dict()["moves"]
    legal = {str(move) for move in engine.legal_moves(state)}
    assert {move.move for move in seen.moves} == legal
    columns = 9
    for move in seen.moves:
        assert 0 <= (move.points or 0) <= columns and 0 <= (move.opponent_points or 0) <= columns
        assert move.visits == seen.samples
    best = seen.moves[0]
    assert best.best and (best.points or 0) - (best.opponent_points or 0) == max(
        (m.points or 0) - (m.opponent_points or 0) for m in seen.moves)
    known = analyse_position("stolbiki", state, budget, information="all hands")
    assert known.information == "all hands" and known.as_dict()["information"] == "all hands"


def test_a_finished_stolbiki_game_is_analysed_with_every_hand_and_says_so() -> None:
    engine = get_engine("stolbiki")
    state = random_game("stolbiki", 3)
    record = engine.record(state)
    report = analyse_game(record, Budget(iterations=100, seed=1))
    assert report.information == "all hands" and report.as_dict()["information"] == "all hands"
    assert all(note.method == "sampling" and not note.blunder for note in report.moves)
    unfinished = {**record, "moves": record["moves"][:10]}
    unfinished.pop("result")
    assert analyse_game(unfinished, Budget(iterations=100)).information == "observed"


def test_a_record_that_does_not_replay_names_the_move_and_the_rule() -> None:
    engine = get_engine("kugamai")
    record = engine.record(engine.new_game(seed=1))
    record["moves"] = ["0-0", "6-6"]
    with pytest.raises(AnalysisError) as refused:
        analyse_game(record)
    assert refused.value.field == "record" and "move 2 (6-6)" in str(refused.value)
    record["moves"] = ["0-0"]
    with pytest.raises(AnalysisError) as refused:
        position_at(record, 2)
    assert refused.value.field == "move"
    with pytest.raises(AnalysisError):
        analyse_game({"game": "chess"})
    with pytest.raises(AnalysisError) as refused:
        Budget(iterations=0)
    assert refused.value.field == "iterations"


def test_the_final_position_is_over() -> None:
    record, *_ = blunder_game(1)
    replayed, final = position_at(record, len(record["moves"]))
    report = analyse_position("kugamai", final)
    assert report.method == "over" and report.moves == [] and replayed.finished
