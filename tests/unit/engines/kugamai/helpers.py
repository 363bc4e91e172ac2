"""Builders of Kugamai positions for the tests."""

from __future__ import annotations

import random
from typing import Any

from games.engines.kugamai import KugamaiEngine
from games.engines.kugamai.state import KugamaiState

ENGINE = KugamaiEngine()

ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def canonical(tile: str) -> str:
    a, b = sorted(int(v) for v in tile.split("-"))
    return f"{a}-{b}"


def position_doc(
    chain: list[str],
    seat0: list[str],
    to_move: int = 0,
    low: int = 0,
    history: list[str] | None = None,
) -> dict[str, Any]:
    """A state document: ``seat0`` holds the tiles given, seat 1 every tile that is
    neither there nor in the chain."""
    used = {canonical(t) for t in chain} | {canonical(t) for t in seat0}
    seat1 = [t for t in ALL_TILES if t not in used]
    return {
        "game": "kugamai",
        "options": {},
        "to_move": to_move,
        "hands": [sorted(canonical(t) for t in seat0), seat1],
        "history": history or [],
        "chain": list(chain),
        "low_doubles_seat": low,
    }


def position(chain: list[str], seat0: list[str], to_move: int = 0, low: int = 0) -> KugamaiState:
    return ENGINE.from_dict(position_doc(chain, seat0, to_move, low))


def random_game(seed: int, choice_seed: int | None = None) -> list[KugamaiState]:
    """Every state of a game dealt from ``seed`` and played with random legal moves."""
    rng = random.Random(seed if choice_seed is None else choice_seed)
    state = ENGINE.new_game(seed=seed)
    states = [state]
    while not ENGINE.is_over(state):
        moves = ENGINE.legal_moves(state)
        state = ENGINE.play(state, rng.choice(moves))
        states.append(state)
    return states
