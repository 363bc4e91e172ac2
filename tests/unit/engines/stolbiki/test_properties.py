"""Property-based tests over random seeded games, and the playout fast path."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.stolbiki import StolbikiEngine
from games.engines.stolbiki.playout import play_randomly, random_playout
from tests.unit.engines.stolbiki import reference
from tests.unit.engines.stolbiki.positions import deck

ENGINE = StolbikiEngine()

OPTIONS = st.sampled_from(
    [
        {"deck": 36, "team_size": 2},
        {"deck": 36, "team_size": 1},
        {"deck": 36, "team_size": 3},
        {"deck": 52, "team_size": 2},
        {"deck": 52, "team_size": 3},
    ]
)


def check_invariants(doc: dict[str, Any], dealt: list[list[str]]) -> None:
    options = doc["options"]
    hands = doc["hands"]
    table = list(doc["table"].values())
    in_play = [card for hand in hands for card in hand] + table
    assert sorted(in_play) == sorted(deck(options["deck"]))  # material conserved
    for seat, hand in enumerate(hands):
        assert set(hand) <= set(dealt[seat])  # a seat only ever loses its own cards
        colours = "HD" if seat % 2 == doc["red_side"] else "CS"
        assert all(card[1] in colours for card in hand)
    assert reference.table_is_valid(doc)
    assert set(doc["revealed"]) <= {card for hand in hands for card in hand}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(
    seed: int, options: dict[str, Any], chooser: random.Random
) -> None:
    state = ENGINE.new_game(seed=seed, **options)
    dealt = ENGINE.initial_deal(state)["hands"]
    while True:
        doc = ENGINE.to_dict(state)
        check_invariants(doc, dealt)
        moves = [str(move) for move in ENGINE.legal_moves(state)]
        assert sorted(moves) == reference.legal_moves(doc)  # same moves as the naive book
        assert ENGINE.to_dict(ENGINE.from_dict(doc)) == doc
        if not moves:
            break
        move = chooser.choice(moves)
        if move != "pass":
            cells = reference.table_cells(doc)
            card, _, where = move.partition("@")
            x, y = (int(part) for part in where.split(","))
            assert reference.fits(cells, card, x, y, reference.columns(doc))
        state = ENGINE.play(state, move)
    assert ENGINE.is_over(state)
    result = ENGINE.result(state)
    naive = reference.score(ENGINE.to_dict(state))
    assert {key: result[key] for key in naive} == naive
    assert sum(result["points"]) <= len(result["column_sums"])
    _, replayed = ENGINE.replay(ENGINE.record(state))
    assert replayed == result


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_playout_agrees_with_the_public_api(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = ENGINE.deal_from(rng, ENGINE.options(**options))
    counts: list[int] = []
    play_randomly(state, rng, counts)
    assert random_playout(random.Random(seed), **options) == ENGINE.result(state)
    public = ENGINE.new_game(deal=ENGINE.initial_deal(state), **options)
    history = ENGINE.to_dict(state)["history"]
    assert len(history) == len(counts)
    for move, count in zip(history, counts, strict=True):
        legal = [str(m) for m in ENGINE.legal_moves(public)]
        assert move in legal
        assert len(legal) == count
        public = ENGINE.play(public, move)
    assert ENGINE.is_over(public)
    assert ENGINE.result(public) == ENGINE.result(state)


def test_new_game_seed_is_the_playout_deal() -> None:
    for seed in range(5):
        dealt = ENGINE.deal_from(random.Random(seed), ENGINE.options())
        assert ENGINE.initial_deal(dealt) == ENGINE.initial_deal(ENGINE.new_game(seed=seed))


def test_playout_chooses_uniformly() -> None:
    state = ENGINE.new_game(seed=7)
    rng = random.Random(7)
    for _ in range(9):
        state = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))
    legal = [str(move) for move in ENGINE.legal_moves(state)]
    assert len(legal) >= 5
    runs = 150 * len(legal)
    first_moves: Counter[str] = Counter()
    plies = len(ENGINE.to_dict(state)["history"])
    for _ in range(runs):
        copy = state.copy()
        play_randomly(copy, rng)
        first_moves[ENGINE.move_text(copy, copy.history[plies])] += 1
    assert set(first_moves) == set(legal)
    expected = runs / len(legal)
    spread = 5 * (expected * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(count - expected) < spread for count in first_moves.values())
