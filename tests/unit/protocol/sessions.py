"""The example sessions of docs/bot-protocol.md: read them, replay them, record them.

A session is a fenced block marked ``session`` whose first line is a header::

    # game=kugamai match_game=0 seat=0 opponent=random clock=1+1

then ``> `` lines (referee to bot) and ``< `` lines (bot to referee). The game is game
``match_game`` of a match dealt from the secret :data:`SECRET`; the bot of the session
plays ``seat`` (and its side's other seats, as the built-in random bot), the built-in
``opponent`` the other side, on a clock (``clock``, written as in docs/rules/README.md) or
with a move limit (``movetime``, seconds).

``python -m tests.unit.protocol.sessions game=kazambi match_game=1 seat=1 opponent=random
updates=moves movetime=2`` prints a new session to paste into the document.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from games.clocks.setting import parse_setting
from games.engines import get_engine
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, RefereeOutcome, referee_game
from games.series.roles import game_roles
from games.series.seeds import bot_seeds, deal_seed
from tests.unit.protocol.helpers import PROGRAMS

SECRET = "docs/bot-protocol.md"
DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "bot-protocol.md"
_BLOCK = re.compile(r"^```session\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Session:
    header: dict[str, str]
    lines: list[str]

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def seat(self) -> int:
        return int(self.header["seat"])


def parse_header(text: str) -> dict[str, str]:
    return dict(word.split("=", 1) for word in text.lstrip("# ").split())


def read_sessions(path: Path = DOCUMENT) -> list[Session]:
    sessions = []
    for block in _BLOCK.findall(path.read_text()):
        header, *lines = block.rstrip("\n").split("\n")
        sessions.append(Session(parse_header(header), lines))
    return sessions


def play_session(header: dict[str, str], bot: BotSpec) -> RefereeOutcome:
    """The session's game with ``bot`` on the session's side."""
    game, number, seat = header["game"], int(header["match_game"]), int(header["seat"])
    deal = deal_for_game(game, {}, deal_seed(SECRET, number), game_roles(game, number))
    opponent = BotSpec(header["opponent"])
    sides = (bot, opponent) if seat % 2 == 0 else (opponent, bot)
    clock = parse_setting(header["clock"]) if "clock" in header else None
    movetime = float(header["movetime"]) if "movetime" in header else None
    seats = get_engine(game).seat_count()
    return referee_game(game, {}, deal, sides, seeds=bot_seeds(SECRET, seats, number),
                        clock=clock, move_seconds=movetime)


def script_bot(*args: str) -> BotSpec:
    """The script bot; it writes its log in the folder of its last file argument (which
    a jailed bot, under a user id of its own when the worker is root, may write)."""
    folders = [str(Path(arg).parent) for arg in args if arg.startswith("/")]
    for folder in folders[-1:]:
        os.chmod(folder, 0o777)  # noqa: S103 - a test's own temporary folder
    return BotSpec.program([sys.executable, str(PROGRAMS / "script_bot.py"), *args],
                           writable=folders[-1:])


def record_session(header: dict[str, str]) -> tuple[list[str], RefereeOutcome]:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "session.txt"
        bot = script_bot("record", str(log), header["seat"], header.get("updates", "positions"))
        outcome = play_session(header, bot)
        return log.read_text().splitlines(), outcome


if __name__ == "__main__":
    header = parse_header(" ".join(sys.argv[1:]))
    lines, outcome = record_session(header)
    print("```session")
    print("# " + " ".join(f"{key}={value}" for key, value in header.items()
                          if key != "updates"))
    print("\n".join(lines))
    print("```")
    print(outcome.termination, outcome.winner_side, outcome.reason, file=sys.stderr)
