"""State documents, observations, explicit deals, records and bad input."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from typing import Any

import pytest

from games.engines.errors import (
    DocumentError,
    EngineError,
    IllegalMoveError,
    NotationError,
    OptionError,
    RecordError,
)
from games.engines.stolbiki import PASS, Placement, StolbikiEngine
from games.engines.stolbiki.playout import play_randomly
from games.engines.stolbiki.state import StolbikiState
from tests.unit.engines.stolbiki.positions import position

ENGINE = StolbikiEngine()


def finished(seed: int, **options: Any) -> StolbikiState:
    state = ENGINE.new_game(seed=seed, **options)
    play_randomly(state, random.Random(seed))
    return state


def midgame(seed: int, plies: int, **options: Any) -> StolbikiState:
    state = ENGINE.new_game(seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(plies):
        if ENGINE.is_over(state):
            break
        state = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))
    return state


# -- documents --------------------------------------------------------------------------


def test_document_keys_and_json() -> None:
    state = midgame(1, 7)
    doc = ENGINE.to_dict(state)
    assert set(doc) == {
        "game", "options", "to_move", "hands", "history", "table", "revealed", "red_side",
    }
    assert doc["game"] == "stolbiki"
    assert doc["options"] == {"deck": 36, "team_size": 2}
    assert len(doc["table"]) == len([m for m in doc["history"] if m != "pass"])
    assert doc["history"][0].endswith("@0,0")
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize("plies", [0, 1, 5, 20, 200])
def test_round_trip_with_history(plies: int) -> None:
    state = midgame(3, plies, team_size=3)
    doc = ENGINE.to_dict(state)
    loaded = ENGINE.from_dict(doc)
    assert ENGINE.to_dict(loaded) == doc
    assert ENGINE.initial_deal(loaded) == ENGINE.initial_deal(state)
    assert [str(m) for m in ENGINE.legal_moves(loaded)] == [
        str(m) for m in ENGINE.legal_moves(state)
    ]
    # the full history is replayed, so moves can be taken back to the deal
    for _ in doc["history"]:
        ENGINE.pop(loaded)
    assert ENGINE.to_dict(loaded)["table"] == {}


def test_round_trip_without_history() -> None:
    state = finished(4)
    doc = ENGINE.to_dict(state)
    doc["history"] = []
    loaded = ENGINE.from_dict(doc)
    assert ENGINE.to_dict(loaded) == doc
    assert ENGINE.is_over(loaded)
    assert ENGINE.result(loaded) == ENGINE.result(state)
    with pytest.raises(DocumentError, match="deal is unknown"):
        ENGINE.initial_deal(loaded)
    with pytest.raises(EngineError, match="no move to take back"):
        ENGINE.pop(loaded)


def test_position_without_history_plays_on() -> None:
    state = midgame(5, 9)
    doc = ENGINE.to_dict(state)
    doc["history"] = []
    loaded = ENGINE.from_dict(doc)
    assert [str(m) for m in ENGINE.legal_moves(loaded)] == [
        str(m) for m in ENGINE.legal_moves(state)
    ]
    move = ENGINE.legal_moves(loaded)[-1]
    after = ENGINE.play(loaded, move)
    ENGINE.pop(after)
    assert ENGINE.to_dict(after) == doc


def test_red_side_inferred_when_missing() -> None:
    doc = ENGINE.to_dict(midgame(6, 4))
    red_side = doc.pop("red_side")
    assert ENGINE.from_dict(doc).red_side == red_side


def test_start_position_without_history_has_a_deal() -> None:
    state = ENGINE.new_game(seed=8)
    loaded = ENGINE.from_dict(ENGINE.to_dict(state))
    assert ENGINE.initial_deal(loaded) == ENGINE.initial_deal(state)


def _bad(doc: dict[str, Any], match: str) -> None:
    with pytest.raises(DocumentError, match=match):
        ENGINE.from_dict(doc)


def test_bad_documents() -> None:
    doc = ENGINE.to_dict(midgame(2, 6))
    _bad({**doc, "game": "kugamai"}, "not 'stolbiki'")
    _bad({**doc, "colour": 1}, "unknown key 'colour'")
    _bad({**doc, "options": {"deck": 40}}, "deck must be 36 or 52")
    _bad({**doc, "to_move": 4}, "to_move")
    _bad({**doc, "to_move": True}, "to_move")
    _bad({**doc, "hands": doc["hands"][:3]}, "list of 4 lists")
    _bad({**doc, "table": []}, "'table' must be an object")
    _bad({**doc, "history": "TD@0,0"}, "list of move texts")
    _bad({**doc, "history": doc["history"] + ["zz"]}, "history, move")
    _bad({**doc, "red_side": 1 - doc["red_side"]}, "side")
    _bad({**doc, "revealed": ["AS", "AS", "XX"]}, "revealed")
    del_table = copy.deepcopy(doc)
    del_table.pop("table")
    _bad(del_table, "'table' is missing")
    _bad("nope", "JSON object")  # type: ignore[arg-type]


def test_bad_documents_cards() -> None:
    doc = ENGINE.to_dict(midgame(2, 6))
    doc["history"] = []
    hands = copy.deepcopy(doc["hands"])
    hands[0].append(hands[2][0])
    _bad({**doc, "hands": hands}, "appears twice")
    hands = copy.deepcopy(doc["hands"])
    hands[0].pop()
    _bad({**doc, "hands": hands}, "neither in a hand nor on the table")
    table_card = next(iter(doc["table"].values()))
    hands = copy.deepcopy(doc["hands"])
    hands[0 if table_card[1] in "HD" else 1].append(table_card)
    _bad({**doc, "hands": hands}, "both on the table and in a hand")
    _bad({**doc, "table": {**doc["table"], "9,9": "2H"}}, "2H is not in the 36-card deck")


def test_bad_tables_without_history() -> None:
    _bad(position({"1,0": "8H"}), "0,0, which is empty")
    _bad(position({"0,0": "JH"}), "must rank 2 to 10")
    _bad(position({"0,0": "8H", "2,0": "9C"}), "not connected")
    _bad(position({"0,0": "8H", "1,0": "9H"}), "same suit")
    _bad(position({"0,0": "8H", "1,0": "7C"}), "higher than none")
    row = ["6H", "7C", "8D", "9S", "TH", "JC", "QD", "KS", "AH", "AS"]
    _bad(position({f"{x},0": card for x, card in enumerate(row)}), "must fit 9 columns")
    _bad(position({"0,0": "8H", "x,0": "9C"}), "not a position")


def test_bad_history_is_rejected() -> None:
    doc = ENGINE.to_dict(midgame(2, 6))
    partial = {**doc, "history": doc["history"][1:]}
    _bad(partial, "give every move since the deal")
    moved = copy.deepcopy(doc)
    moved["history"][1], moved["history"][2] = moved["history"][2], moved["history"][1]
    _bad(moved, "does not fit a deal|history, move")
    wrong = {**doc, "history": ["pass"] + doc["history"][1:]}
    _bad(wrong, "history lays 5 card.s. but the table holds 6")
    swapped = copy.deepcopy(doc)
    swapped["history"][0] = "pass"
    swapped["history"].append(doc["history"][0])
    swapped["to_move"] = (doc["to_move"] + 1) % 4
    _bad(swapped, "does not fit a deal|history, move")


def test_history_that_breaks_a_rule_is_rejected() -> None:
    doc = position({"0,0": "8H", "1,0": "7C"}, to_move=2)
    doc["hands"][2].append(doc["hands"][0].pop())
    doc["hands"][3].append(doc["hands"][1].pop())
    doc["history"] = ["8H@0,0", "7C@1,0"]
    _bad(doc, r"history, move 2, 7C@1,0: 7C touches no black card.*\(seniority\)")
    doc["table"]["1,0"] = "9C"
    doc["history"][1] = "9C@1,0"
    for hand in doc["hands"]:
        if "9C" in hand:
            hand[hand.index("9C")] = "7C"
    assert ENGINE.to_dict(ENGINE.from_dict(doc))["history"] == ["8H@0,0", "9C@1,0"]


def test_revealed_must_be_whole_hands() -> None:
    state = finished(0)
    doc = ENGINE.to_dict(state)
    with_cards = [s for s, hand in enumerate(doc["hands"]) if hand]
    if not with_cards:
        pytest.skip("every card laid")
    seat = with_cards[0]
    doc["history"] = []
    doc["revealed"] = doc["hands"][seat][:1] if len(doc["hands"][seat]) > 1 else []
    if doc["revealed"]:
        _bad(doc, "whole hand is shown")
    doc["revealed"] = list(doc["hands"][seat])
    assert ENGINE.from_dict(doc).revealed == 1 << seat


# -- observation ------------------------------------------------------------------------


CARD = re.compile(r"\b[2-9TJQKA][HDCS]\b")


@pytest.mark.parametrize("seed", range(6))
def test_observation_never_shows_hidden_cards(seed: int) -> None:
    state = ENGINE.new_game(seed=seed, team_size=1 + seed % 3)
    rng = random.Random(seed)
    while True:
        doc = ENGINE.to_dict(state)
        shown = set(doc["revealed"]) | set(doc["table"].values())
        for seat in range(len(doc["hands"])):
            seen = ENGINE.observation(state, seat)
            visible = set(CARD.findall(json.dumps(seen)))
            hidden = {
                card
                for other, hand in enumerate(doc["hands"])
                if other != seat
                for card in hand
                if card not in shown
            }
            assert not visible & hidden
            assert seen["hand"] == doc["hands"][seat]
            assert seen["hand_counts"] == [len(hand) for hand in doc["hands"]]
            assert seen["table"] == doc["table"]
            assert seen["revealed"] == doc["revealed"]
            assert seen["history"] == doc["history"]
            assert "hands" not in seen
        if ENGINE.is_over(state):
            break
        state = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))


def test_observation_of_a_missing_seat() -> None:
    with pytest.raises(OptionError):
        ENGINE.observation(ENGINE.new_game(seed=1), 4)


# -- explicit deals ---------------------------------------------------------------------


def test_explicit_deal_round_trip() -> None:
    deal = ENGINE.deal(12, team_size=3, deck=52)
    state = ENGINE.new_game(deal=deal, team_size=3, deck=52)
    assert ENGINE.initial_deal(state) == deal
    assert ENGINE.to_move(state) == deal["first"]
    shuffled = copy.deepcopy(deal)
    for hand in shuffled["hands"]:
        hand.reverse()
    assert ENGINE.initial_deal(ENGINE.new_game(deal=shuffled, team_size=3, deck=52)) == deal
    no_side = {"hands": deal["hands"], "first": deal["first"]}
    assert ENGINE.initial_deal(ENGINE.new_game(deal=no_side, team_size=3, deck=52)) == deal


def _bad_deal(deal: Any, match: str, **options: Any) -> None:
    with pytest.raises(DocumentError, match=match):
        ENGINE.new_game(deal=deal, **options)


def test_bad_deals() -> None:
    deal = ENGINE.deal(12)
    _bad_deal([], "must be an object")
    _bad_deal({**deal, "dealer": 0}, "unknown key 'dealer'")
    _bad_deal({"hands": deal["hands"]}, "'first'")
    _bad_deal({**deal, "first": 4}, "from 0 to 3")
    _bad_deal({**deal, "red_side": 1 - deal["red_side"]}, "side")
    _bad_deal({**deal, "hands": deal["hands"][:3]}, "list of 4 lists")
    short = copy.deepcopy(deal)
    short["hands"][0].pop()
    _bad_deal(short, "not dealt")
    twice = copy.deepcopy(deal)
    twice["hands"][0].append(twice["hands"][2][0])
    _bad_deal(twice, "appears twice")
    low = copy.deepcopy(deal)
    red = deal["red_side"]
    low["hands"][red].append("2H")
    _bad_deal(low, "not in the 36-card deck")
    uneven = copy.deepcopy(deal)
    uneven["hands"][red] += uneven["hands"][red + 2][:2]
    uneven["hands"][red + 2] = uneven["hands"][red + 2][2:]
    _bad_deal(uneven, "differ by one at most")
    garbage = copy.deepcopy(deal)
    garbage["hands"][0][0] = "??"
    _bad_deal(garbage, "not a card")


# -- records ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"team_size": 3, "deck": 52}, {"team_size": 1}])
def test_record_replays_to_the_same_result(options: dict[str, Any]) -> None:
    state = finished(21, **options)
    record = ENGINE.record(state, ["a", "b", "c", "d", "e", "f"][: state.seats])
    assert record["game"] == "stolbiki"
    assert record["deal"] == ENGINE.initial_deal(state)
    assert json.loads(json.dumps(record)) == record
    replayed, result = ENGINE.replay(record)
    assert result == ENGINE.result(state)
    assert ENGINE.to_dict(replayed) == ENGINE.to_dict(state)


def test_record_with_an_illegal_move() -> None:
    record = ENGINE.record(finished(22))
    moves = record["moves"]
    index = next(i for i, move in enumerate(moves) if move != "pass" and i > 2)
    card = moves[index].split("@")[0]
    record["moves"] = moves[:index] + [f"{card}@7,3"] + moves[index + 1:]
    record.pop("result")
    with pytest.raises(RecordError, match=rf"move {index + 1}, {card}@7,3: ") as caught:
        ENGINE.replay(record)
    assert caught.value.move_number == index + 1


def test_record_with_a_wrong_result_or_extra_move() -> None:
    record = ENGINE.record(finished(23))
    wrong = copy.deepcopy(record)
    winner = record["result"]["winner"]
    wrong["result"]["winner"] = 0 if winner != 0 else 1
    with pytest.raises(DocumentError, match="states winner"):
        ENGINE.replay(wrong)
    extra = copy.deepcopy(record)
    extra["moves"].append("pass")
    with pytest.raises(RecordError, match="already over"):
        ENGINE.replay(extra)


# -- move input -------------------------------------------------------------------------


def test_play_accepts_objects_and_texts_and_never_mutates() -> None:
    state = ENGINE.new_game(seed=30)
    before = ENGINE.to_dict(state)
    move = ENGINE.legal_moves(state)[0]
    assert isinstance(move, Placement)
    by_object = ENGINE.play(state, move)
    by_text = ENGINE.play(state, str(move).lower())
    assert ENGINE.to_dict(by_object) == ENGINE.to_dict(by_text)
    assert ENGINE.to_dict(state) == before


def test_push_and_pop() -> None:
    state = ENGINE.new_game(seed=31)
    docs = [ENGINE.to_dict(state)]
    texts = []
    while not ENGINE.is_over(state):
        move = ENGINE.legal_moves(state)[-1]
        texts.append(str(move))
        ENGINE.push(state, move)
        docs.append(ENGINE.to_dict(state))
    while texts:
        assert ENGINE.pop(state) == texts.pop()
        docs.pop()
        assert ENGINE.to_dict(state) == docs[-1]
        fresh = ENGINE.from_dict(docs[-1])
        assert state.frontier == fresh.frontier  # rebuilt when the box shrank back
        assert ENGINE.legal_moves(state) == ENGINE.legal_moves(fresh)


@pytest.mark.parametrize(
    "move",
    ["", "QS@", "pass me", None, 3, Placement("ZZ", 0, 0), Placement("6H", "0", 0),  # type: ignore[arg-type]
     "QS@1e9,0", ["TD@0,0"], PASS + "!", "TD@0,0,0"],
)
def test_bad_moves_give_engine_errors(move: Any) -> None:
    state = ENGINE.new_game(seed=32)
    with pytest.raises(EngineError):
        ENGINE.play(state, move)


def test_fuzzed_moves_and_documents_only_raise_engine_errors() -> None:
    rng = random.Random(99)
    state = midgame(33, 10)
    doc = ENGINE.to_dict(state)
    alphabet = "23456789TJQKAHDCS@,-0123456789 pas"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
        with contextlib.suppress(EngineError):
            ENGINE.play(state, text)
    values: list[Any] = [None, 1, -1, True, "x", [], {}, ["QS"], {"0,0": "QS"}, "QS", 2.5]
    for _ in range(300):
        broken = copy.deepcopy(doc)
        key = rng.choice(sorted(broken))
        broken[key] = rng.choice(values)
        with contextlib.suppress(EngineError):
            ENGINE.from_dict(broken)
    for _ in range(100):
        broken = copy.deepcopy(doc)
        seat = rng.randrange(4)
        if broken["hands"][seat]:
            broken["hands"][seat][0] = rng.choice(values)
        with contextlib.suppress(EngineError):
            ENGINE.from_dict(broken)


def test_illegal_move_error_is_a_value_error_with_a_rule() -> None:
    state = ENGINE.new_game(seed=34)
    with pytest.raises(ValueError) as caught:
        ENGINE.play(state, "TD@5,5")
    error = caught.value
    assert isinstance(error, IllegalMoveError | NotationError)
