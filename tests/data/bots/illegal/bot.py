"""A test bot that answers an illegal move on its first move.

Its folder holds all it runs: an installed bot sees nothing else of the host.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402


class Bot(ClientBot):
    name = "illegal"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot("random", seed=game.seed)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        legal = self.bot.choose(self.game.game, observation)
        return "0-0" if legal == "pass" else "pass"


if __name__ == "__main__":
    sys.exit(serve(Bot()))
