"""The random bot: every legal move equally likely (seeded)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.bots.adapters import search_game
from games.bots.base import Bot, Budget


class RandomBot(Bot):
    """Plays a uniformly random legal move; the budget is ignored."""

    kind = "random"

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        adapter = search_game(game)
        state = adapter.load(observation, self.rng)
        moves = adapter.moves(state)
        return adapter.text(state, moves[self.rng.randrange(len(moves))])
