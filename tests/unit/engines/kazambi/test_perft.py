"""Golden move counts ("perft") from fixed seeded deals, cross-checked by the naive
reference generator of ``reference.py``.

Counts: legal moves at the start, and leaf move sequences after two plies.
"""

from __future__ import annotations

import pytest

from games.engines import get_engine
from games.engines.kazambi import KazambiEngine, KazambiState
from tests.unit.engines.kazambi.reference import naive_moves

# (game, seed, rows, cols, moves at the start, sequences of two plies)
FULL_BOARD = [
    ("kazambi", 1, 7, 8, 2425, 4859200),
    ("kazambi-pairs", 2, 7, 8, 1067, 1035332),
    ("anti-kazambi", 3, 7, 8, 2425, 4874200),
]
SMALL_BOARD = [
    ("kazambi", 1, 4, 5, 775, 408124),
    ("kazambi-pairs", 2, 3, 6, 297, 63126),
    ("kazambi", 3, 3, 4, 425, 101856),
]


def perft(engine: KazambiEngine, state: KazambiState, depth: int) -> int:
    """Leaf move sequences of length ``depth``, with make/unmake."""
    if depth == 1:
        return engine.move_count(state)
    total = 0
    for move in engine.legal_moves(state):
        engine.push(state, move)
        total += perft(engine, state, depth - 1)
        engine.pop(state)
    return total


def naive_perft2(engine: KazambiEngine, state: KazambiState, sample: int = 1) -> int:
    """Two-ply leaves by the naive generator, over every ``sample``-th first move."""
    total = 0
    for text in sorted(naive_moves(engine.to_dict(state)))[::sample]:
        total += len(naive_moves(engine.to_dict(engine.play(state, text))))
    return total


@pytest.mark.parametrize(("game", "seed", "rows", "cols", "start", "two"), FULL_BOARD + SMALL_BOARD)
def test_golden_counts(game: str, seed: int, rows: int, cols: int, start: int, two: int) -> None:
    engine = get_engine(game)
    assert isinstance(engine, KazambiEngine)
    state = engine.new_game(seed=seed, rows=rows, cols=cols)
    before = engine.to_dict(state)
    assert perft(engine, state, 1) == len(engine.legal_moves(state)) == start
    assert perft(engine, state, 2) == two
    assert engine.to_dict(state) == before  # make/unmake left no trace


@pytest.mark.parametrize(("game", "seed", "rows", "cols", "start", "two"), FULL_BOARD)
def test_full_board_counts_agree_with_the_naive_generator(
    game: str, seed: int, rows: int, cols: int, start: int, two: int
) -> None:
    engine = get_engine(game)
    assert isinstance(engine, KazambiEngine)
    state = engine.new_game(seed=seed, rows=rows, cols=cols)
    assert {str(m) for m in engine.legal_moves(state)} == naive_moves(engine.to_dict(state))
    sampled = sorted(engine.legal_moves(state), key=str)[::61]
    fast = 0
    for move in sampled:
        engine.push(state, move)
        fast += engine.move_count(state)
        engine.pop(state)
    assert fast == naive_perft2(engine, state, sample=61)


@pytest.mark.parametrize(("game", "seed", "rows", "cols", "start", "two"), SMALL_BOARD)
def test_small_board_counts_agree_with_the_naive_generator(
    game: str, seed: int, rows: int, cols: int, start: int, two: int
) -> None:
    engine = get_engine(game)
    assert isinstance(engine, KazambiEngine)
    state = engine.new_game(seed=seed, rows=rows, cols=cols)
    assert len(naive_moves(engine.to_dict(state))) == start
    assert naive_perft2(engine, state) == two
