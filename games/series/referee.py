"""A referee for bot games of a match: each side's bot moves for that side's seats, seeing
only what the seat may see; a bot that raises, answers an illegal move or overruns its
time loses the game by forfeit, and the reason is kept for the log."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.bots.base import Bot, Budget
from games.bots.registry import get_bot
from games.engines import EngineError, get_engine


@dataclass(frozen=True)
class BotSpec:
    """A side's bot: its kind and settings (``seed`` included, for reproducible play)."""

    kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)

    def build(self, seed: int) -> Bot:
        settings = {k: v for k, v in self.settings.items() if k not in {"iterations", "seconds"}}
        return get_bot(self.kind, seed=seed, **settings)

    def budget(self) -> Budget:
        return Budget(iterations=self.settings.get("iterations"),
                      seconds=self.settings.get("seconds"))


@dataclass(frozen=True)
class RefereeOutcome:
    winner_side: int | None
    termination: str  # "normal", "forfeit" or "time_forfeit"
    record: dict[str, Any]
    reason: str = ""
    score_detail: dict[str, Any] | None = None


def referee_game(
    game: str,
    options: Mapping[str, Any],
    deal: Mapping[str, Any],
    sides: tuple[BotSpec, BotSpec],
    *,
    seed: int,
    move_seconds: float | None = None,
    max_moves: int = 1000,
) -> RefereeOutcome:
    """Play one game between the two sides' bots from ``deal``; seat ``s`` is side ``s % 2``."""
    engine = get_engine(game)
    state = engine.new_game(deal=deal, **dict(options))
    bots, budgets = [], []
    for side, spec in enumerate(sides):
        try:
            bots.append(spec.build(seed * 2 + 1 + side))
            budgets.append(spec.budget())
        except Exception as error:  # a bot that cannot be set up forfeits its game
            return _forfeit(engine, state, side, "forfeit",
                            f"the {spec.kind} bot could not start: {error}")
    moves = 0
    while not engine.is_over(state):
        seat = engine.to_move(state)
        side = seat % 2
        if moves >= max_moves:
            raise RuntimeError(f"{game}: no end after {max_moves} moves")  # an engine bug
        started = time.perf_counter()
        try:
            move = bots[side].choose(game, engine.observation(state, seat), budgets[side])
        except Exception as error:  # a bot's failure is a forfeit, never a crash
            return _forfeit(engine, state, side, "forfeit",
                            f"the {sides[side].kind} bot failed: {type(error).__name__}: {error}")
        spent = time.perf_counter() - started
        if move_seconds is not None and spent > move_seconds:
            return _forfeit(engine, state, side, "time_forfeit",
                            f"the {sides[side].kind} bot took {spent:.2f} s for move {moves + 1} "
                            f"(limit {move_seconds:.2f} s)")
        try:
            state = engine.play(state, move)
        except EngineError as error:
            return _forfeit(engine, state, side, "forfeit",
                            f"the {sides[side].kind} bot played an illegal move "
                            f"{moves + 1}: {error}")
        moves += 1
    result = engine.result(state)
    detail = {k: v for k, v in result.items() if k != "winner"} or None
    return RefereeOutcome(result["winner"], "normal", engine.record(state), "", detail)


def _forfeit(engine: Any, state: Any, side: int, termination: str, reason: str) -> RefereeOutcome:
    return RefereeOutcome(1 - side, termination, engine.record(state), reason)
