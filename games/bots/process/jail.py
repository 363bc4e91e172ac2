"""The jail a bot process runs in (Linux): its own namespaces and a minimal file tree.

Called in a freshly forked, single-threaded child of the fork server
(:mod:`games.bots.process.forkserver`), never in a worker: it changes the calling
process for good. :func:`enter` builds, in order:

1. **Namespaces**: mount, network, PID, IPC and UTS namespaces, owned by a new user
   namespace when the worker is an ordinary user (method ``userns``: no privilege needed;
   the bot is user 1000 inside, the worker's user outside), or by the machine's when the
   worker runs as root (method ``root``: the bot then runs under a user id of its own,
   ``BOT_UID_BASE`` plus a process id, which owns no file and no other process).
2. **A process tree** ``A -> init -> bot``: ``A`` (outside the PID namespace) waits and
   ends as the bot ended (same exit status, same signal), ``init`` is process 1 of the
   namespace (it reaps, and when it ends the kernel kills every process left in it), the
   bot is its child. Each dies with its parent (``PR_SET_PDEATHSIG``).
3. **A minimal root** (``init``, before the bot starts): an empty tmpfs, read-only in the
   end, into which only these are put: read-only binds of ``/usr`` (``/bin``, ``/lib``...
   as on the host: links into it, or binds), a few files of ``/etc`` (the dynamic
   linker's cache and configuration, ``localtime``, ``alternatives``) beside a written
   ``passwd``, ``group`` and ``hosts``, the devices ``null``, ``zero``, ``full``,
   ``random`` and ``urandom``, a new ``/proc`` of the bot's PID namespace (``/proc/sys``
   and the few files root could write read-only), the paths the launch asks for (the
   Python installation, the ``games`` package, the bot's own folder: read-only, at the
   same place as on the host; each bound only if, once opened, it is still the real
   location the launch checked, so a folder swapped for a link since is refused), and a
   private, empty, writable tmpfs for ``/tmp`` and ``HOME`` (``/home/bot``) of at most
   ``scratch_bytes``, gone with the game. Then ``pivot_root`` into it: the host's tree
   (the project, its ``.env`` and ``var/``, the database sockets, other homes, the host's
   ``/tmp``) is not there at all.
4. **The bot's credentials**: in the ``root`` method it drops to its own user id and
   group; in the ``userns`` method the user namespace may not make user namespaces of its
   own, and the bot loses every capability (``capset``; ``execve`` as user 1000 clears them
   too). ``PR_SET_NO_NEW_PRIVS`` in both.

``init`` hides what it was started as: its command line and environment (those of the fork
server, which name the project's folder and the worker's ``PATH``) are blanked, so
``/proc/1/cmdline`` says ``init``, and it is not dumpable (the bot may not read its other
``/proc`` files nor trace it); the bot, its child, is made dumpable again.

Only ``init`` and the bot come back from :func:`enter` (the bot with ``True``); ``A``
never returns. Anything that fails raises :class:`JailError` before the bot runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import signal
import socket
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass

METHODS = ("root", "userns")
#: The bot's user and group id inside a user namespace.
INNER_ID = 1000
#: In the ``root`` method the bot runs as this plus the process id of its ``A`` process
#: (unique among running bots, and far above the ids of real users and of containers).
BOT_UID_BASE = 2_000_000_000
HOME = "/home/bot"
#: The bot's /tmp: a private tmpfs of its jail, not the host's.
TMP = "/tmp"  # nosec B108
#: Where the jail's root is built, in the jail's own mount namespace (the host's /tmp is
#: left untouched; sources under it are opened before the stage covers them).
_STAGE = "/tmp"  # nosec B108

_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_NOATIME, _MS_NODIRATIME = 32, 1024, 2048
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_MS_RELATIME, _MS_STRICTATIME = 1 << 21, 1 << 24
_ST_RELATIME = 4096
_MNT_DETACH = 2
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_NAME = 1, 4, 15
_PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS = 24, 38
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41}

#: Files of /etc a program may need to start (the dynamic linker's, the time zone), bound
#: read-only where they exist; nothing else of /etc is visible.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives")
DEVICES = ("null", "zero", "full", "random", "urandom")
#: Parts of /proc made read-only: the kernel's settings, and files that only their owner,
#: root, may write (a bot whose user namespace maps user id 0 would be that owner).
READ_ONLY_PROC = ("sys", "sysrq-trigger", "irq", "bus", "fs", "acpi")
#: Top-level folders of the host that may be links into /usr (merged /usr) or folders.
SYSTEM_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


class JailError(OSError):
    """A step of the jail could not be taken (the message says which)."""


@dataclass(frozen=True, slots=True)
class JailPlan:
    """What a jail shows: ``paths`` (host paths visible read-only at the same place), the
    size of the writable scratch (``/tmp`` and ``HOME`` together), the bot's working
    folder inside (a visible path, or ``HOME``), ``writable`` host folders (shown
    read-write at the same place; for local tools and tests only) and the ``real``
    location each checked path must still have."""

    paths: tuple[str, ...]
    scratch_bytes: int
    cwd: str | None = None
    writable: tuple[str, ...] = ()
    #: (path, real location) pairs: such a path is bound only if it still resolves there.
    real: tuple[tuple[str, str], ...] = ()


def supported() -> bool:
    """Whether this platform has what :func:`enter` uses (Linux on x86-64 or ARM64)."""
    return (platform.system() == "Linux" and platform.machine() in _SYS_PIVOT_ROOT
            and hasattr(os, "unshare"))


def method_for(euid: int) -> str:
    """The method a process of this effective user id uses."""
    return "root" if euid == 0 else "userns"


_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    """The C library (loaded once; the fork server loads it before forking)."""
    return _c()


def _c() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise JailError(number, f"{what}: {os.strerror(number)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    _check(_c().mount(source and source.encode(), target.encode(), fstype and fstype.encode(),
                      ctypes.c_ulong(flags), data and data.encode()),
           f"mount {source or fstype or ''} on {target}")


def prctl(option: int, value: int) -> None:
    _check(_c().prctl(option, ctypes.c_ulong(value), ctypes.c_ulong(0), ctypes.c_ulong(0),
                      ctypes.c_ulong(0)), f"prctl {option}")


def die_with_parent(parent: int | None) -> None:
    """``SIGKILL`` when the parent dies; if it already has, die now (``parent`` None: the
    parent is outside this PID namespace, where its id cannot be seen)."""
    prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if parent is not None and os.getppid() != parent:
        os._exit(137)


def visible_paths(paths: Iterable[str]) -> tuple[str, ...]:
    """Absolute, normalised, existing paths, without one inside another (the outer one
    already shows it), sorted."""
    found = sorted({os.path.normpath(os.path.abspath(path)) for path in paths
                    if path and os.path.exists(path)})
    kept: list[str] = []
    for path in found:
        if not any(path == outer or path.startswith(outer.rstrip("/") + "/") for outer in kept):
            kept.append(path)
    return tuple(kept)


def system_paths() -> tuple[list[str], list[tuple[str, str]]]:
    """The host's system folders to bind (``/usr`` and real top-level folders) and the
    links to make (merged-/usr systems link ``/bin`` and ``/lib`` into ``/usr``)."""
    binds, links = ["/usr"], []
    for name in SYSTEM_DIRS:
        path = "/" + name
        if os.path.islink(path):
            links.append((path, os.readlink(path)))
        elif os.path.isdir(path):
            binds.append(path)
    return binds, links


def enter(plan: JailPlan, method: str, uid: int, gid: int,
          announce: Callable[[int], None] | None = None) -> bool:
    """Put the calling process (a fork server child, single-threaded) in a jail. Returns
    ``True`` in the bot (run it now) and never in ``A``; ``init`` never returns either.

    ``init`` leads a process group of its own (the bot's too): ``announce`` is called in
    ``A`` with its id, the group to kill to end the jail. Killing it kills ``init``, with
    it the whole namespace, and only then does ``A`` end (``A`` is not in that group)."""
    if method == "userns":
        os.unshare(os.CLONE_NEWUSER | os.CLONE_NEWNS | os.CLONE_NEWNET | os.CLONE_NEWPID
                   | os.CLONE_NEWIPC | os.CLONE_NEWUTS)
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{INNER_ID} {uid} 1")
        _write("/proc/self/gid_map", f"{INNER_ID} {gid} 1")
        bot_uid = bot_gid = INNER_ID
    elif method == "root":
        os.unshare(os.CLONE_NEWNS | os.CLONE_NEWNET | os.CLONE_NEWPID | os.CLONE_NEWIPC
                   | os.CLONE_NEWUTS)
        bot_uid = bot_gid = BOT_UID_BASE + os.getpid()
    else:
        raise JailError(0, f"unknown jail method {method!r}")
    report_r, report_w = os.pipe()
    init = os.fork()
    if init:
        os.close(report_w)
        with contextlib.suppress(OSError):
            os.setpgid(init, init)
        if announce is not None:
            announce(init)
        _wait_and_mirror(init, report_r)
    os.close(report_r)
    os.setpgid(0, 0)
    die_with_parent(None)
    hide_command_line()
    _build_root(plan, method, bot_uid, bot_gid)
    prctl(_PR_SET_DUMPABLE, 0)
    with contextlib.suppress(OSError):
        socket.sethostname("bot")
    bot = os.fork()
    if bot == 0:
        os.close(report_w)
        die_with_parent(1)
        prctl(_PR_SET_DUMPABLE, 1)
        _drop(method, bot_uid, bot_gid)
        os.chdir(plan.cwd or HOME)
        return True
    _init_loop(bot, report_w)
    raise AssertionError("unreachable")


def hide_command_line(name: bytes = b"init") -> None:
    """Blank this process's command line and environment as ``/proc`` shows them (the
    memory the kernel reads them from: copies of the parent's, so the parent keeps its)
    and call it ``name``."""
    with open("/proc/self/stat", "rb") as stream:
        fields = stream.read().rsplit(b")", 1)[1].split()
    arg_start, arg_end, env_start, env_end = (int(value) for value in fields[45:49])
    for start, end in ((arg_start, arg_end), (env_start, env_end)):
        if end > start:
            ctypes.memset(start, 0, end - start)
    if arg_end - arg_start > len(name):
        ctypes.memmove(arg_start, name, len(name))
    _c().prctl(_PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)


def _write(path: str, text: str) -> None:
    with open(path, "w") as stream:
        stream.write(text)


def _wait_and_mirror(init: int, report: int) -> None:
    """``A``: wait for ``init``, then end exactly as the bot did."""
    chunks = []
    while chunk := os.read(report, 64):
        chunks.append(chunk)
    os.close(report)
    _, init_status = os.waitpid(init, 0)
    text = b"".join(chunks).decode() or ""
    status = int(text) if text.strip().lstrip("-").isdigit() else init_status
    mirror_status(status)


def mirror_status(status: int) -> None:
    """End this process as a process with wait status ``status`` ended."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        import resource

        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
            os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _init_loop(bot: int, report: int) -> None:
    """``init``: reap every process of the namespace until the bot ends, tell ``A`` how it
    ended, and exit (which kills whatever the bot left running)."""
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(1)
        except InterruptedError:
            continue
        if pid == bot:
            with contextlib.suppress(OSError):
                os.write(report, str(status).encode())
            os._exit(0)


def _build_root(plan: JailPlan, method: str, uid: int, gid: int) -> None:
    """Mount the minimal tree on a tmpfs and pivot into it (run by ``init``)."""
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    system, links = system_paths()
    etc = [f"/etc/{name}" for name in ETC_FILES if os.path.lexists(f"/etc/{name}")]
    devices = [f"/dev/{name}" for name in DEVICES if os.path.exists(f"/dev/{name}")]
    binds = visible_paths([*system, *plan.paths])
    writable = visible_paths(plan.writable)
    # Opened before the stage hides anything (a source may lie under the stage's place).
    sources = {path: os.open(path, os.O_PATH) for path in [*binds, *writable, *etc, *devices]}
    _check_unchanged(sources, dict(plan.real))
    stage = _STAGE
    _mount("tmpfs", stage, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755,size=16m")
    _scratch(stage, plan.scratch_bytes, uid, gid, method)  # first: paths in /tmp show above
    for path in binds:
        _bind(sources[path], stage + path, read_only=True)
    for path in writable:
        _bind(sources[path], stage + path, read_only=False)
    for path, target in links:
        if not os.path.lexists(stage + path):
            os.symlink(target, stage + path)
    os.makedirs(stage + "/etc", exist_ok=True)
    for path in etc:
        _bind(sources[path], stage + path, read_only=True)
    shell = "/bin/sh"
    _write(stage + "/etc/passwd", f"root:x:0:0:root:/:{shell}\nbot:x:{uid}:{gid}:bot:{HOME}:"
           f"{shell}\nnobody:x:65534:65534:nobody:/:{shell}\n")
    _write(stage + "/etc/group", f"root:x:0:\nbot:x:{gid}:\nnogroup:x:65534:\n")
    _write(stage + "/etc/hosts", "127.0.0.1 localhost bot\n::1 localhost\n")
    os.makedirs(stage + "/dev", exist_ok=True)
    for path in devices:
        _bind(sources[path], stage + path, read_only=False)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{stage}/dev/{name}")
    for fd in sources.values():
        os.close(fd)
    os.makedirs(stage + "/proc", exist_ok=True)
    _mount("proc", stage + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    if method == "userns":  # the bot may not make user namespaces of its own
        _write(stage + "/proc/sys/user/max_user_namespaces", "0")
    for name in READ_ONLY_PROC:
        path = f"{stage}/proc/{name}"
        if os.path.exists(path):
            _mount(path, path, None, _MS_BIND | _MS_REC)
            _mount(None, path, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID
                   | _MS_NODEV | _MS_NOEXEC | _locked_flags(path))
    os.mkdir(stage + "/.old")
    _check(_c().syscall(_SYS_PIVOT_ROOT[platform.machine()], stage.encode(),
                        (stage + "/.old").encode()), "pivot_root")
    os.chdir("/")
    _check(_c().umount2(b"/.old", _MNT_DETACH), "umount the host's tree")
    os.rmdir("/.old")
    _mount(None, "/", None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)


def _check_unchanged(sources: dict[str, int], real: dict[str, str]) -> None:
    """Refuse a checked path whose opened location is not the one that was checked."""
    for path, expected in real.items():
        if path not in sources:
            continue
        opened = os.readlink(f"/proc/self/fd/{sources[path]}")
        if opened != expected:
            raise JailError(0, f"{path} changed since it was checked: it resolves to "
                            f"{opened}, not {expected}")


def _scratch(stage: str, size: int, uid: int, gid: int, method: str) -> None:
    """One tmpfs of ``size`` bytes, shown at /tmp and at HOME, owned by the bot."""
    scratch = stage + "/.scratch"
    os.mkdir(scratch)
    owner = f",uid={uid},gid={gid}" if method == "root" else ""
    _mount("tmpfs", scratch, "tmpfs", _MS_NOSUID | _MS_NODEV,
           f"mode=0700,size={max(size, 4096)}{owner}")
    for name, mode in (("tmp", 0o1777), ("home", 0o700)):
        os.mkdir(f"{scratch}/{name}")
        os.chmod(f"{scratch}/{name}", mode)
        if method == "root":
            os.chown(f"{scratch}/{name}", uid, gid)
    os.makedirs(stage + TMP, exist_ok=True)
    os.makedirs(stage + HOME, exist_ok=True)
    _mount(os.path.join(scratch, "tmp"), stage + TMP, None, _MS_BIND)
    _mount(os.path.join(scratch, "home"), stage + HOME, None, _MS_BIND)
    _check(_c().umount2(scratch.encode(), _MNT_DETACH), "umount the scratch's first place")
    os.rmdir(scratch)


def _bind(source_fd: int, target: str, read_only: bool) -> None:
    """Bind the path open as ``source_fd`` (``O_PATH``) on ``target`` (made if missing)."""
    if not os.path.lexists(target):
        if stat.S_ISDIR(os.fstat(source_fd).st_mode):
            os.makedirs(target)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    _mount(f"/proc/self/fd/{source_fd}", target, None, _MS_BIND | _MS_REC)
    if read_only:
        _mount(None, target, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID
               | _MS_NODEV | _locked_flags(target))


def _locked_flags(path: str) -> int:
    """The flags a remount must keep (a user namespace may not clear them)."""
    flags = os.statvfs(path).f_flag
    kept = flags & (_MS_NOSUID | _MS_NODEV | _MS_NOEXEC | _MS_NOATIME | _MS_NODIRATIME)
    if flags & _ST_RELATIME:
        kept |= _MS_RELATIME
    elif not flags & (_MS_NOATIME | _MS_NODIRATIME):
        kept |= _MS_STRICTATIME
    return kept


def _drop(method: str, uid: int, gid: int) -> None:
    """The bot's credentials: no capability, no new privileges."""
    if method == "root":
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)  # from root to another id: every capability is gone
    else:
        drop_capabilities()
    prctl(_PR_SET_NO_NEW_PRIVS, 1)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """Empty the bounding set and every capability set of this process."""
    libc = _c()
    for cap in range(64):
        if libc.prctl(_PR_CAPBSET_DROP, ctypes.c_ulong(cap), ctypes.c_ulong(0),
                      ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
            break
    header = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    _check(libc.capset(ctypes.byref(header), data), "capset")

