"""Small builders shared by the Kazambi tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engines.kazambi import KazambiEngine, KazambiState

#: Fourteen different tiles, doubles among them, for explicit deals.
DEAL = [
    "0-0", "1-1", "2-2", "3-3", "5-5", "0-1", "1-2",
    "2-3", "3-5", "5-6", "0-6", "1-6", "2-6", "4-6",
]  # fmt: skip


def game(
    engine: KazambiEngine,
    moves: Sequence[str] = (),
    *,
    first: int = 0,
    hands: list[list[str]] | None = None,
    **options: Any,
) -> KazambiState:
    """A game from an explicit deal (``DEAL`` to every seat by default) after ``moves``."""
    if hands is None:
        hands = [DEAL, DEAL] if engine.seats == 2 else [DEAL[:7], DEAL[:7], DEAL[7:], DEAL[7:]]
    state = engine.new_game(deal={"hands": hands, "first": first}, **options)
    for move in moves:
        state = engine.play(state, move)
    return state


def random_game(engine: KazambiEngine, seed: int, **options: Any) -> KazambiState:
    """The game ``random_playout(Random(seed))`` plays, through the public API."""
    rng = random.Random(seed)
    state = engine.new_game(deal=engine.draw_deal(rng), **options)
    while not engine.is_over(state):
        moves = engine.legal_moves(state)
        state = engine.play(state, moves[rng.randrange(len(moves))])
    return state
