"""A referee loop: bots play a game through the engine, each seeing only its seat's view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.bots.base import Bot, BotError, Budget
from games.engines import get_engine


def play_game(
    game: str,
    bots: Sequence[Bot],
    *,
    seed: int,
    budget: Budget | None = None,
    options: dict[str, Any] | None = None,
    max_moves: int = 500,
) -> tuple[dict[str, Any], list[str]]:
    """Deal game ``game`` from ``seed`` and let ``bots[seat]`` move for each seat (one bot
    per seat). Return the engine's result and the move texts."""
    engine = get_engine(game)
    state = engine.new_game(seed=seed, **(options or {}))
    seats = engine.seat_count(**(options or {}))
    if len(bots) != seats:
        raise BotError(f"{game} has {seats} seats; {len(bots)} bots were given")
    moves: list[str] = []
    while not engine.is_over(state):
        if len(moves) >= max_moves:
            raise BotError(f"{game}: no end after {max_moves} moves")
        seat = engine.to_move(state)
        move = bots[seat].choose(game, engine.observation(state, seat), budget)
        state = engine.play(state, move)
        moves.append(move)
    return engine.result(state), moves


def side_bots(bot_side0: Bot, bot_side1: Bot, seats: int) -> list[Bot]:
    """One bot per seat: seats of side 0 (even seats) get ``bot_side0``."""
    return [bot_side0 if seat % 2 == 0 else bot_side1 for seat in range(seats)]
