"""State documents, explicit deals and malformed input (docs/rules/records.md)."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

import pytest

from games.engines.errors import DocumentError, EngineError, OptionError

from .helpers import ALL_TILES, ENGINE, position_doc, random_game
from .test_rules import DRAW_CHAIN, FISH_CHAIN, WIN_CHAIN, WIN_HAND


def test_document_has_the_keys_of_section_6():
    state = random_game(3)[5]
    doc = ENGINE.to_dict(state)
    assert set(doc) == {
        "game",
        "options",
        "to_move",
        "hands",
        "history",
        "chain",
        "low_doubles_seat",
    }
    assert doc["game"] == "kugamai"
    assert doc["chain"][0] == "0-0"
    assert len(doc["history"]) == 5


@pytest.mark.parametrize("seed", range(5))
def test_round_trip_with_and_without_history(seed):
    for state in random_game(seed):
        doc = ENGINE.to_dict(state)
        loaded = ENGINE.from_dict(doc)
        assert ENGINE.to_dict(loaded) == doc
        assert ENGINE.initial_deal(loaded) == ENGINE.initial_deal(state)
        bare = dict(doc, history=[])
        position = ENGINE.from_dict(bare)
        assert ENGINE.legal_moves(position) == ENGINE.legal_moves(state)
        assert ENGINE.is_over(position) == ENGINE.is_over(state)
        assert ENGINE.to_dict(position) == bare


def test_position_without_history_has_no_known_deal():
    state = ENGINE.from_dict(position_doc(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"]))
    with pytest.raises(DocumentError, match="without its history"):
        ENGINE.initial_deal(state)
    with pytest.raises(DocumentError, match="without its history"):
        ENGINE.record(state)
    start = ENGINE.from_dict(dict(ENGINE.to_dict(ENGINE.new_game(seed=2))))
    assert ENGINE.initial_deal(start) == ENGINE.initial_deal(ENGINE.new_game(seed=2))


# -- explicit deals --------------------------------------------------------------------


def seeded_deal(seed: int = 4) -> dict:
    return ENGINE.initial_deal(ENGINE.new_game(seed=seed))


def test_explicit_deal_gives_the_same_game_as_the_seed():
    deal = seeded_deal()
    assert set(deal) == {"hands", "first", "low_doubles_seat"}
    from_deal = ENGINE.new_game(deal=deal)
    assert ENGINE.to_dict(from_deal) == ENGINE.to_dict(ENGINE.new_game(seed=4))
    minimal = ENGINE.new_game(deal={"hands": deal["hands"]})
    assert ENGINE.to_move(minimal) == deal["first"]
    assert minimal.low_doubles_seat == deal["low_doubles_seat"]


def test_explicit_deal_accepts_tiles_in_either_order():
    deal = seeded_deal()
    turned = [[f"{t[2]}-{t[0]}" for t in hand] for hand in deal["hands"]]
    assert ENGINE.to_dict(ENGINE.new_game(deal={"hands": turned}))["hands"] == deal["hands"]


def with_hands(hands):
    return {"hands": hands}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].pop(), "dealt 13 tiles"),
        (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "appears twice"),
        (lambda d: d["hands"][0].append("7-7"), "not a tile"),
        (lambda d: d.__setitem__("hands", d["hands"][:1]), "two hands"),
        (lambda d: d.__setitem__("hands", "0-0"), "two hands"),
        (lambda d: d["hands"].__setitem__(1, "0-0 1-1"), "must be a list"),
        (lambda d: d.pop("hands"), "needs 'hands'"),
        (lambda d: d.__setitem__("first", 1 - d["first"]), "holds 0-0"),
        (lambda d: d.__setitem__("first", 2), "0 or 1"),
        (
            lambda d: d.__setitem__("low_doubles_seat", 1 - d["low_doubles_seat"]),
            "takes the low doubles",
        ),
    ],
)
def test_bad_deals_are_document_errors(change, message):
    deal = copy.deepcopy(seeded_deal())
    change(deal)
    with pytest.raises(DocumentError, match=message):
        ENGINE.new_game(deal=deal)


def test_deal_with_doubles_split_wrongly():
    deal = copy.deepcopy(seeded_deal())
    low = deal["low_doubles_seat"]
    deal["hands"][low].remove("3-3")
    deal["hands"][1 - low].remove("4-4")
    deal["hands"][low].append("4-4")
    deal["hands"][1 - low].append("3-3")
    with pytest.raises(DocumentError, match="low doubles 1-1, 2-2, 3-3"):
        ENGINE.new_game(deal=deal)


def test_deal_must_agree_with_the_low_doubles_option():
    deal = seeded_deal()
    low = deal["low_doubles_seat"]
    assert ENGINE.new_game(deal=deal, low_doubles_seat=low).low_doubles_seat == low
    with pytest.raises(DocumentError, match="option low_doubles_seat"):
        ENGINE.new_game(deal=deal, low_doubles_seat=1 - low)


@pytest.mark.parametrize("options", [{"low_doubles_seat": 2}, {"low_doubles_seat": True}, {"x": 1}])
def test_bad_options_are_option_errors(options):
    with pytest.raises(OptionError):
        ENGINE.new_game(seed=1, **options)


def test_not_a_deal():
    with pytest.raises(DocumentError, match="must be an object"):
        ENGINE.new_game(deal=["0-0"])  # type: ignore[arg-type]


# -- bad state documents ---------------------------------------------------------------


def fish_doc(**changes):
    doc = position_doc(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (fish_doc(game="stolbiki"), "not 'kugamai'"),
        (fish_doc(to_move=2), "'to_move' must be a seat"),
        (fish_doc(to_move=True), "'to_move' must be a seat"),
        (fish_doc(low_doubles_seat="0"), "'low_doubles_seat' must be a seat"),
        (fish_doc(options=[1]), "'options' must be an object"),
        (fish_doc(chain=["0-1"]), "must open with 0-0"),
        (fish_doc(chain=FISH_CHAIN + ["5-1"]), "does not match the open end 6"),
        (fish_doc(chain=FISH_CHAIN + ["6-0"]), "makes a fish"),
        (fish_doc(chain=["0-0", "0-1", "1-0"]), "appears twice"),
        (fish_doc(chain="0-0"), "'chain' must be a list"),
        (fish_doc(chain=["0-0", 5]), "chain tile 2"),
        (fish_doc(chain=FISH_CHAIN[:-1]), "missing from hands and chain: 5-6"),
        (fish_doc(chain=FISH_CHAIN + ["6-1"]), "both in a hand and on the table"),
        (fish_doc(history="0-0"), "'history' must be a list"),
        (fish_doc(history=["0-0", "0-1"]), "'history' must hold every move"),
        (fish_doc(history=FISH_CHAIN[:4] + ["pass"] + FISH_CHAIN[4:]), "history"),
    ],
)
def test_bad_state_documents(doc, message):
    with pytest.raises(DocumentError, match=message):
        ENGINE.from_dict(doc)


def test_document_must_be_an_object_with_all_keys():
    with pytest.raises(DocumentError, match="JSON object"):
        ENGINE.from_dict([])  # type: ignore[arg-type]
    for key in ("to_move", "hands", "chain", "low_doubles_seat"):
        doc = fish_doc()
        del doc[key]
        with pytest.raises(DocumentError, match=repr(key)):
            ENGINE.from_dict(doc)


def test_hand_holding_the_other_seats_double():
    doc = fish_doc()
    doc["hands"][0].append("4-4")
    doc["hands"][1].remove("4-4")
    with pytest.raises(DocumentError, match="other seat's double"):
        ENGINE.from_dict(doc)
    low = fish_doc(low_doubles_seat=1)
    with pytest.raises(DocumentError, match="other seat's double"):
        ENGINE.from_dict(low)


def test_more_than_fourteen_tiles_in_a_hand():
    doc = position_doc(FISH_CHAIN, ["0-6", "1-1", "2-2", "3-3"])
    with pytest.raises(DocumentError, match="more than 14"):
        ENGINE.from_dict(doc)


def test_start_position_must_have_the_zero_zero_holder_to_move():
    doc = ENGINE.to_dict(ENGINE.new_game(seed=8))
    doc["to_move"] = 1 - doc["to_move"]
    with pytest.raises(DocumentError, match="holder of 0-0 opens"):
        ENGINE.from_dict(doc)


def test_a_won_position_must_end_with_the_winners_last_double():
    won = ENGINE.play(ENGINE.from_dict(position_doc(WIN_CHAIN, WIN_HAND)), "3-3")
    doc = ENGINE.to_dict(won)
    assert ENGINE.is_over(ENGINE.from_dict(dict(doc, history=[])))
    with pytest.raises(DocumentError, match="placed all its doubles"):
        ENGINE.from_dict(dict(doc, history=[], to_move=0))
    moved_on = dict(doc, history=[], chain=doc["chain"] + ["3-4"])
    moved_on["hands"] = [[t for t in doc["hands"][0] if t != "3-4"], doc["hands"][1]]
    with pytest.raises(DocumentError, match="placed all its doubles"):
        ENGINE.from_dict(moved_on)


def test_history_that_implies_an_impossible_deal():
    doc = position_doc(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"], history=FISH_CHAIN)
    # Seats alternate, so seat 1 would have laid five chain tiles and seat 0 four, while
    # seat 0 holds only five tiles: the implied deal is wrong somewhere.
    with pytest.raises(DocumentError, match="impossible|history move"):
        ENGINE.from_dict(doc)


def test_history_is_replayed_and_checked():
    states = random_game(21)
    doc = ENGINE.to_dict(states[-1])
    loaded = ENGINE.from_dict(doc)
    assert ENGINE.result(loaded) == ENGINE.result(states[-1])
    bad = copy.deepcopy(doc)
    bad["to_move"] = 1 - bad["to_move"]
    with pytest.raises(DocumentError):
        ENGINE.from_dict(bad)


def test_draw_position_document():
    doc = position_doc(DRAW_CHAIN, ["0-6", "1-1", "2-2", "3-3", "1-2", "1-3"])
    assert ENGINE.is_over(ENGINE.from_dict(doc))


# -- fuzzing: only EngineError comes out ----------------------------------------------

JUNK: list[Any] = [
    None,
    0,
    1,
    -1,
    2,
    True,
    1.5,
    "",
    "x",
    "0-0",
    "7-7",
    "pass",
    [],
    {},
    ["0-0"],
    [[]],
]


def mutate(doc: dict, rng: random.Random) -> dict:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        if not doc:
            break
        key = rng.choice(sorted(doc))
        kind = rng.randrange(5)
        value = doc[key]
        if kind == 0:
            del doc[key]
        elif kind == 1 or not isinstance(value, list) or not value:
            doc[key] = rng.choice(JUNK)
        elif kind == 2:
            value[rng.randrange(len(value))] = rng.choice(JUNK)
        elif kind == 3:
            rng.shuffle(value)
        else:
            target = value[rng.randrange(len(value))]
            if isinstance(target, list) and target:
                target[rng.randrange(len(target))] = rng.choice(ALL_TILES + JUNK)
            else:
                value.append(rng.choice(ALL_TILES + JUNK))
    return doc


def test_fuzzed_documents_and_moves_raise_only_engine_errors():
    rng = random.Random(99)
    docs = [ENGINE.to_dict(s) for seed in range(4) for s in random_game(seed)[::4]]
    docs += [dict(doc, history=[]) for doc in docs]
    for _ in range(1500):
        doc = mutate(rng.choice(docs), rng)
        with contextlib.suppress(EngineError):
            ENGINE.from_dict(doc)
        deal = mutate({"hands": rng.choice(docs)["hands"], "first": 0}, rng)
        with contextlib.suppress(EngineError):
            ENGINE.new_game(deal=deal)
    state = ENGINE.from_dict(docs[3])
    reversed_tiles = [tile[::-1] for tile in ALL_TILES]
    for _ in range(300):
        move = rng.choice(JUNK + ALL_TILES + reversed_tiles)
        with contextlib.suppress(EngineError):
            ENGINE.play(state, move)
