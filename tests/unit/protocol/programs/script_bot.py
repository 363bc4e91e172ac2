"""The bot behind the example sessions of docs/bot-protocol.md.

``record LOG SEAT UPDATES``: plays random legal moves (seeded by the game's seed) with an
info line per move, keeping its own position in ``moves`` mode, and writes the session of
seat SEAT to LOG (``> `` lines from the referee, ``< `` lines from the bot).

``replay TRANSCRIPT LOG SEAT``: plays the bot's side of a recorded session: sends its
``< `` lines and writes every line the referee sent to LOG; a line that differs from the
transcript's ``> `` line stops it with a message on stderr. The other seats of its side
(Stolbiki has two) play the built-in random bot.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.process.launcher import BuiltinClient  # noqa: E402
from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import (  # noqa: E402
    Go,
    NewGame,
    format_referee,
    parse_go,
    parse_referee_line,
)
from games.bots.registry import get_bot  # noqa: E402
from games.engines import get_engine  # noqa: E402


class Recorder(ClientBot):
    name = "Doc example"
    author = "Club examples"

    def __init__(self, updates: str) -> None:
        super().__init__()
        self.updates = updates
        self.rng = random.Random()
        self.state: Any = None

    def new_game(self, game: NewGame) -> None:
        self.rng.seed(game.seed)
        self.state = None
        self.random = get_bot("random", seed=game.seed)

    def on_moves(self, moves: tuple[str, ...]) -> None:
        assert self.game is not None
        engine = get_engine(self.game.game)
        for move in moves:
            self.state = engine.play(self.state, move)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        if self.game.game == "stolbiki":  # the built-in random bot, as other seats replay
            self.info(f"depth 0 string {len(observation['hand'])} cards in hand")
            return self.random.choose("stolbiki", observation)
        engine = get_engine(self.game.game)
        if self.state is None or self.updates == "positions":
            self.state = engine.from_dict(observation)
        moves = [str(move) for move in engine.legal_moves(self.state)]
        self.info(f"depth 1 nodes {len(moves)} string {len(moves)} legal moves")
        return moves[self.rng.randrange(len(moves))]


class Tee:
    """Lines in both directions, kept as a session; written to the log at the end if the
    game was the recorded seat's."""

    def __init__(self, inner: IO[str]) -> None:
        self.inner = inner
        self.session: list[str] = []

    def lines(self, source: IO[str]) -> Iterator[str]:
        for line in source:
            self.session.append("> " + line.rstrip("\n"))
            yield line

    def write(self, text: str) -> int:
        self.session.extend("< " + line for line in text.splitlines())
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()


def record(log_path: str, seat: int, updates: str) -> int:
    tee = Tee(sys.stdout)
    bot = Recorder(updates)
    code = serve(bot, tee.lines(sys.stdin), tee)
    if bot.game is not None and bot.game.seat == seat:
        Path(log_path).write_text("\n".join(tee.session) + "\n")
    return code


def _chain(first: list[str], rest: IO[str]) -> Iterator[str]:
    yield from first
    yield from rest


def same(expected: str, got: str) -> bool:
    """Lines match; ``go`` clock times may differ by up to 1.5 s (they are measured)."""
    if expected == got:
        return True
    if not (expected.startswith("go ") and got.startswith("go ")):
        return False
    want, have = parse_go(expected), parse_go(got)
    return (want.bonus, want.bonus_ms, want.movetime_ms) == (
        have.bonus, have.bonus_ms, have.movetime_ms) and len(want.times_ms) == len(
        have.times_ms) and all(abs(a - b) <= 1500 for a, b in zip(want.times_ms,
                                                                   have.times_ms, strict=True))


def replay(transcript_path: str, log_path: str, seat: int) -> int:
    script = Path(transcript_path).read_text().splitlines()
    out = sys.stdout
    received: list[str] = []
    try:
        for number, entry in enumerate(script, start=1):
            direction, text = entry[:2], entry[2:]
            if direction == "< ":
                out.write(text + "\n")
                out.flush()
                continue
            got = sys.stdin.readline().rstrip("\n")
            received.append(got)
            message = parse_referee_line(got)
            if isinstance(message, NewGame) and message.seat != seat:
                received = []  # another seat of the side: not the session's
                return _other_seat(message)
            if not same(text, got):
                print(f"session line {number}: expected {text!r}, got {got!r}",
                      file=sys.stderr)
                return 1
        return 0
    finally:
        if received:
            Path(log_path).write_text("\n".join(received) + "\n")


def _other_seat(game: NewGame) -> int:
    """Another seat of the bot's side: the built-in random bot from here on."""
    bot = BuiltinClient("random", {})
    return serve(bot, _chain([format_referee(game) + "\n"], sys.stdin))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "record":
        sys.exit(record(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    sys.exit(replay(sys.argv[2], sys.argv[3], int(sys.argv[4])))
