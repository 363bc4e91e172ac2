"""A bot that tries to see other seats' cards wherever it can, and says what it found.

On each move it walks every frame of every thread (the old exploit: in-process bots found
the referee's state a few frames up), every object the garbage collector tracks, its
arguments, environment and files, everything it read on standard input, and other
processes (/proc: the parent's environment, command line and memory). Each move it sends
``info string saw CARDS`` (every card it found in any hand-like structure or text) and
``info string other-processes N readable R`` (processes it can see, and whose memory or
environment it could read), then plays a random legal move.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.engines.stolbiki.cards import card_text, cards_of  # noqa: E402

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][HDCS](?![A-Za-z0-9])")
HAND_KEYS = {"hand", "hands", "revealed", "revealed_by_seat", "table", "deal"}
READ: list[str] = []  # every line read from standard input


def cards_in(value: Any, depth: int = 0) -> set[str]:
    if depth > 6:
        return set()
    if isinstance(value, str):
        return set(CARD.findall(value)) if len(value) < 100_000 else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v, depth + 1) for v in value.values())) if value else set()
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*(cards_in(v, depth + 1) for v in value)) if value else set()
    return set()


def state_cards(obj: Any) -> set[str]:
    """Cards of an engine state object (hands as bit masks)."""
    found: set[str] = set()
    hands = getattr(obj, "hands", None)
    if isinstance(hands, list) and hands and all(isinstance(h, int) for h in hands):
        for hand in hands:
            found |= {card_text(card) for card in cards_of(hand)}
    return found


#: Code every bot may read (the Python installation, the engines): bound into the jail at
#: the host's paths, so under the bot's /tmp when the project lives in /tmp. Its compiled
#: files hold card-like letter pairs by chance; they say nothing about a deal.
PUBLIC_CODE = tuple(
    str(Path(folder).resolve())
    for folder in {sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parents[4] / "games")}
)


def files_under(folder: str) -> list[Path]:
    """The files below ``folder``, the public code left out."""
    found: list[Path] = []
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders
                      if not os.path.join(root, name).startswith(PUBLIC_CODE)]
        found.extend(Path(root, name) for name in files if Path(root, name).is_file())
    return found


class Snoop(ClientBot):
    name = "Snoop"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot("random", seed=game.seed)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        saw: set[str] = set()
        # the call stack of every thread, all the way up
        for frame in sys._current_frames().values():
            walk: Any = frame
            while walk is not None:
                for value in list(walk.f_locals.values()):
                    if isinstance(value, dict | list | tuple):
                        saw |= cards_in(value)
                    saw |= state_cards(value)
                walk = walk.f_back
        # every object the garbage collector tracks
        for obj in gc.get_objects():
            if isinstance(obj, dict) and HAND_KEYS & obj.keys():
                saw |= cards_in(obj)
            else:
                saw |= state_cards(obj)
        # what it was given: arguments, environment, input, files
        saw |= cards_in(sys.argv) | cards_in(dict(os.environ)) | cards_in(READ)
        for folder in {os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", "")}:
            for path in files_under(folder) if folder else []:
                if path.stat().st_size < 1 << 20:
                    saw |= cards_in(path.read_bytes().decode("utf-8", "replace"))
        # other processes
        others = readable = 0
        mine = {os.getpid()} | ({1} if os.getppid() == 1 else set())  # the namespace's init
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in mine:
                continue
            others += 1
            for name in ("environ", "cmdline", "mem"):
                try:
                    with open(f"/proc/{entry}/{name}", "rb") as stream:
                        stream.read(1)
                    readable += 1
                    break
                except OSError:
                    continue
        parent = os.getppid()
        for name in ("environ", "cmdline"):
            with contextlib.suppress(OSError):
                saw |= cards_in(Path(f"/proc/{parent}/{name}").read_bytes().decode("latin-1"))
        self.info("string saw " + " ".join(sorted(saw)))
        self.info(f"string other-processes {others} readable {readable}")
        return self.bot.choose(self.game.game, observation)


class Recording:
    """Standard input, remembering every line."""

    def __iter__(self) -> Any:
        for line in sys.stdin:
            READ.append(line)
            yield line


if __name__ == "__main__":
    sys.exit(serve(Snoop(), Recording()))
