"""How a bot program is started: resource limits, namespaces, environment, folder.

Every bot process (built-in ones too) is started the same way:

- **its own session and process group** (``start_new_session``), so that the whole group
  can be killed at the end of the game;
- **resource limits** set in the child before the program starts (``setrlimit``): CPU
  seconds for the whole game (``SIGXCPU`` ends it), address space (allocations beyond it
  fail: ``MemoryError`` in Python), the largest file it may write (its stderr log
  included; ``SIGXFSZ`` ends it), open files, no core dumps;
- **namespaces**, where the platform allows (Linux with user namespaces, and the
  ``unshare`` program of util-linux): a new user namespace (no privilege outside it), a
  network namespace with no interface but a loopback that is down (no network at all),
  a PID namespace with its own ``/proc`` (the bot sees no other process, the referee
  included, and every process it starts dies with it), IPC and UTS namespaces. Where they
  are not available, the fallback (``isolation="auto"``) runs the program with the limits
  only and says so (:func:`isolation_available`); ``isolation="required"`` refuses to
  start a bot instead;
- **a bare environment**: ``PATH``, ``LANG``, and ``HOME``/``TMPDIR`` pointing at a fresh
  folder made for this process (its working folder when the bot has none of its own) and
  removed after the game; nothing of the worker's environment (no secret key, no database
  address) and no inherited file descriptors but the three standard ones.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

ISOLATION_MODES = ("auto", "required", "none")

#: Namespaces asked of ``unshare``, from the strongest set to the weakest that still cuts
#: the network; the first that works on this machine is used.
_UNSHARE_FLAGS: tuple[tuple[str, ...], ...] = (
    ("--user", "--map-current-user", "--net", "--ipc", "--uts", "--pid", "--fork",
     "--kill-child", "--mount-proc"),
    ("--user", "--map-current-user", "--net", "--ipc", "--uts"),
    ("--net",),
)


#: The init of a bot's PID namespace: runs the bot as its child and returns its status.
_INIT_SHELL = ("/bin/sh", "-c", '"$@"; exit $?', "sh")


class SandboxError(RuntimeError):
    """The sandbox cannot be set up as asked (e.g. isolation required but unavailable)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits of one bot process for one game.

    ``move_margin_seconds`` is added to the time a move may take (from the clock or the
    move limit) before the referee gives up waiting; ``default_move_seconds`` bounds a move
    when the game has neither. Output limits: ``max_line_bytes`` for one line and
    ``max_turn_bytes`` for everything the bot prints for one move.
    """

    cpu_seconds: int = 600
    memory_bytes: int = 1 << 30
    file_bytes: int = 8 << 20
    open_files: int = 256
    start_seconds: float = 10.0
    move_margin_seconds: float = 0.25
    default_move_seconds: float = 60.0
    max_line_bytes: int = 64 << 10
    max_turn_bytes: int = 1 << 20
    quit_grace_seconds: float = 0.2

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "memory_bytes", "file_bytes", "open_files",
                     "max_line_bytes", "max_turn_bytes"):
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

    def wrapper(self) -> tuple[str, ...]:
        """The command prefix that puts the program into its namespaces (may be empty).

        In a PID namespace the first process is its init, which the kernel spares the
        signals it does not handle (``SIGXCPU`` among them): a shell is that init, and the
        bot its child; the shell exits with 128 + the signal that ended the bot."""
        if self.isolation == "none":
            return ()
        flags = isolation_flags()
        if flags is None:
            if self.isolation == "required":
                raise SandboxError(
                    "bot isolation is required but this machine cannot make namespaces "
                    "(no 'unshare' program, or user namespaces are disabled)"
                )
            return ()
        unshare = shutil.which("unshare")
        assert unshare is not None
        if "--pid" in flags:
            return (unshare, *flags, "--", *_INIT_SHELL)
        return (unshare, *flags, "--")

    def exit_status(self, returncode: int) -> int:
        """The bot's exit status as Popen reports it (negative: killed by that signal)."""
        flags = isolation_flags() if self.isolation != "none" else None
        if flags is not None and "--pid" in flags and 128 < returncode < 128 + 65:
            return -(returncode - 128)
        return returncode


@cache
def isolation_flags() -> tuple[str, ...] | None:
    """The ``unshare`` flags that work on this machine (probed once), or ``None``."""
    unshare = shutil.which("unshare")
    if unshare is None or not sys.platform.startswith("linux"):
        return None
    for flags in _UNSHARE_FLAGS:
        try:
            done = subprocess.run([unshare, *flags, "--", "true"], capture_output=True,
                                  timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return flags
    return None


def isolation_available() -> str:
    """A sentence saying how bots are isolated on this machine (for logs and bot_check)."""
    flags = isolation_flags()
    if flags is None:
        return "no namespaces on this machine: bots run with resource limits only"
    kinds = [f[2:] for f in flags if f in {"--user", "--net", "--pid", "--ipc", "--uts"}]
    return f"bots run in new {', '.join(kinds)} namespaces, with resource limits"


def limit_setter(limits: Limits) -> Callable[[], None]:
    """The function run in the child between fork and exec: it sets the rlimits and, on
    Linux, asks for ``SIGKILL`` when the referee dies (so a worker killed mid-game takes
    its bots with it)."""
    import resource

    die_with_parent = _parent_death_signal()

    settings = [
        (resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1)),
        (resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)),
        (resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes)),
        (resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)),
        (resource.RLIMIT_CORE, (0, 0)),
    ]
    current = {kind: resource.getrlimit(kind) for kind, _ in settings}

    def set_limits() -> None:
        die_with_parent()
        for kind, (soft, hard) in settings:
            old_hard = current[kind][1]
            if old_hard != resource.RLIM_INFINITY:
                hard = min(hard, old_hard)
                soft = min(soft, hard)
            resource.setrlimit(kind, (soft, hard))

    return set_limits


_PR_SET_PDEATHSIG = 1


def _parent_death_signal() -> Callable[[], None]:
    """A function that sets the parent-death signal to SIGKILL (Linux; a no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return lambda: None
    import ctypes
    import signal

    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def set_signal() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)

    return set_signal


def bot_environment(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment a bot gets."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    env.update(extra or {})
    return env


def spawn(
    command: Sequence[str], *, sandbox: Sandbox, cwd: str, home: str, stderr_path: str,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``command`` under the sandbox, with pipes on its standard input and output
    and its standard error into ``stderr_path``."""
    with open(stderr_path, "wb") as stderr:
        return subprocess.Popen(  # noqa: S603 - the command comes from a manifest or a spec
            [*sandbox.wrapper(), *command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
            env=bot_environment(home, env),
            close_fds=True,
            start_new_session=True,
            preexec_fn=limit_setter(sandbox.limits),  # noqa: PLW1509 - rlimits only
            bufsize=0,
        )
