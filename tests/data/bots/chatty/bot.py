"""A test bot: a random legal move (from the seat's full observation: Kugamai and Kazambi
only), and info lines on every move: ``depth 1 nodes N score 0`` and ``string move K``."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

try:
    import games  # noqa: F401 - the project installed, or on the path
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve
from games.bots.protocol.messages import Go, NewGame
from games.engines import get_engine


class Chatty(ClientBot):
    name = "Chatty"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.rng = random.Random(game.seed)
        self.moves = 0

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        engine = get_engine(self.game.game)
        moves = engine.legal_moves(engine.from_dict(observation))
        self.moves += 1
        self.info(f"depth 1 nodes {len(moves)} score 0")
        self.info(f"string move {self.moves}")
        return str(self.rng.choice(moves))


if __name__ == "__main__":
    sys.exit(serve(Chatty()))
