"""Game records (docs/rules/records.md): record, replay, and rejection of bad records."""

from __future__ import annotations

import copy

import pytest

from games.engines import get_engine
from games.engines.errors import DocumentError, RecordError

from .helpers import ENGINE, random_game


def finished_record(seed: int = 6) -> dict:
    return ENGINE.record(random_game(seed)[-1], ["Ann", "Bob"])


def test_registry_finds_the_engine():
    assert get_engine("kugamai").name == "kugamai"
    assert get_engine("kugamai").seat_count() == 2


@pytest.mark.parametrize("seed", range(8))
def test_replay_reproduces_the_result_and_position(seed):
    final = random_game(seed)[-1]
    record = ENGINE.record(final, ["Ann", "Bob"])
    assert set(record) == {"game", "options", "seats", "deal", "moves", "result"}
    assert record["deal"]["first"] == (0 if "0-0" in record["deal"]["hands"][0] else 1)
    assert record["moves"][0] == "0-0"
    replayed, result = ENGINE.replay(record)
    assert result == ENGINE.result(final)
    assert ENGINE.to_dict(replayed) == ENGINE.to_dict(final)


def test_unfinished_record_has_no_result():
    state = random_game(6)[4]
    record = ENGINE.record(state)
    assert "result" not in record
    replayed, result = ENGINE.replay(record)
    assert result is None
    assert ENGINE.to_dict(replayed) == ENGINE.to_dict(state)


def test_record_keeps_the_low_doubles_option():
    state = ENGINE.new_game(seed=3, low_doubles_seat=1)
    state = ENGINE.play(state, "0-0")
    record = ENGINE.record(state)
    assert record["options"] == {"low_doubles_seat": 1}
    assert record["deal"]["low_doubles_seat"] == 1
    assert ENGINE.replay(record)[0].low_doubles_seat == 1


def test_record_with_an_illegal_move_names_move_and_rule():
    record = finished_record()
    record["moves"][2] = "pass"
    with pytest.raises(RecordError) as caught:
        ENGINE.replay(record)
    assert caught.value.move_number == 3
    assert str(caught.value).startswith("move 3, pass: seat ")
    assert "may pass only when no tile fits" in caught.value.rule


def test_record_with_a_tile_from_the_wrong_hand():
    record = finished_record()
    mover_hand = record["deal"]["hands"][1 - record["deal"]["first"]]
    # Move 2 is laid by the seat that did not open; a 0-x tile of the opener will not do.
    opener_zero = next(
        t
        for t in record["deal"]["hands"][record["deal"]["first"]]
        if t.startswith("0-") and t != "0-0"
    )
    assert opener_zero not in mover_hand
    record["moves"][1] = opener_zero
    with pytest.raises(RecordError, match=r"^move 2, 0-\d: tile 0-\d is not in seat"):
        ENGINE.replay(record)


def test_record_with_a_move_after_the_end():
    record = finished_record()
    record["moves"].append("pass")
    with pytest.raises(RecordError, match=r"game is already over"):
        ENGINE.replay(record)


def test_record_with_a_wrong_result():
    record = finished_record()
    record["result"] = dict(
        record["result"], winner={0: 1, 1: None, None: 0}[record["result"]["winner"]]
    )
    with pytest.raises(DocumentError, match="states winner"):
        ENGINE.replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("deal"), "'deal'"),
        (lambda r: r.__setitem__("moves", "0-0"), "'moves'"),
        (lambda r: r.__setitem__("game", "stolbiki"), "not 'kugamai'"),
        (lambda r: r["deal"]["hands"][0].pop(), "13 tiles"),
    ],
)
def test_malformed_records(change, message):
    record = copy.deepcopy(finished_record())
    change(record)
    with pytest.raises(DocumentError, match=message):
        ENGINE.replay(record)


def test_record_with_an_unreadable_move():
    record = finished_record()
    record["moves"][1] = "0/3"
    with pytest.raises(RecordError, match=r"^move 2, 0/3: .*not a move"):
        ENGINE.replay(record)
