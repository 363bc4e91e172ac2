"""A bot that asks for ``updates moves`` and keeps its own view from the ``moves`` and
``shown`` lines. Before each move it sends ``info string view HASH``, a hash of the view
it rebuilt (compared by the tests with the seat's true observation), then plays the
built-in random bot's move for that view."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.engines import get_engine  # noqa: E402


def view_hash(view: dict[str, Any]) -> str:
    return hashlib.sha1(json.dumps(view, sort_keys=True).encode()).hexdigest()[:16]


class MovesMode(ClientBot):
    name, author, updates = "Moves mode", "tests", "moves"

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot("random", seed=game.seed)
        self.view: dict[str, Any] | None = None
        self.state: Any = None

    def on_moves(self, moves: tuple[str, ...]) -> None:
        assert self.game is not None and self.view is not None
        if self.game.game != "stolbiki":
            engine = get_engine(self.game.game)
            for move in moves:
                self.state = engine.play(self.state, move)
            self.view = engine.observation(self.state, self.game.seat)
            return
        view = self.view
        for move in moves:
            seat = view["to_move"]
            if move != "pass":
                card, position = move.split("@")
                view["table"][position] = card
                view["hand_counts"][seat] -= 1
                if seat == self.game.seat:
                    view["hand"].remove(card)
            view["history"].append(move)
            view["to_move"] = (seat + 1) % self.game.seats

    def on_shown(self, seat: int, cards: tuple[str, ...]) -> None:
        assert self.view is not None
        self.view["revealed_by_seat"][seat] = list(cards)
        self.view["revealed"] = [c for shown in self.view["revealed_by_seat"] for c in shown]

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        if self.view is None:  # the first position of the game
            self.view = json.loads(json.dumps(observation))
            if self.game.game != "stolbiki":
                self.state = get_engine(self.game.game).from_dict(observation)
        self.info("string view " + view_hash(self.view))
        return self.bot.choose(self.game.game, self.view)


if __name__ == "__main__":
    sys.exit(serve(MovesMode()))
