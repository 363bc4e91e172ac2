"""What of the host a bot may see, besides its own folder and the worker's Python.

A manifest's ``paths``, and an absolute path in its ``command`` (the jail shows that
path's folder), may name only a **runtime**: a path whose real location (links resolved)
lies under one of :data:`RUNTIME_ROOTS` (``/usr``, ``/opt``, ``/lib``...) and neither lies
in nor holds a **private** folder: the project (its ``.env``, settings and ``var/``), the
worker user's home, the bots directory (other bots' folders) and the folders the Django
shell registers at start-up (:func:`keep_private`: ``VAR_DIR``, ``BOTS_DIR``...).
Everything else (``/etc``, ``/proc``, ``/sys``, ``/dev``, ``/var``, ``/tmp``, ``/run``,
``/home``, ``/root``, ``/``) is outside the runtime roots and so refused.

:func:`runtime_problem` is checked when a manifest is read and again when its bot is
launched; the jail then binds a path only if it still resolves to the real location that
was checked (:mod:`games.bots.process.jail`), so a folder swapped for a link in between is
refused too.

>>> runtime_problem("/etc") is not None, runtime_problem("relative/path")
(True, 'it is not an absolute path')
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

#: Where a runtime a bot needs (a JDK, an interpreter) may be installed.
RUNTIME_ROOTS: tuple[str, ...] = ("/usr", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                                  "/libx32", "/nix/store", "/gnu/store")
#: A bot's ``PATH``, jailed or not: the system's folders, nothing of the worker's own.
BOT_PATH = "/usr/local/bin:/usr/bin:/bin"

_private: list[str] = []


def keep_private(*paths: str | Path) -> None:
    """Add folders no bot may see (the Django shell's ``VAR_DIR``, ``BOTS_DIR``...)."""
    for path in paths:
        real = os.path.realpath(path)
        if real not in _private:
            _private.append(real)


def project_root() -> str:
    """The folder that holds the ``games`` package."""
    return str(Path(__file__).resolve().parents[3])


def private_roots(extra: Iterable[str | Path] = ()) -> tuple[str, ...]:
    """Real locations of the folders no bot may see: the project, the home folder, the
    registered ones and ``extra`` (the bots directory)."""
    found = [project_root(), os.path.realpath(Path.home()), *_private,
             *(os.path.realpath(path) for path in extra)]
    # A service user's home may be "/" (it has none): that would hide every runtime.
    return tuple(path for path in dict.fromkeys(found) if path != "/")


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies in it (both absolute and normalised)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def runtime_problem(path: str, private: Iterable[str | Path] = ()) -> str | None:
    """Why ``path`` may not be shown to a bot as a runtime, or None."""
    if not os.path.isabs(path):
        return "it is not an absolute path"
    real = os.path.realpath(path)
    shown = f" (it resolves to {real})" if real != os.path.normpath(path) else ""
    roots = {os.path.realpath(root) for root in RUNTIME_ROOTS} | set(RUNTIME_ROOTS)
    if not any(inside(real, root) for root in roots):
        return (f"it is not under a runtime folder ({', '.join(RUNTIME_ROOTS)}){shown}")
    for folder in private_roots(private):
        if inside(real, folder):
            return f"it lies in {folder}, which bots may not see{shown}"
        if inside(folder, real):
            return f"it holds {folder}, which bots may not see{shown}"
    return None
