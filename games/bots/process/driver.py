"""One bot program as a child process, spoken to through the protocol with deadlines.

:class:`BotProcess` starts the program in its sandbox, holds the handshake, sends lines
and reads the bot's answers, never waiting past a deadline and never reading more than the
limits allow. Everything that goes wrong on the bot's side is a :class:`BotFault` with a
kind (``start``, ``crash``, ``timeout``, ``cpu``, ``memory``, ``flood``, ``garbage``,
``protocol``), a message and the line that caused it. :meth:`BotProcess.close` ends the
process group (and with it, in a PID namespace, every process the bot started) whatever
state the bot is in. The process itself is started by the worker's fork server
(:mod:`games.bots.process.forkserver`) in its sandbox (:mod:`games.bots.process.sandbox`).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games.bots.process.forkserver import Child, ForkServerError, fork_server
from games.bots.process.sandbox import Program, Sandbox, SandboxError, request_for
from games.bots.protocol.messages import (
    VERSIONS,
    Author,
    BotMessage,
    GameResult,
    Hello,
    Info,
    Move,
    Name,
    NewGame,
    ProtocolError,
    Quit,
    Ready,
    Speaks,
    Updates,
    format_referee,
    parse_bot_line,
)

FAULT_KINDS = ("start", "crash", "timeout", "cpu", "memory", "flood", "garbage", "protocol")
_MEMORY_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory",
                 "OutOfMemory")
_STDERR_TAIL = 600
#: Info lines kept per move (the last ones) and characters kept of each.
INFO_LINES_KEPT = 16
INFO_CHARS_KEPT = 1000


class BotFault(Exception):
    """The bot broke a rule of the process boundary; ``kind`` is one of FAULT_KINDS."""

    def __init__(self, kind: str, message: str, line: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        shown = self.line if len(self.line) <= 200 else self.line[:200] + "..."
        return f"{self.message} (line {shown!r})"


@dataclass(frozen=True, slots=True)
class Identity:
    """What the bot said in the handshake."""

    name: str
    author: str
    updates: str
    version: int


@dataclass(slots=True)
class Reply:
    """A move with the info lines sent before it and the seconds it took (go to move)."""

    move: str
    info: list[str] = field(default_factory=list)
    seconds: float = 0.0


class BotProcess:
    """A running bot program; use as a context manager or call :meth:`close`."""

    def __init__(
        self, program: Program | Sequence[str], *, sandbox: Sandbox | None = None,
        cwd: str | None = None, env: Mapping[str, str] | None = None, label: str = "bot",
    ) -> None:
        if not isinstance(program, Program):
            program = Program(argv=tuple(program), cwd=cwd)
        self.program = program
        self.sandbox = sandbox or Sandbox()
        self.limits = self.sandbox.limits
        self.label = label
        self._buffer = bytearray()
        self._turn_bytes = 0
        self._closed = False
        self._quit_sent = False
        self.identity: Identity | None = None
        server = fork_server()
        if self.sandbox.isolation == "required" and server.isolation == "none":
            raise SandboxError(f"bot isolation is required but this machine cannot jail "
                               f"bots ({server.why})")
        if program.argv and not _findable(program.argv[0], program.cwd):
            raise BotFault("start", f"could not start {program.argv[0]!r}: no such program")
        self.home = tempfile.mkdtemp(prefix="bot-")
        self.stderr_path = os.path.join(self.home, ".stderr")
        request = request_for(program, self.sandbox, self.home, env)
        stdin_r, self._in = os.pipe()
        self._out, stdout_w = os.pipe()
        stderr = os.open(self.stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            self.child: Child = server.spawn(request, stdin_r, stdout_w, stderr)
        except ForkServerError as error:
            for fd in (self._in, self._out):
                os.close(fd)
            shutil.rmtree(self.home, ignore_errors=True)
            raise BotFault("start", f"could not start {program.label!r}: {error}") from None
        finally:
            for fd in (stdin_r, stdout_w, stderr):
                os.close(fd)
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._read_poll = select.poll()
        self._read_poll.register(self._out, select.POLLIN)
        self._write_poll = select.poll()
        self._write_poll.register(self._in, select.POLLOUT)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- conversation ------------------------------------------------------------------

    def handshake(self, deadline: float) -> Identity:
        """``protocol 1``, then read name, author, updates mode and the version."""
        self.send(format_referee(Hello(VERSIONS)), deadline=deadline)
        name = author = ""
        updates = "positions"
        while True:
            message, line = self._receive(deadline, "the handshake")
            match message:
                case Name(text):
                    name = text
                case Author(text):
                    author = text
                case Updates(mode):
                    updates = mode
                case Speaks(version):
                    if version not in VERSIONS:
                        raise BotFault("protocol", f"the bot speaks version {version}; the "
                                       f"referee offered {VERSIONS}", line)
                    self.identity = Identity(name or "unnamed", author or "unknown",
                                             updates, version)
                    return self.identity
                case Info():
                    continue
                case _:
                    raise BotFault("protocol", "expected name, author, updates or protocol "
                                   "in the handshake", line)

    def new_game(self, game: NewGame, deadline: float) -> None:
        """Announce the game and wait for ``ready``."""
        self.send(format_referee(game), deadline=deadline)
        while True:
            message, line = self._receive(deadline, "ready")
            if isinstance(message, Ready):
                return
            if not isinstance(message, Info):
                raise BotFault("protocol", "expected ready after game", line)

    def ask(self, lines: Sequence[str], deadline: float) -> Reply:
        """Send ``lines`` (the last one a ``go``) and read the move. The time is measured
        from the moment the ``go`` is written to the moment the move is read."""
        self._check_idle()
        self.send(*lines, deadline=deadline)
        started = time.perf_counter()
        self._turn_bytes = 0
        info: list[str] = []
        while True:
            message, line = self._receive(deadline, "a move")
            if isinstance(message, Move):
                return Reply(message.text, info, time.perf_counter() - started)
            if isinstance(message, Info):
                info.append(message.text[:INFO_CHARS_KEPT])
                if len(info) > INFO_LINES_KEPT:
                    del info[0]
                continue
            raise BotFault("protocol", "expected info or move after go", line)

    def quit(self, result: GameResult | None = None) -> None:
        """Tell the bot the result (if any) and to quit, without waiting."""
        if self._quit_sent or self.child.poll() is not None:
            return
        self._quit_sent = True
        lines = [format_referee(result)] if result is not None else []
        with contextlib.suppress(BotFault):
            self.send(*lines, format_referee(Quit()), deadline=time.perf_counter())

    def close(self, result: GameResult | None = None) -> int | None:
        """Say goodbye (:meth:`quit`), give the bot a moment to exit, then kill its process
        group and remove its folder. Returns the exit status (negative: a signal)."""
        if not self._closed:
            self._closed = True
            self.quit(result)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.child.wait(timeout=self.limits.quit_grace_seconds)
            self.child.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.child.wait(timeout=5)
            self.child.release()
            for fd in (self._in, self._out):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self.home, ignore_errors=True)
        return self.child.returncode

    def stderr_tail(self) -> str:
        """The end of what the bot wrote to its standard error."""
        try:
            with open(self.stderr_path, "rb") as stream:
                stream.seek(0, os.SEEK_END)
                size = stream.tell()
                stream.seek(max(0, size - _STDERR_TAIL))
                return stream.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    # -- lines -------------------------------------------------------------------------

    def send(self, *lines: str, deadline: float) -> None:
        """Write ``lines`` to the bot; a bot that stops reading is a ``timeout``."""
        data = memoryview(("\n".join(lines) + "\n").encode()) if lines else memoryview(b"")
        while data:
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._exit_fault("while the referee was writing to it") from None
            data = data[written:]
            waited = not data or self._write_poll.poll(_ms_until(deadline))
            if not waited and time.perf_counter() >= deadline:
                raise BotFault("timeout", "the bot stopped reading its input")

    def _check_idle(self) -> None:
        """Lines the bot sent while it was not asked anything: info is dropped, anything
        else is a protocol error (a move nobody asked for)."""
        while True:
            line = self._line_now()
            if line is None:
                return
            message = self._parse(line)
            if message is not None and not isinstance(message, Info):
                raise BotFault("protocol", "the bot sent a line while it was not its turn",
                               line)

    def _receive(self, deadline: float, waiting_for: str) -> tuple[BotMessage, str]:
        while True:
            line = self._read_line(deadline, waiting_for)
            message = self._parse(line)
            if message is not None:
                return message, line

    def _parse(self, line: str) -> BotMessage | None:
        try:
            return parse_bot_line(line)
        except ProtocolError as error:
            raise BotFault("garbage", error.message, line) from None

    def _read_line(self, deadline: float, waiting_for: str) -> str:
        while True:
            line = self._line_now()
            if line is not None:
                return line
            if not self._read_poll.poll(_ms_until(deadline)) and time.perf_counter() >= deadline:
                raise BotFault("timeout", f"no answer in time (waiting for {waiting_for})")
            self._fill(waiting_for)

    def _line_now(self) -> str | None:
        """A complete line from what was read so far (reading without waiting once)."""
        end = self._buffer.find(b"\n")
        if end < 0:
            if not self._read_poll.poll(0):
                return None
            self._fill("a line")
            end = self._buffer.find(b"\n")
            if end < 0:
                return None
        if end > self.limits.max_line_bytes:
            raise BotFault("flood", f"a line longer than {self.limits.max_line_bytes} bytes",
                           bytes(self._buffer[:200]).decode("utf-8", "replace"))
        raw = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BotFault("garbage", "a line that is not UTF-8 text",
                           raw.decode("utf-8", "replace")) from None

    def _fill(self, waiting_for: str) -> None:
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return
        if not chunk:
            raise self._exit_fault(f"while the referee waited for {waiting_for}")
        self._buffer += chunk
        self._turn_bytes += len(chunk)
        limits = self.limits
        if self._turn_bytes > limits.max_turn_bytes:
            raise BotFault("flood", f"more than {limits.max_turn_bytes} bytes of output "
                           "for one move", bytes(self._buffer[:200]).decode("utf-8", "replace"))
        if self._buffer.find(b"\n", 0, limits.max_line_bytes + 1) < 0 and (
            len(self._buffer) > limits.max_line_bytes
        ):
            raise BotFault("flood", f"a line longer than {limits.max_line_bytes} bytes",
                           bytes(self._buffer[:200]).decode("utf-8", "replace"))

    def _exit_fault(self, when: str) -> BotFault:
        """Why the bot's output ended: its exit status and the end of its stderr."""
        try:
            code = self.child.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return BotFault("crash", f"the bot closed its output {when}")
        tail = self.stderr_tail()
        said = f"; its stderr ends: {tail[-300:]}" if tail else ""
        with contextlib.suppress(OSError):
            if os.path.getsize(self.stderr_path) >= self.limits.file_bytes:
                return BotFault("flood", f"the bot wrote {self.limits.file_bytes} bytes to its "
                                f"stderr, all it may, and exited with status {code} {when}")
        if code < 0:
            signal_number = -code
            name = _signal_name(signal_number)
            if signal_number == signal.SIGXCPU:
                return BotFault("cpu", f"the bot used up its {self.limits.cpu_seconds} s of "
                                f"CPU time ({name}) {when}")
            if signal_number == signal.SIGXFSZ:
                return BotFault("flood", f"the bot wrote more than {self.limits.file_bytes} "
                                f"bytes to a file or its stderr ({name}) {when}")
            kind = "memory" if any(word in tail for word in _MEMORY_WORDS) else "crash"
            return BotFault(kind, f"the bot was killed by {name} {when}{said}")
        if any(word in tail for word in _MEMORY_WORDS):
            return BotFault("memory", f"the bot ran out of memory (limit "
                            f"{self.limits.memory_bytes >> 20} MiB) and exited with status "
                            f"{code} {when}{said}")
        return BotFault("crash", f"the bot exited with status {code} {when}{said}")


def _findable(program: str, cwd: str | None) -> bool:
    """Whether ``program`` names an existing file (absolute, relative to ``cwd``, or on
    the bots' ``PATH``)."""
    if os.sep in program:
        return os.path.exists(os.path.join(cwd or os.getcwd(), program))
    return shutil.which(program, path=os.environ.get("PATH")) is not None


def _ms_until(deadline: float) -> int:
    return max(0, int((deadline - time.perf_counter()) * 1000) + 1)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
