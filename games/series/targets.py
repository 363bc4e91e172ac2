"""Bots named on a command line (``bot_check``, ``bot_match``), turned into specs.

>>> spec_from_text("mcts:{\"iterations\": 200}", None)
BotSpec(kind='mcts', settings={'iterations': 200}, command=(), cwd=None)
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
    program = os.path.abspath(first) if Path(first).exists() else (shutil.which(first) or first)
    return Target(BotSpec.program([program, *rest], cwd=os.getcwd()), " ".join(words))



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
