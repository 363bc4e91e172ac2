"""State documents, explicit deals and game records of the Kazambi engines."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import pytest

from games.engines.errors import DocumentError, EngineError, RecordError
from games.engines.kazambi import AntiKazambiEngine, KazambiEngine, KazambiPairsEngine
from tests.unit.engines.kazambi.helpers import DEAL, game, random_game

kazambi = KazambiEngine()
pairs = KazambiPairsEngine()
anti = AntiKazambiEngine()


def rejected(engine: KazambiEngine, doc: Any, match: str) -> None:
    with pytest.raises(DocumentError, match=match):
        engine.from_dict(doc)


# -- state documents --------------------------------------------------------------------


def test_document_keys_and_board_rows() -> None:
    state = game(kazambi, ["0-1@a1b1", "5-5@c3c4"], rows=4, cols=5)
    doc = kazambi.to_dict(state)
    assert doc == {
        "game": "kazambi",
        "options": {"rows": 4, "cols": 5},
        "to_move": 0,
        "hands": [
            [t for t in sorted(DEAL, key=_tile_order) if t != "0-1"],
            [t for t in sorted(DEAL, key=_tile_order) if t != "5-5"],
        ],
        "history": ["0-1@a1b1", "5-5@c3c4"],
        "board": ["01...", ".....", "..5..", "..5.."],
    }
    assert json.loads(json.dumps(doc)) == doc


def _tile_order(text: str) -> tuple[int, int]:
    return int(text[0]), int(text[2])


@pytest.mark.parametrize("engine", [kazambi, pairs, anti])
def test_documents_round_trip_during_a_game(engine: KazambiEngine) -> None:
    state = random_game(engine, seed=7)
    replayed = engine.new_game(deal=engine.initial_deal(state))
    for move in engine.to_dict(state)["history"]:
        doc = engine.to_dict(replayed)
        loaded = engine.from_dict(doc)
        assert engine.to_dict(loaded) == doc
        assert engine.legal_moves(loaded) == engine.legal_moves(replayed)
        replayed = engine.play(replayed, move)
    assert engine.to_dict(engine.from_dict(engine.to_dict(state))) == engine.to_dict(state)


def test_a_position_without_history_loads_and_keeps_its_board_in_the_deal() -> None:
    state = random_game(kazambi, seed=3)
    doc = kazambi.to_dict(state)
    middle = kazambi.to_dict(kazambi.from_dict(doc))
    doc["history"] = doc["history"][-3:]
    partial = kazambi.from_dict(doc)
    assert kazambi.to_dict(partial) == doc
    deal = kazambi.initial_deal(partial)
    assert "board" in deal and deal["board"] != middle["board"]
    doc["history"] = []
    bare = kazambi.from_dict(doc)
    assert kazambi.result(bare) == kazambi.result(state)
    assert kazambi.initial_deal(bare)["board"] == doc["board"]
    assert kazambi.replay(kazambi.record(partial))[1] == kazambi.result(state)


def test_observation_is_the_whole_position() -> None:
    state = game(kazambi, ["0-1@a1b1"])
    observation = kazambi.observation(state, 0)
    burnt = observation.pop("burnt")
    assert observation == kazambi.to_dict(state)
    assert burnt == [[], []]
    assert kazambi.perfect_information


def good_doc() -> dict[str, Any]:
    return kazambi.to_dict(game(kazambi, ["0-1@a1b1", "5-5@c3c4"], rows=4, cols=5))


def with_(changes: dict[str, Any]) -> dict[str, Any]:
    doc = good_doc()
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"game": "kugamai"}, "not 'kazambi'"),
        ({"options": {"rows": 40, "cols": 5}}, "rows must be 2..12"),
        ({"options": [4, 5]}, "'options' must be an object"),
        ({"board": ["01..."] * 3}, "list of 4 rows"),
        ({"board": ["01...", "....", "..5..", "..5.."]}, "row 2 must be a string of 5"),
        ({"board": ["01...", ".....", "..5x.", "..5.."]}, "row 3 has 'x'"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"hands": [[]]}, "list of 2 lists"),
        ({"hands": [["0-0", "0-0"], []]}, "has 0-0 twice"),
        ({"hands": [["9-9"], []]}, "seat 0's hand"),
        ({"hands": "0-0"}, "list of 2 lists"),
        ({"history": "0-1@a1b1"}, "'history' must be a list"),
        ({"history": ["0-1@a1b1", "5-5@c3"]}, "history move 2"),
        ({"history": ["0-1@a1b1", "5-5@c2c3"]}, "history move 2, 5-5@c2c3: the board"),
        ({"history": ["0-1@a1b1", "5-5@l3l4"]}, "off the 4 x 5 board"),
    ],
)
def test_bad_documents(changes: dict[str, Any], match: str) -> None:
    rejected(kazambi, with_(changes), match)


def test_document_must_be_an_object_with_the_known_keys() -> None:
    rejected(kazambi, [], "JSON object")
    doc = good_doc()
    del doc["board"]
    rejected(kazambi, doc, "lacks 'board'")
    rejected(kazambi, with_({"colour": "white"}), "unknown key 'colour'")


def test_boards_that_break_the_line_rule_are_rejected() -> None:
    doc = with_({"history": [], "board": ["01..0", ".....", "..5..", "..5.."]})
    rejected(kazambi, doc, "row 1 holds 2 halves of value 0")
    doc = with_({"history": [], "board": ["01...", ".....", "0.5..", "..5.."]})
    rejected(kazambi, doc, "column a holds 2 halves of value 0")


def test_boards_that_no_dominoes_cover_are_rejected() -> None:
    doc = with_({"history": [], "board": ["012..", ".....", "..5..", "..5.."]})
    rejected(kazambi, doc, "odd number")
    doc = with_({"history": [], "board": ["0.1..", ".....", "..5..", "..5.."]})
    rejected(kazambi, doc, "cannot be split into dominoes")
    doc = with_({"history": [], "board": ["01...", ".....", "..55.", "..5.."]})
    rejected(kazambi, doc, "half of two doubles")


def test_hands_must_fit_the_board_and_the_turn() -> None:
    doc = with_({"history": []})
    doc["hands"][0].remove("0-0")
    rejected(kazambi, doc, "the board holds 2 tiles but the hands have played 3")
    doc = kazambi.to_dict(game(kazambi, ["0-1@a1b1", "5-5@c3c4", "2-3@e1e2"], rows=4, cols=5))
    doc.update(history=[], to_move=0)
    rejected(kazambi, doc, r"tiles played per seat \[2, 1\] do not fit seat 0 to move")
    doc = with_({"history": []})
    doc["hands"][0].remove("4-6")
    doc["hands"][0].append("4-4")
    rejected(kazambi, doc, "15 different tiles")


def test_history_tiles_must_have_left_the_hand() -> None:
    doc = good_doc()
    doc["hands"][0].append("0-1")
    doc["hands"][0].remove("0-0")
    rejected(kazambi, doc, "history move 1, 0-1@a1b1: seat 0 played 0-1 but still holds it")


def test_history_after_the_end_is_rejected() -> None:
    state = random_game(kazambi, seed=0)
    doc = kazambi.to_dict(state)
    stuck = doc["to_move"]
    tile = doc["hands"][stuck].pop(0)
    row, col = next(
        (r, c) for r, line in enumerate(doc["board"]) for c in range(7) if line[c : c + 2] == ".."
    )
    line = doc["board"][row]
    doc["board"][row] = line[:col] + tile[0] + tile[2] + line[col + 2 :]
    move = f"{tile[0]}-{tile[2]}@{'abcdefgh'[col]}{row + 1}{'abcdefgh'[col + 1]}{row + 1}"
    doc["history"].append(move)
    doc["to_move"] = 1 - stuck
    number = len(doc["history"])
    rejected(kazambi, doc, f"history move {number}, {move}: the game was already over")


def test_pairs_partners_share_no_tile() -> None:
    doc = pairs.to_dict(game(pairs))
    doc["hands"][2][0] = doc["hands"][0][0]
    rejected(pairs, doc, "partners 0 and 2 both hold")


# -- explicit deals ---------------------------------------------------------------------


def test_seeded_deal_and_explicit_deal_give_the_same_game() -> None:
    state = kazambi.new_game(seed=11)
    again = kazambi.new_game(deal=kazambi.initial_deal(state))
    assert kazambi.to_dict(again) == kazambi.to_dict(state)
    rng = random.Random(11)
    assert kazambi.draw_deal(rng) == kazambi.initial_deal(state)


@pytest.mark.parametrize(
    ("deal", "match"),
    [
        ({"hands": [DEAL, DEAL]}, "lacks 'first'"),
        ({"hands": [DEAL, DEAL], "first": 2}, "'first' must be a seat number 0..1"),
        ({"hands": [DEAL, DEAL], "first": 0, "colour": 1}, "unknown key"),
        ({"hands": [DEAL, DEAL[:13]], "first": 0}, "seat 1 is dealt 13 tiles"),
        ({"hands": [DEAL, [*DEAL[:13], "4-4"]], "first": 0}, "same 14 tiles"),
        ({"hands": [DEAL, [*DEAL[:13], "0-0"]], "first": 0}, "has 0-0 twice"),
        ({"hands": [DEAL], "first": 0}, "list of 2 lists"),
        ("deal", "must be a JSON object"),
    ],
)
def test_bad_deals(deal: Any, match: str) -> None:
    with pytest.raises(DocumentError, match=match):
        kazambi.new_game(deal=deal)


def test_pairs_deals_are_split_7_7_with_the_same_14_per_team() -> None:
    good = [DEAL[:7], DEAL[7:], DEAL[7:], DEAL[:7]]
    state = pairs.new_game(deal={"hands": good, "first": 3})
    assert pairs.to_move(state) == 3
    with pytest.raises(DocumentError, match="dealt 8 tiles"):
        pairs.new_game(deal={"hands": [DEAL[:8], DEAL[7:], DEAL[7:], DEAL[:7]], "first": 0})
    with pytest.raises(DocumentError, match="partners 0 and 2"):
        pairs.new_game(deal={"hands": [DEAL[:7]] * 4, "first": 0})
    other = [*DEAL[7:13], "4-4"]
    with pytest.raises(DocumentError, match="same 14 tiles"):
        pairs.new_game(deal={"hands": [DEAL[:7], DEAL[:7], DEAL[7:], other], "first": 0})


def test_a_deal_may_start_from_a_set_position() -> None:
    doc = kazambi.to_dict(game(kazambi, ["0-1@a1b1", "5-5@c3c4", "2-3@e1e2"], rows=4, cols=5))
    deal = {"hands": doc["hands"], "first": 1, "board": doc["board"]}
    state = kazambi.new_game(deal=deal, rows=4, cols=5)
    assert kazambi.to_dict(state)["board"] == doc["board"]
    assert kazambi.initial_deal(state) == deal
    with pytest.raises(DocumentError, match="do not fit seat 0"):
        kazambi.new_game(deal={**deal, "first": 0}, rows=4, cols=5)


# -- records ----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [kazambi, pairs, anti])
def test_records_replay_to_the_same_result(engine: KazambiEngine) -> None:
    state = random_game(engine, seed=21, rows=5, cols=6)
    record = engine.record(state, seats=[f"p{i}" for i in range(engine.seats)])
    assert record["game"] == engine.name and record["options"] == {"rows": 5, "cols": 6}
    record = json.loads(json.dumps(record))
    final, result = engine.replay(record)
    assert result == engine.result(state)
    assert engine.to_dict(final) == engine.to_dict(state)


def test_a_record_with_an_illegal_move_names_the_move_and_rule() -> None:
    record = kazambi.record(random_game(kazambi, seed=4))
    record["moves"][2] = "6-6@a1b1"
    record.pop("result")
    with pytest.raises(RecordError) as caught:
        kazambi.replay(record)
    assert caught.value.move_number == 3
    assert str(caught.value).startswith("move 3, 6-6@a1b1: ")


def test_a_record_with_moves_after_the_end_is_rejected() -> None:
    state = game(kazambi, ["0-1@a1b1", "2-3@a2b2"], rows=2, cols=2)
    record = kazambi.record(state)
    record["moves"].append("5-5@a1b1")
    with pytest.raises(RecordError, match="move 3, 5-5@a1b1: the game is already over"):
        kazambi.replay(record)


def test_a_record_with_a_wrong_result_is_rejected() -> None:
    record = kazambi.record(game(kazambi, ["0-1@a1b1", "2-3@a2b2"], rows=2, cols=2))
    record["result"] = {"winner": 0}
    with pytest.raises(DocumentError, match="states winner 0"):
        kazambi.replay(record)


def test_pass_in_a_record_is_an_illegal_move() -> None:
    record = kazambi.record(game(kazambi, ["0-1@a1b1"], rows=2, cols=2))
    record["moves"].append("pass")
    with pytest.raises(RecordError, match="move 2, pass: there is no pass"):
        kazambi.replay(record)


# -- fuzz -------------------------------------------------------------------------------


def _mutations(value: Any, rng: random.Random) -> Any:
    choices: list[Any] = [None, 0, -1, 99, True, "", "x", "0-0", "a1", [], {}, [[]], 1.5]
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        mutated = dict(value)
        if rng.random() < 0.2:
            del mutated[key]
        else:
            mutated[key] = _mutations(value[key], rng)
        return mutated
    if isinstance(value, list) and value and rng.random() < 0.8:
        index = rng.randrange(len(value))
        mutated_list = list(value)
        mutated_list[index] = _mutations(value[index], rng)
        return mutated_list
    if isinstance(value, str) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        return value[:index] + rng.choice("0123456789.-@abxz ") + value[index + 1 :]
    return rng.choice(choices)


@pytest.mark.parametrize("engine", [kazambi, pairs])
def test_fuzzed_documents_give_only_engine_errors(engine: KazambiEngine) -> None:
    rng = random.Random(99)
    state = random_game(engine, seed=5)
    doc = engine.to_dict(state)
    record = engine.record(state)
    for _ in range(400):
        for target, load in ((doc, engine.from_dict), (record, engine.replay)):
            mutated = _mutations(copy.deepcopy(target), rng)
            with contextlib.suppress(EngineError):
                load(mutated)


def test_fuzzed_moves_give_only_engine_errors() -> None:
    rng = random.Random(7)
    state = game(kazambi, ["0-1@a1b1"])
    alphabet = "0123456789-@abcdhilmxz ."
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        with contextlib.suppress(EngineError):
            kazambi.play(state, text)
