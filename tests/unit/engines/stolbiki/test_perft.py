"""Golden counts ("perft"): legal move sequences from fixed seeded positions, computed
once by the engine, cross-checked against the naive rule book in ``reference``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engines.stolbiki import StolbikiEngine
from games.engines.stolbiki.state import StolbikiState
from tests.unit.engines.stolbiki import reference

ENGINE = StolbikiEngine()

CASES: list[tuple[int, dict[str, Any]]] = [
    (101, {}),
    (202, {"deck": 52, "team_size": 3}),
    (303, {"team_size": 1}),
]


def perft(state: StolbikiState, depth: int) -> int:
    """Leaf move sequences of ``depth`` plies, with make/unmake."""
    moves = ENGINE.legal_moves(state)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        ENGINE.push(state, move)
        total += perft(state, depth - 1)
        ENGINE.pop(state)
    return total


def naive_perft(doc: dict[str, Any], depth: int) -> int:
    """The same count with the naive generator, through documents and ``play``."""
    moves = reference.legal_moves(doc)
    if depth == 1:
        return len(moves)
    return sum(
        naive_perft(ENGINE.to_dict(ENGINE.play(ENGINE.from_dict(doc), move)), depth - 1)
        for move in moves
    )


def start(seed: int, options: dict[str, Any]) -> StolbikiState:
    return ENGINE.new_game(seed=seed, **options)


def midgame(seed: int, options: dict[str, Any]) -> StolbikiState:
    """20 plies of random moves chosen from ``legal_moves`` with ``Random(seed)``."""
    state = start(seed, options)
    rng = random.Random(seed)
    for _ in range(20):
        state = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))
    return state


def before_first_pass(seed: int, options: dict[str, Any]) -> StolbikiState:
    """The position one ply before the first forced pass of such a random game."""
    state = start(seed, options)
    rng = random.Random(seed)
    while True:
        after = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))
        if ENGINE.legal_moves(after) == ["pass"]:
            return state
        state = after


GOLDEN = [
    # (position builder, seed, options, plies played, counts at depth 1, 2, 3)
    (start, 101, CASES[0][1], 0, [2, 56, 1248]),
    (start, 202, CASES[1][1], 0, [6, 148, 3912]),
    (start, 303, CASES[2][1], 0, [3, 88, 1608]),
    (midgame, 101, CASES[0][1], 20, [20, 296, 5442]),
    (midgame, 202, CASES[1][1], 20, [37, 1362, 49176]),
    (midgame, 303, CASES[2][1], 20, [18, 460, 7091]),
    (before_first_pass, 101, CASES[0][1], 32, [2, 2, 5]),
    (before_first_pass, 202, CASES[1][1], 47, [1, 1, 1]),
    (before_first_pass, 303, CASES[2][1], 33, [1, 1, 1]),
]


@pytest.mark.parametrize(("build", "seed", "options", "plies", "counts"), GOLDEN)
def test_golden_counts(
    build: Any, seed: int, options: dict[str, Any], plies: int, counts: list[int]
) -> None:
    state = build(seed, options)
    assert len(ENGINE.to_dict(state)["history"]) == plies
    before = ENGINE.to_dict(state)
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts
    assert ENGINE.to_dict(state) == before  # make/unmake restored everything


@pytest.mark.parametrize(("build", "seed", "options", "plies", "counts"), GOLDEN)
def test_golden_counts_agree_with_the_naive_generator(
    build: Any, seed: int, options: dict[str, Any], plies: int, counts: list[int]
) -> None:
    doc = ENGINE.to_dict(build(seed, options))
    assert [naive_perft(doc, depth) for depth in (1, 2)] == counts[:2]
    assert reference.legal_moves(doc) == sorted(
        str(move) for move in ENGINE.legal_moves(ENGINE.from_dict(doc))
    )


def test_before_first_pass_has_a_pass_next() -> None:
    state = before_first_pass(101, {})
    moves = ENGINE.legal_moves(state)
    assert any(ENGINE.legal_moves(ENGINE.play(state, move)) == ["pass"] for move in moves)
