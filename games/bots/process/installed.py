"""Bots installed on a worker machine: one folder each in the bots directory, with a
manifest ``bot.toml``.

Organizers never type a command line into a web form: a worker runs only the programs an
administrator installed in its bots directory (the ``BOTS_DIR`` setting). A manifest::

    name = "my-bot"                      # letters, digits, '.', '_' or '-'; unique
    author = "A. Author"
    command = ["{python}", "bot.py"]     # run in the bot's folder
    games = ["kugamai", "stolbiki"]      # the games it plays (engine names)
    description = "optional text"
    paths = ["/opt/jdk"]                 # optional: runtimes it needs to read

In ``command``, ``{python}`` stands for the worker's Python interpreter and ``{dir}`` for
the bot's folder; a first word that names a file in the folder runs that file. A jailed
bot sees its folder, the system folders and the worker's Python (read-only); ``paths``
adds runtimes, read-only (docs/bot-protocol.md, section 8). ``paths`` and the absolute
paths of ``command`` may name only the bot's folder and runtimes
(:func:`games.bots.process.exposure.runtime_problem`: under ``/usr``, ``/opt``... and
never the project, the bots directory, ``VAR_DIR`` or a home), links resolved; any other
path refuses the manifest, whatever the isolation.

>>> listing = list_installed_bots("/no/such/folder")
>>> listing.bots, listing.problems[0][1]
((), 'the bots directory does not exist')
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.bots.process.exposure import inside, private_roots, runtime_problem
from games.engines import ENGINE_NAMES

MANIFEST = "bot.toml"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
_KEYS = {"name", "author", "command", "games", "description", "paths"}


class InstalledBotError(ValueError):
    """A manifest that cannot be used, or a bot that is not installed."""


@dataclass(frozen=True, slots=True)
class InstalledBot:
    name: str
    author: str
    command: tuple[str, ...]
    games: tuple[str, ...]
    folder: str
    description: str = ""
    paths: tuple[str, ...] = ()

    def argv(self, python: str | None = None) -> list[str]:
        """The command line, placeholders filled in and a local program made absolute."""
        words = [word.replace("{python}", python or sys.executable).replace("{dir}", self.folder)
                 for word in self.command]
        local = Path(self.folder, words[0])
        if (not os.path.isabs(words[0]) and local.is_file()
                and inside(os.path.realpath(local), self.folder)):
            words[0] = str(local)
        return words

    def plays(self, game: str) -> bool:
        return game in self.games


@dataclass(frozen=True, slots=True)
class BotsListing:
    """The bots found, by name, and the folders that could not be read, with why."""

    bots: tuple[InstalledBot, ...]
    problems: tuple[tuple[str, str], ...]

    def names(self) -> list[str]:
        return [bot.name for bot in self.bots]


def read_manifest(folder: str | Path, bots_dir: str | Path | None = None) -> InstalledBot:
    """The bot installed in ``folder`` (of ``bots_dir``, whose other bots it may not see);
    :class:`InstalledBotError` says what is wrong."""
    path = Path(folder) / MANIFEST
    try:
        with open(path, "rb") as stream:
            data = tomllib.load(stream)
    except FileNotFoundError:
        raise InstalledBotError(f"no {MANIFEST} in the folder") from None
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InstalledBotError(f"{MANIFEST} cannot be read: {error}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InstalledBotError(f"{MANIFEST}: unknown key {unknown[0]!r} "
                                f"(keys: {', '.join(sorted(_KEYS))})")
    name = _text(data, "name")
    if not _NAME.match(name):
        raise InstalledBotError(f"{MANIFEST}: name {name!r} must be 1 to 64 letters, digits, "
                                "'.', '_' or '-', starting with a letter or digit")
    command = data.get("command")
    if (not isinstance(command, list) or not command
            or not all(isinstance(word, str) and word for word in command)):
        raise InstalledBotError(f"{MANIFEST}: command must be a list of words, "
                                'like ["{python}", "bot.py"]')
    games = data.get("games")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise InstalledBotError(f"{MANIFEST}: games must list the games it plays "
                                f"({', '.join(ENGINE_NAMES)})")
    unknown_games = [game for game in games if game not in ENGINE_NAMES]
    if unknown_games:
        raise InstalledBotError(f"{MANIFEST}: unknown game {unknown_games[0]!r} "
                                f"(games: {', '.join(ENGINE_NAMES)})")
    paths = data.get("paths", [])
    if not isinstance(paths, list) or not all(
        isinstance(path, str) and os.path.isabs(path) for path in paths
    ):
        raise InstalledBotError(f"{MANIFEST}: paths must list absolute paths, "
                                'like ["/opt/jdk"]')
    own = os.path.realpath(folder)
    private = [bots_dir] if bots_dir is not None else []
    _check_reach(own, [str(path) for path in paths], [str(word) for word in command],
                 private)
    return InstalledBot(
        name=name, author=_text(data, "author", required=False) or "unknown",
        command=tuple(command), games=tuple(dict.fromkeys(games)),
        folder=own,
        description=_text(data, "description", required=False),
        paths=tuple(paths),
    )


def _check_reach(own: str, paths: list[str], command: list[str],
                 private: list[str | Path]) -> None:
    """Refuse a manifest that would show the bot more than its folder and runtimes."""
    for root in private_roots(private):
        if inside(root, own):
            raise InstalledBotError(f"the bot's folder {own} holds {root}, which bots may "
                                    "not see")
    for path in paths:
        reason = runtime_problem(path, private)
        if reason is not None:
            raise InstalledBotError(f"{MANIFEST}: paths: {path!r} may not be shown to a "
                                    f"bot: {reason}")
    for number, word in enumerate(command):
        if word == "{python}":
            continue
        filled = word.replace("{dir}", own)
        if not os.path.isabs(filled):
            local = os.path.realpath(os.path.join(own, filled))
            if number == 0 and os.path.exists(local) and not inside(local, own):
                raise InstalledBotError(f"{MANIFEST}: command: {word!r} leaves the bot's "
                                        "folder")
            continue
        if inside(os.path.realpath(filled), own):
            continue
        reason = runtime_problem(filled, private)
        if reason is not None:
            raise InstalledBotError(f"{MANIFEST}: command: {word!r} may not be shown to a "
                                    f"bot: {reason}")


def _text(data: dict[str, Any], key: str, required: bool = True) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise InstalledBotError(f"{MANIFEST}: {key} must be a {'non-empty ' * required}text")
    return value.strip()


def list_installed_bots(bots_dir: str | Path | None) -> BotsListing:
    """Every bot in ``bots_dir`` (one folder each), sorted by name; folders without a
    usable manifest, and names used twice, are listed as problems."""
    if bots_dir is None or not Path(bots_dir).is_dir():
        return BotsListing((), ((str(bots_dir), "the bots directory does not exist"),))
    bots: dict[str, InstalledBot] = {}
    problems: list[tuple[str, str]] = []
    for folder in sorted(Path(bots_dir).iterdir()):
        if not folder.is_dir() or folder.name.startswith("."):
            continue
        try:
            bot = read_manifest(folder, bots_dir)
        except InstalledBotError as error:
            problems.append((folder.name, str(error)))
            continue
        if bot.name in bots:
            problems.append((folder.name, f"the name {bot.name!r} is taken by the folder "
                             f"{Path(bots[bot.name].folder).name}"))
            continue
        bots[bot.name] = bot
    return BotsListing(tuple(bots[name] for name in sorted(bots)), tuple(problems))


def installed_bot(bots_dir: str | Path | None, name: str) -> InstalledBot:
    """The installed bot called ``name``."""
    listing = list_installed_bots(bots_dir)
    for bot in listing.bots:
        if bot.name == name:
            return bot
    for folder, problem in listing.problems:
        if folder == name:
            raise InstalledBotError(f"the bot {name!r} in {bots_dir} cannot be used: {problem}")
    known = ", ".join(listing.names()) or "none"
    raise InstalledBotError(f"no bot {name!r} is installed in {bots_dir} (installed: {known})")
