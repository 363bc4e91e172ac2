"""The fork server: one small process per worker process that starts every bot process.

Why: starting a fresh Python for each seat of each game cost about 65 ms of CPU a bot;
and ``preexec_fn`` (rlimits between fork and exec in the worker) is unsafe in a threaded
worker. The fork server is started once, by ``execve`` with a bare environment, so it
never holds the worker's settings, secrets, database connections or any referee's state;
it imports the built-in bots, engines and the protocol client, then waits for requests.
For each request it forks a child which (single-threaded) sets up its own session, the
jail (:mod:`games.bots.process.jail`) and the resource limits, and then either serves the
built-in bot through the protocol (no new interpreter: the code is already loaded) or
``execve``'s the external program.

Requests travel over a Unix socket (``SOCK_SEQPACKET``): a JSON document (what to run,
its limits, isolation and visible paths; never a seed, which the bot gets from the
``game`` line) and four descriptors: the bot's standard input, output and error, and the
write end of a *status pipe*. On the status pipe the server writes ``pid N`` at once,
``group G`` when the child's jail is ready (its ``init``'s process group, the one to
kill: the child ``A`` ends only after the whole namespace is gone), then ``exit N cpu
S`` or ``signal N cpu S`` when the child has ended. The server keeps
the ended child unreaped (its process id stays reserved, so the referee may still kill
its process group safely) until the referee closes its end of the status pipe; if the
referee closes it first, the child is killed. When the worker process dies, the server
sees the end of its socket, kills every child and exits; every child dies with the server
(``PR_SET_PDEATHSIG``), and with each child its namespace.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Methods of isolation the fork server may report: a jail method, or "none".
NONE = "none"
_MAX_REQUEST = 1 << 20


# -- the referee's side ----------------------------------------------------------------


class ForkServerError(RuntimeError):
    """The fork server could not be started or reached."""


class Child:
    """A bot process started by the fork server (the referee's handle on it)."""

    def __init__(self, pid: int, status_fd: int) -> None:
        self.pid = pid
        self.group: int | None = None  # the jail's process group, once announced
        self.returncode: int | None = None  # as Popen's: negative for a signal
        self.cpu_seconds: float | None = None
        self._status_fd = status_fd
        self._buffer = b""
        self._gone = False  # the status pipe ended without a status: the server died

    def poll(self) -> int | None:
        """The exit status if the process has ended (without waiting)."""
        self._read(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        self._read(timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"bot {self.pid}", timeout or 0.0)
        return self.returncode

    def kill(self) -> None:
        """``SIGKILL`` to the jail's process group (or, without a jail, the bot's), unless
        it ended: the status then comes once every process of the jail is gone."""
        if self.poll() is None and not self._gone:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.group or self.pid, signal.SIGKILL)

    def release(self) -> None:
        """Let the server forget the process (it kills it if it still runs)."""
        if self._status_fd >= 0:
            os.close(self._status_fd)
            self._status_fd = -1

    def __del__(self) -> None:
        with contextlib.suppress(OSError):
            self.release()

    def _read(self, timeout: float | None) -> None:
        if self.returncode is not None or self._status_fd < 0:
            return
        poller = select.poll()
        poller.register(self._status_fd, select.POLLIN)
        wait_ms = None if timeout is None else max(0, int(timeout * 1000))
        while self.returncode is None:
            if not poller.poll(wait_ms):
                return
            chunk = os.read(self._status_fd, 256)
            if not chunk:
                self._gone = True
                self.returncode = -int(signal.SIGKILL)
                return
            self._buffer += chunk
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                self._line(line.decode())

    def _line(self, line: str) -> None:
        words = line.split()
        if len(words) == 2 and words[0] == "group":
            self.group = int(words[1])
        elif len(words) >= 2 and words[0] in ("exit", "signal"):
            number = int(words[1])
            self.returncode = number if words[0] == "exit" else -number
            if len(words) >= 4 and words[2] == "cpu":
                self.cpu_seconds = float(words[3])


@dataclass
class ForkServer:
    """The referee process's connection to its fork server."""

    process: subprocess.Popen[bytes]
    sock: socket.socket
    isolation: str
    why: str
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(cls, python: str | None = None, method: str | None = None) -> ForkServer:
        """Start a fork server; ``method`` forces a jail method (``root``, ``userns`` or
        ``none``; tests use it) instead of the first that works here."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))))
        bootstrap = (f"import sys; sys.path.insert(0, {root!r}); "
                     "from games.bots.process.forkserver import main; "
                     "main(int(sys.argv[1]), *sys.argv[2:])")
        env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
               "LANG": "C.UTF-8"}
        try:
            process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
                [python or sys.executable, "-I", "-S", "-c", bootstrap, str(theirs.fileno()),
                 *([method] if method else [])],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
                pass_fds=(theirs.fileno(),), close_fds=True, start_new_session=True,
                cwd="/",
            )
        except OSError as error:
            raise ForkServerError(f"cannot start the bots' fork server: {error}") from None
        finally:
            theirs.close()
        ours.settimeout(60)
        try:
            hello = json.loads(ours.recv(65536) or b"null")
        except (OSError, ValueError):
            hello = None
        if not isinstance(hello, dict):
            process.kill()
            process.wait()
            ours.close()
            raise ForkServerError("the bots' fork server did not start (see the worker's "
                                  "log for its error)")
        ours.settimeout(None)
        return cls(process, ours, str(hello["isolation"]), str(hello["why"]))

    def alive(self) -> bool:
        return self.process.poll() is None

    def spawn(self, request: dict[str, Any], stdin: int, stdout: int, stderr: int) -> Child:
        """Start the process ``request`` describes on the given descriptors."""
        data = json.dumps(request, separators=(",", ":")).encode()
        if len(data) > _MAX_REQUEST:
            raise ForkServerError("the request to the fork server is too large")
        status_r, status_w = os.pipe()
        try:
            with self.lock:
                socket.send_fds(self.sock, [data], [stdin, stdout, stderr, status_w])
        except OSError as error:
            os.close(status_r)
            raise ForkServerError(f"the bots' fork server cannot be reached: {error}") from None
        finally:
            os.close(status_w)
        line = b""
        poller = select.poll()
        poller.register(status_r, select.POLLIN)
        while not line.endswith(b"\n"):
            if not poller.poll(30_000):
                os.close(status_r)
                raise ForkServerError("the bots' fork server did not answer")
            chunk = os.read(status_r, 1)
            if not chunk:
                os.close(status_r)
                raise ForkServerError("the bots' fork server ended")
            line += chunk
        words = line.decode().split()
        if words[0] == "error":
            os.close(status_r)
            raise ForkServerError(line.decode()[6:].strip())
        return Child(int(words[1]), status_r)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


_server: ForkServer | None = None
_server_lock = threading.Lock()


def fork_server() -> ForkServer:
    """This process's fork server, started when first needed (again if it died)."""
    global _server
    with _server_lock:
        if _server is None or not _server.alive():
            if _server is not None:
                _server.close()
            _server = ForkServer.start()
        return _server


def _forget_in_child() -> None:
    """After ``fork``: the parent's server is not ours (its socket is closed here, so the
    server still sees its worker's end when the parent dies)."""
    global _server, _server_lock
    if _server is not None:
        with contextlib.suppress(OSError):
            _server.sock.close()
    _server = None
    _server_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


# -- the server's side -----------------------------------------------------------------


@dataclass
class _Entry:
    status_fd: int
    ended: bool = False
    abandoned: bool = False


def main(fd: int, method: str | None = None) -> None:
    """The fork server's process: import what bots need, probe the jail, serve."""
    sock = socket.socket(fileno=fd)
    try:
        _preload()
        method, why = probe(method)
    except Exception as error:  # noqa: BLE001 - reported to the worker, then exit
        traceback.print_exc()
        with contextlib.suppress(OSError):
            sock.send(json.dumps({"error": str(error)}).encode())
        raise SystemExit(1) from None
    sock.send(json.dumps({"isolation": method, "why": why}).encode())
    _Server(sock, method).run()


def _preload() -> None:
    """Import every built-in bot and engine, so that no child imports them again."""
    import resource  # noqa: F401 - loaded for the children

    from games.bots import registry
    from games.bots.process import jail, launcher, sandbox  # noqa: F401 - for the children
    from games.engines import ENGINE_NAMES, get_engine

    if jail.supported():
        jail.libc()  # loaded once, here

    for name in ENGINE_NAMES:
        get_engine(name)
    for kind in registry.BOT_KINDS:
        registry.get_bot(kind, seed=0)
    import gc

    gc.collect()
    gc.freeze()  # children's collections never touch (and so never copy) these pages


class _Server:
    def __init__(self, sock: socket.socket, method: str) -> None:
        self.sock, self.method = sock, method
        self.children: dict[int, _Entry] = {}
        self.by_fd: dict[int, int] = {}
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.poller = select.poll()
        self.poller.register(sock.fileno(), select.POLLIN)
        self.poller.register(self.wake_r, select.POLLIN)

    def run(self) -> None:
        while True:
            try:
                events = self.poller.poll()
            except InterruptedError:
                continue
            for fd, event in events:
                if fd == self.sock.fileno():
                    if not self.request():
                        self.shutdown()
                        return
                elif fd == self.wake_r:
                    with contextlib.suppress(BlockingIOError):
                        while os.read(self.wake_r, 512):
                            pass
                elif event & (select.POLLERR | select.POLLHUP):
                    self.referee_done(fd)
            self.check_children()

    def request(self) -> bool:
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, _MAX_REQUEST, 4)
        except OSError:
            return False
        if not data:
            for fd in fds:
                os.close(fd)
            return False
        if len(fds) != 4:
            for fd in fds:
                os.close(fd)
            return True
        stdin, stdout, stderr, status = fds
        try:
            request = json.loads(data)
            if request.get("isolation") == "required" and self.method == NONE:
                raise ValueError("bot isolation is required but this machine cannot jail "
                                 "bots")
        except ValueError as error:
            for fd in (stdin, stdout, stderr):
                os.close(fd)
            with contextlib.suppress(OSError):
                os.write(status, f"error {error}\n".encode())
            os.close(status)
            return True
        server = os.getpid()
        pid = os.fork()
        if pid == 0:
            _child(request, (stdin, stdout, stderr, status), self.method, server)
        for fd in (stdin, stdout, stderr):
            os.close(fd)
        self.children[pid] = _Entry(status)
        self.by_fd[status] = pid
        try:
            os.write(status, f"pid {pid}\n".encode())
        except OSError:
            self.children[pid].abandoned = True
            _kill_group(pid)
        self.poller.register(status, 0)  # POLLERR when the referee closes its end
        return True

    def check_children(self) -> None:
        for pid, entry in list(self.children.items()):
            if entry.ended:
                continue
            try:
                ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                ended = None
            if ended is None:
                continue
            entry.ended = True
            _kill_group(pid)  # anything the bot left in its group (no PID namespace)
            cpu = _cpu_seconds(pid)
            if ended.si_code == os.CLD_EXITED:
                line = f"exit {ended.si_status} cpu {cpu:.6f}\n"
            else:
                line = f"signal {ended.si_status} cpu {cpu:.6f}\n"
            if entry.abandoned:
                self.forget(pid)
                continue
            with contextlib.suppress(OSError):
                os.write(entry.status_fd, line.encode())

    def referee_done(self, fd: int) -> None:
        pid = self.by_fd.get(fd)
        if pid is None:
            return
        entry = self.children[pid]
        if entry.ended:
            self.forget(pid)
        else:
            entry.abandoned = True
            _kill_group(pid)

    def forget(self, pid: int) -> None:
        entry = self.children.pop(pid)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        with contextlib.suppress(KeyError, ValueError):
            self.poller.unregister(entry.status_fd)
        self.by_fd.pop(entry.status_fd, None)
        os.close(entry.status_fd)

    def shutdown(self) -> None:
        for pid in list(self.children):
            _kill_group(pid)
        for pid in list(self.children):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        os._exit(0)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds of an ended (unreaped) child and the children it reaped."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            fields = stream.read().rsplit(b")", 1)[1].split()
        ticks = sum(int(value) for value in fields[11:15])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


# -- a child: from the fork to the bot -------------------------------------------------


def _child(request: dict[str, Any], fds: Sequence[int], method: str, server: int) -> None:
    """Become the bot described by ``request``; never returns."""
    code = 126
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        top = os.sysconf("SC_OPEN_MAX")
        os.closerange(4, top if top > 0 else 4096)  # 3: the status pipe, for the group
        code = _become_bot(request, method, server)
    except BaseException:  # noqa: BLE001 - said on the bot's stderr, which the referee quotes
        with contextlib.suppress(BaseException):
            os.write(2, f"bot sandbox: {traceback.format_exc(limit=3)}".encode())
    finally:
        os._exit(code)


_STATUS = 3


def _announce(group: int) -> None:
    """(In ``A``) tell the referee which process group ends the jail."""
    with contextlib.suppress(OSError):
        os.write(_STATUS, f"group {group}\n".encode())
        os.close(_STATUS)


def _become_bot(request: dict[str, Any], method: str, server: int) -> int:
    from games.bots.process import jail
    from games.bots.process.sandbox import set_limits

    jail.die_with_parent(server)
    isolation = request.get("isolation", "auto")
    jailed = isolation != NONE and method != NONE
    limits = request["limits"]
    if jailed:
        shown = [(str(path), str(real)) for path, real in request.get("paths", ())]
        plan = jail.JailPlan(tuple(path for path, _ in shown), int(limits["scratch_bytes"]),
                             request.get("cwd"), tuple(request.get("writable", ())),
                             tuple(shown))
        jail.enter(plan, method, os.geteuid(), os.getegid(), announce=_announce)
        os.close(_STATUS)
        env = dict(request["env"], HOME=jail.HOME, TMPDIR=jail.TMP)
    else:
        os.close(_STATUS)
        os.chdir(request.get("cwd") or request["home"])
        env = dict(request["env"], HOME=request["home"], TMPDIR=request["home"])
    set_limits(limits, processes=jailed)
    run = request["run"]
    if "exec" in run:
        argv = [str(word) for word in run["exec"]]
        try:
            os.execvpe(argv[0], argv, env)
        except OSError as error:
            os.write(2, f"cannot run {argv[0]!r}: {error.strerror}\n".encode())
            return 127
    kind, settings = run["builtin"]
    os.environ.clear()
    os.environ.update(env)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                  write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  write_through=True)
    from games.bots.process.launcher import run_builtin

    code = run_builtin(str(kind), dict(settings))
    sys.stdout.flush()
    return code


# -- the probe ---------------------------------------------------------------------------


def probe(only: str | None = None) -> tuple[str, str]:
    """The jail method that works on this machine (tried in a throwaway child), or
    ``"none"``, with a sentence saying why; ``only`` tries that method alone."""
    from games.bots.process import jail

    if only == NONE:
        return NONE, "no jail asked for"
    if not jail.supported():
        return NONE, "not Linux on x86-64 or ARM64"
    reasons = []
    for method in [only] if only else dict.fromkeys([jail.method_for(os.geteuid()), "userns"]):
        ok, why = _try(method)
        if ok:
            return method, why
        reasons.append(f"{method}: {why}")
    return NONE, "; ".join(reasons)


def _try(method: str) -> tuple[bool, str]:
    from games.bots.process import jail

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read)
            os.setsid()
            jail.die_with_parent(os.getppid())
            plan = jail.JailPlan((), 1 << 20)
            if jail.enter(plan, method, os.geteuid(), os.getegid()):
                visible = sorted(os.listdir("/"))
                ok = os.getcwd() == jail.HOME and "proc" in visible and "work" not in visible
                code = 0 if ok else 3
        except BaseException as error:  # noqa: BLE001 - the reason goes to the parent
            with contextlib.suppress(BaseException):
                os.write(write, str(error).encode()[:500])
        finally:
            os._exit(code)
    os.close(write)
    said = b""
    while chunk := os.read(read, 512):
        said += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return True, f"jailed ({method})"
    return False, said.decode(errors="replace") or f"wait status {status}"
