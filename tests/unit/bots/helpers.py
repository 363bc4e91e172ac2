"""Seeded positions of every game, reached by random play from a seeded deal."""

from __future__ import annotations

import random
from typing import Any

from games.engines import get_engine


def random_position(game: str, seed: int, **options: Any) -> Any:
    """A position of ``game`` that is not over: the deal of ``seed``, then a seeded random
    number of random moves."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, **options)
    depth = rng.randrange(30)
    for _ in range(depth):
        moves = engine.legal_moves(state)
        after = engine.play(state, moves[rng.randrange(len(moves))])
        if engine.is_over(after):
            break
        state = after
    return state


def play_random_until(game: str, seed: int, done: Any) -> Any:
    """Random play from the deal of ``seed`` until ``done(state)`` or the end of the game;
    ``None`` if the game ended first."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(seed=seed)
    while not engine.is_over(state):
        if done(state):
            return state
        moves = engine.legal_moves(state)
        state = engine.play(state, moves[rng.randrange(len(moves))])
    return None


def reach_randomly(game: str, seed: int, done: Any, attempts: int = 50) -> Any:
    """:func:`play_random_until` from the deals ``seed * attempts`` onwards, until a game
    reaches ``done`` (random games often end first); ``None`` if none of ``attempts`` does."""
    for deal in range(seed * attempts, (seed + 1) * attempts):
        state = play_random_until(game, deal, done)
        if state is not None:
            return state
    return None
