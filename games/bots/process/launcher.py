"""The launcher: a built-in bot behind the protocol, in its own process.

:func:`run_builtin` serves the built-in bot ``KIND`` (random, greedy, mcts, solver) through
the reference client on standard input and output, so that it plays matches and
tournaments through exactly the boundary an external program does: it gets its seat's
observation and nothing else, and its seed from the ``game`` line. The fork server runs
it in a fork of itself (no new interpreter); ``python -I -S -c <bootstrap> KIND
SETTINGS_JSON`` (:func:`builtin_command`) runs it as a program of its own.

Settings are the bot's own (``exploration``...) plus its budget: ``iterations``,
``seconds`` (wall clock) and ``cpu_seconds`` (the bot process's CPU time) per move;
without any, the bot's own default budget. With a budget, a move
also stops in time for the clock: at most 4/5 of a move limit, and a fifteenth of the
clock plus 4/5 of its increment (an iteration budget stays reproducible unless that cap is
reached).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.bots.base import Bot, Budget
from games.bots.protocol.client import ClientBot, serve
from games.bots.protocol.messages import Go, NewGame
from games.bots.registry import get_bot

BUDGET_KEYS = ("iterations", "seconds", "cpu_seconds")


def project_root() -> str:
    """The folder that holds the ``games`` package (put on the launcher's path)."""
    return str(Path(__file__).resolve().parents[3])


def builtin_command(kind: str, settings: dict[str, Any], python: str | None = None) -> list[str]:
    """The command line of the launcher for a built-in bot (isolated interpreter mode: no
    user site, no environment variables read, the project's folder put on the path)."""
    bootstrap = (f"import sys; sys.path.insert(0, {project_root()!r}); "
                 "from games.bots.process.launcher import main; sys.exit(main(sys.argv[1:]))")
    return [python or sys.executable, "-I", "-S", "-c", bootstrap, kind,
            json.dumps(settings, separators=(",", ":"))]


def time_cap(go: Go, seat: int) -> float | None:
    """Seconds a built-in bot allows itself for one move given the ``go`` line."""
    caps = []
    if go.movetime_ms is not None:
        caps.append(go.movetime_ms / 1000 * 0.8)
    if go.times_ms:
        bonus = go.bonus_ms / 1000 * 0.8 if go.bonus != "none" else 0.0
        caps.append(go.times_ms[seat] / 1000 / 15 + bonus)
    return max(0.001, min(caps)) if caps else None


class BuiltinClient(ClientBot):
    """A built-in bot of ``kind`` served through the protocol."""

    author = "clubtourney built-in"

    def __init__(self, kind: str, settings: dict[str, Any]) -> None:
        super().__init__()
        self.kind = kind
        self.name = f"built-in {kind}"
        self.settings = {k: v for k, v in settings.items() if k not in BUDGET_KEYS}
        self.iterations = settings.get("iterations")
        self.seconds = settings.get("seconds")
        self.cpu_seconds = settings.get("cpu_seconds")
        self.bot: Bot | None = None

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot(self.kind, seed=game.seed, **self.settings)

    def budget(self, go: Go) -> Budget:
        """The budget of one move: the settings', capped by the clock; else the bot's."""
        assert self.game is not None
        if self.iterations is None and self.seconds is None and self.cpu_seconds is None:
            return Budget()
        seconds = self.seconds
        cap = time_cap(go, self.game.seat)
        if cap is not None:
            seconds = cap if seconds is None else min(seconds, cap)
        return Budget(iterations=self.iterations, seconds=seconds, cpu_seconds=self.cpu_seconds)

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.bot is not None and self.game is not None
        return self.bot.choose(self.game.game, observation, self.budget(go))


def run_builtin(kind: str, settings: dict[str, Any]) -> int:
    """Serve the built-in bot ``kind`` on standard input and output until ``quit``."""
    return serve(BuiltinClient(kind, settings))


def main(argv: list[str]) -> int:
    """``KIND [SETTINGS_JSON]``: serve the built-in bot on standard input and output."""
    if not argv:
        print("usage: launcher KIND [SETTINGS_JSON]", file=sys.stderr)
        return 2
    settings = json.loads(argv[1]) if len(argv) > 1 else {}
    return run_builtin(argv[0], settings)
