"""Bots named on a command line (``bot_check``, ``bot_match``), turned into specs.

>>> spec_from_text('mcts:{"iterations": 200}', None)
BotSpec(kind='mcts', settings={'iterations': 200}, command=(), cwd=None, writable=())
>>> spec_from_text("bot:my-bot", None).settings
{'name': 'my-bot'}
>>> resolve_target(["/no/such/program", "--fast"], None).spec.command
('/no/such/program', '--fast')
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from games.bots.process.installed import (
    MANIFEST,
    InstalledBotError,
    list_installed_bots,
    read_manifest,
)
from games.series.referee import BotSpec

#: Games checked when neither a manifest nor the caller says which.
DEFAULT_GAMES = ("kazambi", "kugamai", "stolbiki")


@dataclass(frozen=True)
class Target:
    """What to check: a spec, its display name and the games it plays."""

    spec: BotSpec
    label: str
    games: tuple[str, ...] = DEFAULT_GAMES


def resolve_target(words: Sequence[str], bots_dir: str | Path | None) -> Target:
    """``words``: a folder with a manifest, the name of a bot installed in ``bots_dir``, or
    a command line (a program path made absolute, so that it runs from any folder)."""
    if not words:
        raise InstalledBotError("name a program, a bot folder or an installed bot")
    first, rest = words[0], list(words[1:])
    if Path(first).is_dir():
        if not (Path(first) / MANIFEST).is_file():
            raise InstalledBotError(f"{first} is a folder without {MANIFEST}")
        bot = read_manifest(first)
        return Target(BotSpec.program(bot.argv() + rest, cwd=bot.folder), bot.name, bot.games)
    if not rest and os.sep not in first and not Path(first).exists():
        for bot in list_installed_bots(bots_dir).bots:
            if bot.name == first:
                return Target(BotSpec.installed(bot.name), bot.name, bot.games)
    argv, cwd = program_command([first, *rest])
    return Target(BotSpec.program(argv, cwd=cwd), " ".join(words))


def program_command(words: Sequence[str]) -> tuple[list[str], str | None]:
    """A command line made to run from any folder, and the folder it runs in: the bot's
    own, never the caller's working folder (which may hold the project and its secrets).

    The program and every later word naming an existing file or folder are made
    absolute (a jailed bot sees those, read-only). The bot runs in the folder of the
    first file named after the program (an interpreter's script: ``python3 bot.py``,
    ``java -jar bot.jar``), or else of the program itself when a path names it
    (``./my-bot``), or else in its private home.

    >>> program_command(["/bin/sh", "-c", "exit"])
    (['/bin/sh', '-c', 'exit'], '/bin')
    >>> program_command(["/no/such/bot", "--fast"])
    (['/no/such/bot', '--fast'], None)
    """
    argv = list(words)
    cwd = None
    if Path(argv[0]).exists() or os.sep in argv[0]:
        argv[0] = os.path.abspath(argv[0])
        cwd = _folder_of(argv[0])
    else:
        argv[0] = shutil.which(argv[0]) or argv[0]
    script = None
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith("-") or not Path(word).exists():
            continue
        argv[index] = os.path.abspath(word)
        if script is None and Path(word).is_file():
            script = _folder_of(argv[index])
    return argv, script or cwd


def _folder_of(path: str) -> str | None:
    folder = os.path.dirname(path)
    return folder if os.path.isdir(folder) else None


def spec_from_text(text: str, bots_dir: str | Path | None) -> BotSpec:
    """``KIND`` or ``KIND:{json settings}`` (a built-in bot), ``bot:NAME`` (installed in
    ``bots_dir``), ``cmd:COMMAND LINE`` or a folder with a manifest."""
    head, _, rest = text.partition(":")
    if head == "bot":
        return BotSpec.installed(rest)
    if head == "cmd":
        return resolve_target(shlex.split(rest), bots_dir).spec
    if Path(text).is_dir():
        return resolve_target([text], bots_dir).spec
    try:
        settings = json.loads(rest) if rest else {}
    except ValueError as error:
        raise ValueError(f"the settings of {head!r} are not JSON: {error}") from None
    if not isinstance(settings, dict):
        raise ValueError(f"the settings of {head!r} must be a JSON object")
    return BotSpec(head, settings)
