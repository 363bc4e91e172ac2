"""The jail, tried as a bot author would: notes passed between games, the project's
secrets, a fork bomb; and the fork server that starts every bot."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.bots.process import forkserver
from games.bots.process.driver import BotProcess
from games.bots.process.forkserver import ForkServer, fork_server
from games.bots.process.sandbox import (
    Limits,
    Program,
    Sandbox,
    default_paths,
    isolation_method,
    project_root,
    request_for,
)
from games.series.referee import BotSpec, RefereeOutcome
from tests.unit.protocol.helpers import PROGRAMS, play

JAILED = isolation_method() != "none"
jailed_only = pytest.mark.skipif(not JAILED, reason="no jail on this machine")


@pytest.fixture(params=["root", "userns"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each jail method this machine has (``root`` for a worker running as root, whose
    bots run under user ids of their own; ``userns`` for any other worker), in a fork
    server of the test's own."""
    server = ForkServer.start(method=request.param)
    try:
        if server.isolation != request.param:
            pytest.skip(f"no {request.param} jail here: {server.why}")
        monkeypatch.setattr(forkserver, "_server", server)
        yield request.param
    finally:
        server.close()


def prisoner(mode: str, marker: str) -> BotSpec:
    return BotSpec.program([sys.executable, str(PROGRAMS / "prisoner.py"), mode,
                            f"project:{project_root()}", marker])


def said(outcome: RefereeOutcome, prefix: str) -> list[str]:
    return [line.removeprefix("string ") for lines in outcome.info for line in lines
            if line.startswith(f"string {prefix}")]


def test_notes_pass_neither_between_games_nor_between_partners(method: str) -> None:
    """Both games of a duplicate Stolbiki pair, each side two processes of the same bot:
    every process writes notes in /tmp and its home, and none finds another's."""
    marker = f"note-{uuid.uuid4().hex}"
    for number in (0, 1):  # the two games of a duplicate pair
        outcome = play(prisoner("notes", marker), prisoner("notes", marker), game="stolbiki",
                       number=number)
        assert outcome.termination == "normal", outcome.reason
        found = said(outcome, "notes-found")
        assert len(found) == 4 and all(line.split()[1] == "0" for line in found), found
        written = said(outcome, "notes-written")
        assert len(written) == 4
        assert all({"/tmp", "/home/bot"} <= set(line.split()[1].split(",")) for line in written)
    assert not [name for name in os.listdir("/tmp") if marker in name]


def test_the_projects_secrets_are_out_of_sight(method: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    marker = f"secret-{uuid.uuid4().hex}"
    monkeypatch.setenv("BOT_SEED_SECRET", marker)
    monkeypatch.setenv("SECRET_KEY", marker)
    outcome = play(prisoner("secrets", marker))
    assert outcome.termination == "normal", outcome.reason
    seen = {}
    for line in said(outcome, "looked"):
        for item in line.split()[1:]:
            path, state = item.split("=", 1)
            seen[path] = state
    root = Path(project_root())
    assert (root / "manage.py").is_file() and (root / "config").is_dir()  # there, not shown
    assert seen.pop("games").startswith("visible:")  # the pure library, which bots import
    assert len(seen) == 15 and ".env" in seen
    for path, state in seen.items():
        # a folder on the way to the Python installation (or /home to the bot's own
        # home) shows that way only
        names = state.removeprefix("visible:").split("|")
        assert state == "hidden" or all(_on_the_way(f"{path}/{name}") for name in names), (
            path, state)
    assert said(outcome, "environment-secrets") == ["environment-secrets 0"]


def test_the_fork_server_never_had_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    server = fork_server()
    environ = Path(f"/proc/{server.process.pid}/environ").read_bytes().split(b"\0")
    assert {item.split(b"=")[0] for item in environ if item} <= {b"PATH", b"LANG"}
    request = request_for(Program(builtin=("mcts", {"iterations": 5})), Sandbox(), "/tmp/x",
                          None)
    assert set(request) == {"run", "cwd", "home", "env", "limits", "isolation", "paths",
                            "writable"}
    assert "seed" not in json.dumps(request)


def test_a_fork_bomb_is_bounded_forfeits_quickly_and_leaves_nothing(method: str) -> None:
    if method == "userns" and os.geteuid() == 0:
        pytest.skip("RLIMIT_NPROC never binds user id 0, which a root worker's user "
                    "namespace maps (a root worker jails with the root method)")
    marker = f"bomb-{uuid.uuid4().hex}"
    started = time.perf_counter()
    outcome = play(prisoner("bomb", marker), limits=Limits(processes=32), move_seconds=1.0)
    took = time.perf_counter() - started
    assert (outcome.termination, outcome.fault, outcome.fault_seat) == (
        "time_forfeit", "timeout", 0), outcome.reason
    forked = int(said(outcome, "forked")[0].split()[1])
    assert 0 < forked < 32
    assert took < 10
    time.sleep(0.2)
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and _has(pid, marker)]


def test_games_in_threads_share_the_fork_server() -> None:
    """Referees in several threads of one worker (bot_match --concurrency, a threaded
    pool) start their bots through the same fork server, and nothing leaks across."""
    errors: list[BaseException] = []
    lock = threading.Lock()

    def one(number: int) -> str:
        try:
            return play(BotSpec("random"), BotSpec("greedy"), game="kazambi",
                        number=number).termination
        except BaseException as error:  # pragma: no cover - reported below
            with lock:
                errors.append(error)
            raise

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(one, range(8)))
    assert not errors and results == ["normal"] * 8


def test_without_isolation_a_game_still_plays() -> None:
    outcome = play(BotSpec("random"), isolation="none")
    assert outcome.termination == "normal", outcome.reason


def _on_the_way(path: str) -> bool:
    return any(default == path or default.startswith(path + "/")
               for default in [*default_paths(), "/home/bot"])


def _has(pid: str, marker: str) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return False


def test_built_in_bots_are_jailed_too(method: str) -> None:
    """A built-in bot is a fork of the fork server, not a new program: seen from outside,
    it has its own namespaces and root, no capability, and (root method) its own user."""
    bot = BotProcess(Program(builtin=("random", {})))
    try:
        bot.handshake(time.perf_counter() + 10)
        assert bot.child.poll() is None and bot.child.group is not None
        init = bot.child.group
        children = Path(f"/proc/{init}/task/{init}/children").read_text().split()
        assert len(children) == 1
        pid = children[0]
        for kind in ("mnt", "net", "pid", "ipc", "uts"):
            assert os.readlink(f"/proc/{pid}/ns/{kind}") != os.readlink(f"/proc/self/ns/{kind}")
        status = dict(line.split(":", 1) for line in
                      Path(f"/proc/{pid}/status").read_text().splitlines())
        assert int(status["CapEff"].strip(), 16) == 0
        assert int(status["NoNewPrivs"].strip()) == 1
        if method == "root":
            assert int(status["Uid"].split()[0]) >= 2_000_000_000
        if os.geteuid() == 0:  # the bot's root, as root sees it
            shown = set(os.listdir(f"/proc/{pid}/root"))
            assert {"usr", "proc", "tmp", "home", "etc", "dev"} <= shown
            assert not shown & {"var", "srv", "opt", "run", "boot", "mnt"}
            in_project = set(os.listdir(f"/proc/{pid}/root{project_root()}"))
            assert in_project <= {"games", ".venv"}, in_project  # .venv: this Python's
    finally:
        bot.close()
