"""A bot that tries to get out of its jail, and says what it found in info lines.

``prisoner.py MODE project:PROJECT MARKER`` (the project's folder given so that it is not
an absolute path on the command line, which the jail would show), playing random legal
moves otherwise:

- ``notes``: at each game's start, looks for notes left by earlier games or by its partner
  (in ``/tmp``, ``$HOME``, ``/var/tmp``, ``/dev/shm`` and its working folder), then leaves
  one everywhere it can: ``info string notes-found N`` and ``info string notes-written
  PLACES`` at its first move;
- ``secrets``: tries to read the project's ``.env``, ``var/``, settings and database
  folders and its own environment for the secret key: ``info string looked PATH=STATE
  ...`` (for the project's paths, then the system's; ``hidden``, or ``visible:NAMES`` with
  a folder's names joined by ``|``) and ``info string environment-secrets N``;
- ``cwd``: says where it runs and what it finds there and in the caller's folder (given
  as ``project:FOLDER``): ``info string cwd PATH NAMES`` and ``info string caller STATE``;
- ``bomb``: at its first move forks until the kernel refuses (every child forks on too),
  says ``info string forked N``, answers; at its second move it never answers.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402

MODE, PROJECT, MARKER = sys.argv[1], sys.argv[2].removeprefix("project:"), sys.argv[3]
NOTE_PLACES = ["/tmp", os.environ.get("HOME", "/nonexistent"), "/var/tmp", "/dev/shm", "."]
SECRET_PATHS = [".env", "var", "var/bots", "config/settings.py", "manage.py", ".git",
                "games"]
SYSTEM_SECRETS = ["/etc/clubtourney/env", "/etc/shadow", "/root", "/home",
                  "/var/run/postgresql", "/run/postgresql", "/tmp/.s.PGSQL.5432",
                  "/run/redis", "/proc/1/environ"]


class Prisoner(ClientBot):
    name = "Prisoner"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.random_bot = get_bot("random", seed=game.seed)
        self.moves = 0
        self.found: list[str] = []
        self.written: list[str] = []
        if MODE == "notes":
            self.pass_notes(game)

    def pass_notes(self, game: NewGame) -> None:
        for place in NOTE_PLACES:
            with contextlib.suppress(OSError):
                self.found += [name for name in os.listdir(place) if MARKER in name]
        for place in NOTE_PLACES:
            note = Path(place) / f"{MARKER}-seat{game.seat}-{random.random()}"
            try:
                note.write_text(f"seat {game.seat} seed {game.seed}")
            except OSError:
                continue
            self.written.append(place)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        self.moves += 1
        if MODE == "notes" and self.moves == 1:
            self.info(f"string notes-found {len(self.found)} {' '.join(self.found)[:300]}")
            self.info(f"string notes-written {','.join(self.written)}")
        elif MODE == "secrets" and self.moves == 1:
            self.info("string looked " + " ".join(
                f"{name}={_look(os.path.join(PROJECT, name))}" for name in SECRET_PATHS))
            self.info("string looked " + " ".join(f"{path}={_look(path)}"
                                                  for path in SYSTEM_SECRETS))
            leaked = [key for key, value in os.environ.items()
                      if "SECRET" in key or MARKER in value or "DATABASE" in key]
            self.info(f"string environment-secrets {len(leaked)}")
        elif MODE == "cwd" and self.moves == 1:
            self.info(f"string cwd {os.getcwd()} {_look('.')}")
            self.info(f"string caller {_look(PROJECT)}")
        elif MODE == "bomb":
            if self.moves == 1:
                self.info(f"string forked {_bomb()}")
            else:
                time.sleep(600)
        return self.random_bot.choose(self.game.game, observation, go_budget())


def go_budget() -> Any:
    from games.bots.base import Budget

    return Budget()


def _look(path: str) -> str:
    """``visible`` (with a folder's names) when anything of ``path`` can be read, else
    ``hidden``."""
    try:
        if os.path.isdir(path):
            return "visible:" + "|".join(sorted(os.listdir(path)))
        with open(path, "rb") as stream:
            stream.read(1)
        return "visible"
    except OSError:
        return "hidden"


def _bomb() -> int:
    """Fork until refused; every child forks on too, then waits to be killed."""
    made = 0
    while True:
        try:
            pid = os.fork()
        except OSError:
            return made
        if pid == 0:
            with contextlib.suppress(BaseException):
                while True:
                    try:
                        os.fork()
                    except OSError:
                        time.sleep(0.05)
            os._exit(0)
        made += 1
        if made > 100_000:
            return made


if __name__ == "__main__":
    sys.exit(serve(Prisoner()))
