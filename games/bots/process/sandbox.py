"""How a bot process is started: its limits, isolation, environment and visible files.

Every bot process (built-in ones too) is started the same way, by this worker process's
fork server (:mod:`games.bots.process.forkserver`), never by ``fork`` in the worker:

- **its own session and process group**, killed as a whole at the end of the game;
- **resource limits** (``setrlimit``, in the child before the bot runs): CPU seconds for
  the whole game (``SIGXCPU`` ends it), address space (allocations beyond it fail:
  ``MemoryError`` in Python), the largest file it may write (its stderr log included;
  ``SIGXFSZ``), open files, no core dumps, and, inside a jail, the number of processes
  and threads (``RLIMIT_NPROC``, counted per user namespace or per bot user id, so a fork
  bomb stops there);
- **a jail** where the platform allows (:mod:`games.bots.process.jail`): new mount,
  network, PID, IPC and UTS namespaces (a user namespace too unless the worker is root),
  a minimal read-only root with only the system folders, the Python installation, the
  ``games`` package and the bot's own folder (:func:`visible_paths`), a private empty
  writable ``/tmp`` and ``HOME``, no network, no other process. Where it is not available
  (``isolation="auto"``) the bot runs with the limits only, and :func:`isolation_available`
  says so; ``isolation="required"`` refuses to start a bot instead;
- **a bare environment**: ``PATH`` (the system's folders alone,
  :data:`~games.bots.process.exposure.BOT_PATH`), ``LANG``, ``HOME`` and ``TMPDIR``;
  nothing of the worker's environment (no secret key, no database address, not its
  ``PATH``) and no inherited file descriptors but the three standard ones.

An installed bot's program is *confined* to its folder: every other path its jail would
show must be a runtime (:func:`games.bots.process.exposure.runtime_problem`), checked
again here at each launch, and the jail binds each path only if it still resolves to the
real location checked here.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from games.bots.process.exposure import BOT_PATH, inside, runtime_problem

ISOLATION_MODES = ("auto", "required", "none")


class SandboxError(RuntimeError):
    """The sandbox cannot be set up as asked (e.g. isolation required but unavailable)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits of one bot process for one game.

    ``move_margin_seconds`` is added to the time a move may take (from the clock or the
    move limit) before the referee gives up waiting; ``default_move_seconds`` bounds a move
    when the game has neither. Output limits: ``max_line_bytes`` for one line and
    ``max_turn_bytes`` for everything the bot prints for one move. ``processes`` bounds the
    processes and threads of a jailed bot; ``scratch_bytes`` its ``/tmp`` and ``HOME``.
    """

    cpu_seconds: int = 600
    memory_bytes: int = 1 << 30
    file_bytes: int = 8 << 20
    open_files: int = 256
    processes: int = 128
    scratch_bytes: int = 64 << 20
    start_seconds: float = 10.0
    move_margin_seconds: float = 0.25
    default_move_seconds: float = 60.0
    max_line_bytes: int = 64 << 10
    max_turn_bytes: int = 1 << 20
    quit_grace_seconds: float = 0.2

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "memory_bytes", "file_bytes", "open_files", "processes",
                     "scratch_bytes", "max_line_bytes", "max_turn_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SandboxError(f"limit {name} must be a whole number >= 1, not {value!r}")
        for name in ("start_seconds", "move_margin_seconds", "default_move_seconds",
                     "quit_grace_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise SandboxError(f"limit {name} must be zero or more seconds, not {value!r}")


@dataclass(frozen=True, slots=True)
class Sandbox:
    """Limits plus the isolation policy (``auto``, ``required`` or ``none``)."""

    limits: Limits = Limits()
    isolation: str = "auto"

    def __post_init__(self) -> None:
        if self.isolation not in ISOLATION_MODES:
            raise SandboxError(f"isolation must be one of {', '.join(ISOLATION_MODES)}, "
                               f"not {self.isolation!r}")


@dataclass(frozen=True)
class Program:
    """What a bot process runs: a program (``argv``, found on ``PATH``) or a built-in bot
    (``builtin``: its kind and settings, served by a fork of the fork server), with its
    working folder, the host paths it needs to read besides the default ones, and the
    host folders it may write (local tools and tests only). An installed bot's program is
    ``confined_to`` its folder: it may see besides only the default paths and runtimes."""

    argv: tuple[str, ...] = ()
    builtin: tuple[str, Mapping[str, Any]] | None = None
    cwd: str | None = None
    paths: tuple[str, ...] = ()
    writable: tuple[str, ...] = ()
    confined_to: str | None = None

    def __post_init__(self) -> None:
        if bool(self.argv) == (self.builtin is not None):
            raise SandboxError("a program is a command line or a built-in bot, not both")

    @property
    def label(self) -> str:
        return self.builtin[0] if self.builtin is not None else " ".join(self.argv)


def project_root() -> str:
    """The folder that holds the ``games`` package."""
    return str(Path(__file__).resolve().parents[3])


#: Folders of the host a jail shows anyway (the system's own); paths under them are
#: never added for a program.
SYSTEM_PREFIXES = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def default_paths() -> list[str]:
    """What every jail shows read-only: the worker's Python installation (its virtual
    environment and base installation) and the ``games`` package (engines, built-in bots,
    the reference client; no settings and no secret)."""
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(sys.executable)}
    found |= {os.path.realpath(path) for path in list(found)}
    found.add(os.path.join(project_root(), "games"))
    return sorted(found)


def visible_paths(program: Program, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """The host paths the program's jail shows read-only, each with the real location it
    must still resolve to when the jail binds it: :func:`default_paths`, its working
    folder, its extra ``paths``, the folder of its executable and of every absolute path
    on its command line (each also through its links). The rest of the host's tree is not
    in the jail at all. :class:`SandboxError` names a path a confined program may not see."""
    defaults = default_paths()
    wanted = [*defaults, *program.paths]
    if program.cwd:
        wanted.append(program.cwd)
    words = list(program.argv)
    if words and not os.path.isabs(words[0]):
        found = shutil.which(words[0], path=env.get("PATH"))
        words[0] = found or words[0]
    for word in words:
        if not os.path.isabs(word) or not os.path.exists(word):
            continue
        for path in {word, os.path.realpath(word)}:
            wanted.append(path if os.path.isdir(path) else os.path.dirname(path))
    shown = {(os.path.normpath(path), os.path.realpath(path)) for path in wanted
             if not any(path == p or path.startswith(p + "/") for p in SYSTEM_PREFIXES)}
    if program.confined_to is not None:
        allowed = [os.path.realpath(program.confined_to),
                   *(os.path.realpath(path) for path in defaults)]
        for path, real in sorted(shown):
            if any(inside(real, folder) for folder in allowed):
                continue
            reason = runtime_problem(path)
            if reason is not None:
                raise SandboxError(f"{path} may not be shown to the bot: {reason}")
    return sorted(shown)


def request_for(program: Program, sandbox: Sandbox, home: str,
                env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The fork server's request for ``program``: never a seed nor a secret (the bot's
    seed comes in the ``game`` line)."""
    environment = bot_environment(env)
    run: dict[str, Any]
    if program.builtin is not None:
        run = {"builtin": [program.builtin[0], dict(program.builtin[1])]}
    else:
        run = {"exec": list(program.argv)}
    return {
        "run": run, "cwd": program.cwd, "home": home, "env": environment,
        "limits": asdict(sandbox.limits), "isolation": sandbox.isolation,
        "paths": visible_paths(program, environment),
        "writable": sorted({os.path.abspath(path) for path in program.writable}),
    }


def set_limits(limits: Mapping[str, Any], *, processes: bool) -> None:
    """Set the resource limits of the calling process (a bot, before it runs); the process
    limit only when ``processes`` (inside a jail, where it counts this bot's processes
    alone; outside, it would count every process of the worker's user)."""
    import resource

    settings = [
        (resource.RLIMIT_CPU, limits["cpu_seconds"], limits["cpu_seconds"] + 1),
        (resource.RLIMIT_AS, limits["memory_bytes"], limits["memory_bytes"]),
        (resource.RLIMIT_FSIZE, limits["file_bytes"], limits["file_bytes"]),
        (resource.RLIMIT_NOFILE, limits["open_files"], limits["open_files"]),
        (resource.RLIMIT_CORE, 0, 0),
    ]
    if processes:
        settings.append((resource.RLIMIT_NPROC, limits["processes"], limits["processes"]))
    for kind, soft, hard in settings:
        old_hard = resource.getrlimit(kind)[1]
        if old_hard != resource.RLIM_INFINITY:
            hard = min(hard, old_hard)
            soft = min(soft, hard)
        resource.setrlimit(kind, (soft, hard))


def isolation_method() -> str:
    """How this machine jails bots: ``root``, ``userns`` or ``none`` (asks the fork
    server, starting it if needed)."""
    from games.bots.process.forkserver import fork_server

    return fork_server().isolation


def isolation_available() -> str:
    """A sentence saying how bots are isolated on this machine (for logs and bot_check)."""
    from games.bots.process.forkserver import fork_server

    server = fork_server()
    if server.isolation == "none":
        return f"no jail on this machine ({server.why}): bots run with resource limits only"
    owner = ("a user namespace" if server.isolation == "userns"
             else "the machine (the worker is root; each bot runs under its own user id)")
    if server.isolation == "userns" and os.geteuid() == 0:
        owner += " (the worker is root: the process limit does not bind user id 0)"
    return (f"bots run jailed: new mount, network, PID, IPC and UTS namespaces owned by "
            f"{owner}, a minimal read-only root, private /tmp and home, resource limits")


def bot_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a bot gets (``HOME`` and ``TMPDIR`` are added where it starts)."""
    env = {
        "PATH": BOT_PATH,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    env.update(extra or {})
    return env
