"""The reads cached under a tournament's version.

Every write to a row that a tournament's standings, tables or pages show (a result, a
game, a round, an entrant, a requested bye, a team's members, a player or team renamed,
the tournament's own row) bumps ``Tournament.version`` in its transaction, by database
triggers, whatever writes it (``tournaments.freshness``). Cached reads are keyed by that
version, by when the tournament row itself was saved (its own fields) and by the
code revision, so a write makes every older entry unreachable at once, in every process,
whatever the cache backend: nothing expires by time to become right.
(``TOURNAMENT_CACHE_SECONDS`` only bounds how long unreachable entries take memory.) ETags
derive from the same state (``tournaments.etags``).

A cache that fails (Redis down) is logged and read around: the answer is computed.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches

from tournaments import selectors
from tournaments.etags import TournamentState
from tournaments.models import Tournament

log = logging.getLogger(__name__)

#: Top-level packages of the project that render no answer.
_NOT_SOURCE = {"tests", "bench"}
_SOURCE_SUFFIXES = {".py", ".html", ".js", ".css"}


@functools.cache
def code_revision() -> str:
    """A digest of the project's source files (Python, templates, scripts, styles) in its
    top-level packages and template folders, read once per process: a deploy that changes
    how answers look starts new cache keys. (Virtual environments and data folders are not
    packages and are left out.)"""
    digest = hashlib.blake2b(digest_size=8)
    base = Path(settings.BASE_DIR)
    folders = [folder for folder in base.iterdir() if (folder / "__init__.py").is_file()
               and folder.name not in _NOT_SOURCE]
    for template in settings.TEMPLATES:
        dirs: Any = template.get("DIRS", [])
        folders.extend(Path(folder) for folder in dirs)
    for folder in sorted(set(folders)):
        for path in sorted(folder.rglob("*")):
            if path.suffix in _SOURCE_SUFFIXES and "migrations" not in path.parts:
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def state_of(tournament: Tournament | TournamentState) -> TournamentState:
    """What the tournament's cached answers depend on (a state passes through)."""
    if isinstance(tournament, TournamentState):
        return tournament
    return TournamentState(tournament.pk, tournament.version, tournament.updated_at.isoformat())


def etag(tournament: Tournament | TournamentState, kind: str) -> str:
    """The weak ETag of ``kind`` (a page or an API answer) for the tournament as loaded."""
    return state_of(tournament).etag(kind, code_revision())


def cached[T](tournament: Tournament | TournamentState, kind: str, build: Callable[[], T]) -> T:
    """``build()``, kept under the tournament's current state for the next reader."""
    key = "tournament:" + state_of(tournament).key(kind, code_revision())
    store = caches["default"]
    try:
        value = store.get(key)
    except Exception:  # a cache server that fails is read around, not fatal
        log.warning("cache read failed for %s", key, exc_info=True)
        return build()
    if value is not None:
        return value  # type: ignore[no-any-return]
    value = build()
    try:
        store.set(key, value, timeout=settings.TOURNAMENT_CACHE_SECONDS)
    except Exception:
        log.warning("cache write failed for %s", key, exc_info=True)
    return value


def standings(tournament: Tournament) -> dict[str, Any]:
    """``tournaments.selectors.standings``, cached under the tournament's version."""
    return cached(tournament, "standings", lambda: selectors.standings(tournament))


def crosstable(tournament: Tournament) -> dict[str, Any]:
    return cached(tournament, "crosstable", lambda: selectors.crosstable(tournament))


def round_by_round(tournament: Tournament) -> dict[str, Any]:
    return cached(tournament, "round-by-round", lambda: selectors.round_by_round(tournament))


def points_before_rounds(tournament: Tournament) -> dict[int, list[float]]:
    return cached(tournament, "points-before",
                  lambda: selectors.points_before_rounds(tournament))
