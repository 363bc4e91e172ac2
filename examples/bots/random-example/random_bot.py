"""An example bot: a random legal move from its seat's observation, through the protocol.

It uses the reference client (games.bots.protocol.client) for the protocol and the
project's engines for the rules. Run it by hand to see the protocol::

    $ python examples/bots/random-example/random_bot.py
    protocol 1
    name Random example
    ...

Kazambi and Kugamai observations are whole state documents (every hand is open), so the
engine loads them as they are. A Stolbiki observation shows only the seat's own hand: the
bot deals the cards it cannot see at random to the other seats (by colour and hand size),
which changes nothing about its own legal moves, and asks the engine for those.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

try:
    import games  # noqa: F401 - the project installed, or on the path
except ImportError:  # run from the project's examples folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games.bots.protocol.client import ClientBot, serve
from games.bots.protocol.messages import Go, NewGame
from games.engines import get_engine

SUITS_BY_COLOUR = ("HD", "CS")  # red, black
RANKS = {36: "6789TJQKA", 52: "23456789TJQKA"}


class RandomExample(ClientBot):
    name = "Random example"
    author = "Club examples"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random()

    def new_game(self, game: NewGame) -> None:
        self.rng.seed(game.seed)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        engine = get_engine(self.game.game)
        if self.game.game == "stolbiki":
            observation = self.guess_hidden_cards(observation)
        moves = engine.legal_moves(engine.from_dict(observation))
        return str(self.rng.choice(moves))

    def guess_hidden_cards(self, seen: dict[str, Any]) -> dict[str, Any]:
        """A full Stolbiki document agreeing with everything this seat sees."""
        deck = seen["options"]["deck"]
        seat, counts = seen["seat"], seen["hand_counts"]
        shown = seen["revealed_by_seat"]
        known = set(seen["hand"]) | set(seen["table"].values()) | set(seen["revealed"])
        hands: list[list[str]] = [[] for _ in counts]
        for colour, suits in enumerate(SUITS_BY_COLOUR):
            unseen = [rank + suit for suit in suits for rank in RANKS[deck]
                      if rank + suit not in known]
            self.rng.shuffle(unseen)
            for other, count in enumerate(counts):
                red = other % 2 == seen["red_side"]
                if (colour == 0) != red:
                    continue
                if other == seat:
                    hands[other] = list(seen["hand"])
                elif shown[other]:
                    hands[other] = list(shown[other])
                else:
                    hands[other], unseen = unseen[:count], unseen[count:]
        return {"game": "stolbiki", "options": seen["options"], "to_move": seen["to_move"],
                "hands": hands, "history": [], "table": seen["table"],
                "revealed": seen["revealed"], "red_side": seen["red_side"]}


if __name__ == "__main__":
    sys.exit(serve(RandomExample()))
