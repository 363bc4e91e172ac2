"""A bot that tries to rebuild the deal from its seed (seed_inversion.py) and says what it
guessed: ``info string guess CARDS`` (the other hands) or ``info string guess none``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed_inversion import invert  # noqa: E402

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402


class SeedInverter(ClientBot):
    name = "Seed inverter"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot("random", seed=game.seed)
        self.guess: list[str] | None = None
        self.tried = False

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        if not self.tried:
            self.tried = True
            hands = invert(self.game.game, self.game.options, self.game.seat, self.game.seed,
                           observation["hand"] + [])
            if hands is not None:
                mine = set(observation["hand"])
                self.guess = sorted({c for hand in hands for c in hand} - mine)
        self.info("string guess " + (" ".join(self.guess) if self.guess else "none"))
        return self.bot.choose(self.game.game, observation)


if __name__ == "__main__":
    sys.exit(serve(SeedInverter()))
