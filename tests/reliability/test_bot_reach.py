"""A bot sees its own folder and the documented runtime, nothing else of the host.

Before: naming a folder in a manifest's ``paths``, or an absolute path in its ``command``,
made it readable inside the jail (a test bot read ``config/settings.py`` and another bot's
files and published them as info lines); ``/proc/1/cmdline`` showed the fork server's
command line with the project's folder and ``PATH`` the worker's (home folders, version
managers). Here real bots run jailed and report through info lines what they could read.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.bots.process import exposure, forkserver
from games.bots.process.forkserver import ForkServer, ForkServerError, fork_server
from games.bots.process.installed import InstalledBotError, list_installed_bots, read_manifest
from games.bots.process.sandbox import (
    Program,
    Sandbox,
    SandboxError,
    default_paths,
    request_for,
)
from games.series.referee import BotSpec
from tests.unit.protocol.helpers import play

ROOT = Path(__file__).resolve().parents[2]
CHATTY = ROOT / "tests" / "data" / "bots" / "chatty"
HOME = Path.home()

#: The bot: answers a random legal move, and on its first move says, one info line per
#: probe, what it could read: files of the project and of another bot, the home folder,
#: the process 1's command line and its own PATH.
SNOOP = '''
import os, random, sys
sys.path.insert(0, {root!r})
from games.bots.protocol.client import ClientBot, serve
from games.engines import get_engine

TARGETS = {targets!r}


def probe(path):
    try:
        if os.path.isdir(path):
            return "ok " + ",".join(sorted(os.listdir(path)))[:60]
        with open(path, "rb") as stream:
            return "ok " + stream.read(60).decode(errors="replace").replace("\\n", " ")
    except OSError as error:
        return "refused " + type(error).__name__


class Snoop(ClientBot):
    name = "Snoop"

    def new_game(self, game):
        self.rng = random.Random(game.seed)
        self.first = True

    def choose(self, observation, go):
        if self.first:
            self.first = False
            for path in TARGETS:
                self.info(f"string read {{path}} {{probe(path)}}")
            try:
                with open("/proc/1/cmdline", "rb") as stream:
                    cmdline = stream.read().replace(b"\\0", b" ").decode(errors="replace")
            except OSError as error:
                cmdline = type(error).__name__
            self.info(f"string cmdline {{cmdline.strip()}}")
            self.info(f"string PATH {{os.environ.get('PATH', '')}}")
        engine = get_engine(self.game.game)
        return str(self.rng.choice(engine.legal_moves(engine.from_dict(observation))))


sys.exit(serve(Snoop()))
'''


def targets(settings: Any) -> list[str]:
    return [str(ROOT / "config" / "settings.py"), str(ROOT / "manage.py"), str(ROOT),
            str(CHATTY / "bot.toml"), str(Path(settings.VAR_DIR)), str(HOME),
            "/proc/1/environ", "/proc/1/maps"]


def runtime_only(target: str, said: str) -> bool:
    """Whether the probe of ``target`` was refused, or listed only the folders leading to
    the documented runtime (the ``games`` package, the worker's Python)."""
    if not said.startswith("ok "):
        return True
    leading = {Path(path).relative_to(target).parts[0] for path in default_paths()
               if exposure.inside(path, target) and path != target}
    return os.path.isdir(target) and set(said[3:].split(",")) <= leading


def install_snoop(bots_dir: Path, settings: Any, **manifest: Any) -> Path:
    folder = bots_dir / "snoop"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(SNOOP.format(root=str(ROOT), targets=targets(settings)))
    lines = ['name = "snoop"', 'games = ["kugamai"]']
    manifest.setdefault("command", ["{python}", "bot.py"])
    for key, value in manifest.items():
        words = ", ".join(f'"{word}"' for word in value)
        lines.append(f"{key} = [{words}]")
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture
def bots_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "chatty").symlink_to(CHATTY)
    yield folder


def snoop_lines(bots_dir: Path) -> tuple[Any, dict[str, str]]:
    outcome = play(BotSpec.installed("snoop"), bots_dir=bots_dir, isolation="required")
    said: dict[str, str] = {}
    for lines in outcome.info:
        for line in lines:
            words = line.split(" ", 3)
            if words[1] == "read":
                said[words[2]] = words[3]
            else:
                said[words[1]] = line.split(" ", 2)[2] if len(words) > 2 else ""
    return outcome, said


@pytest.fixture(params=["root", "userns"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each jail method this machine has, in a fork server of the test's own."""
    server = ForkServer.start(method=request.param)
    try:
        if server.isolation != request.param:
            pytest.skip(f"no {request.param} jail here: {server.why}")
        monkeypatch.setattr(forkserver, "_server", server)
        yield request.param
    finally:
        server.close()


def test_a_plain_bot_reads_nothing_outside_its_folder(bots_dir: Path, settings: Any,
                                                      method: str) -> None:
    install_snoop(bots_dir, settings)
    outcome, said = snoop_lines(bots_dir)
    assert outcome.termination == "normal", outcome.reason
    for target in targets(settings):
        assert runtime_only(target, said[target]), (target, said[target])
    assert str(ROOT) not in said["cmdline"] and "python" not in said["cmdline"], said
    assert said["PATH"] == exposure.BOT_PATH
    assert str(HOME) not in said["PATH"]


HOSTILE = [
    ("paths", lambda s: {"paths": [str(ROOT)]}, lambda s: str(ROOT)),
    ("paths", lambda s: {"paths": [str(ROOT / "config")]}, lambda s: str(ROOT / "config")),
    ("paths", lambda s: {"paths": [str(CHATTY)]}, lambda s: str(CHATTY)),
    ("paths", lambda s: {"paths": [str(s.VAR_DIR)]}, lambda s: str(s.VAR_DIR)),
    ("paths", lambda s: {"paths": [str(HOME)]}, lambda s: str(HOME)),
    ("paths", lambda s: {"paths": ["/etc"]}, lambda s: "/etc"),
    ("paths", lambda s: {"paths": ["/proc/1"]}, lambda s: "/proc/1"),
    ("paths", lambda s: {"paths": ["/usr/../work"]}, lambda s: "/usr/../work"),
    ("paths", lambda s: {"paths": ["/"]}, lambda s: "/"),
    ("command", lambda s: {"command": ["{python}", "bot.py", str(ROOT / "config" / "settings.py")]},
     lambda s: str(ROOT / "config" / "settings.py")),
    ("command", lambda s: {"command": ["{python}", "bot.py", str(CHATTY / "bot.toml")]},
     lambda s: str(CHATTY / "bot.toml")),
    ("command", lambda s: {"command": ["{python}", "{dir}/../chatty/bot.py"]},
     lambda s: "{dir}/../chatty/bot.py"),
]


@pytest.mark.parametrize(("key", "manifest", "named"), HOSTILE)
def test_a_manifest_naming_a_forbidden_path_is_refused(
    bots_dir: Path, settings: Any, key: str, manifest: Any, named: Any,
) -> None:
    """Refused when read (with the key and the path in the error), so the bot never
    starts: its game is lost at the start, and it has read nothing."""
    folder = install_snoop(bots_dir, settings, **manifest(settings))
    outcome, said = snoop_lines(bots_dir)
    assert all(runtime_only(target, value) for target, value in said.items()
               if target in targets(settings)), said
    assert outcome.termination == "forfeit" and outcome.fault == "start", outcome.reason
    assert named(settings) in outcome.reason
    with pytest.raises(InstalledBotError) as error:
        read_manifest(folder, bots_dir=bots_dir)
    assert f"{key}" in str(error.value) and named(settings) in str(error.value)
    assert "snoop" in dict(list_installed_bots(bots_dir).problems)


def test_a_runtime_path_is_shown_and_stays_checked_at_launch(
    bots_dir: Path, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder under a runtime root (here one of the test's) is shown; swapped for a link
    to the project afterwards, the launch refuses it (the manifest was fine when read)."""
    runtime = tmp_path / "opt"
    (runtime / "jdk").mkdir(parents=True)
    (runtime / "jdk" / "release").write_text("JAVA_VERSION=21\n")
    monkeypatch.setattr(exposure, "RUNTIME_ROOTS", (*exposure.RUNTIME_ROOTS, str(runtime)))
    install_snoop(bots_dir, settings, paths=[str(runtime / "jdk")])
    program = Program(argv=("/bin/true",), paths=(str(runtime / "jdk"),),
                      confined_to=str(bots_dir / "snoop"))
    request = request_for(program, Sandbox(isolation="required"), str(tmp_path))
    shutil.rmtree(runtime / "jdk")
    (runtime / "jdk").symlink_to(ROOT)
    with pytest.raises(SandboxError) as error:
        request_for(program, Sandbox(isolation="required"), str(tmp_path))
    assert str(runtime / "jdk") in str(error.value)
    # A request checked before the swap: the jail refuses what changed since.
    read_end, write_end = os.pipe()
    null = os.open(os.devnull, os.O_RDWR)
    try:
        child = fork_server().spawn(request, null, null, write_end)
        assert child.wait(timeout=30) != 0
        child.release()
    except ForkServerError:
        pass
    finally:
        os.close(write_end)
        os.close(null)
    said = os.read(read_end, 65536).decode()
    os.close(read_end)
    assert "changed" in said and str(runtime / "jdk") in said, said


def test_the_manifest_rules_hold_without_a_jail(bots_dir: Path, settings: Any) -> None:
    install_snoop(bots_dir, settings, paths=[str(ROOT)])
    outcome = play(BotSpec.installed("snoop"), bots_dir=bots_dir, isolation="none")
    assert outcome.termination == "forfeit" and outcome.fault == "start", outcome.reason
    assert f"paths: {str(ROOT)!r}" in outcome.reason and not outcome.info


def test_a_runtime_path_is_readable(bots_dir: Path, settings: Any, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = tmp_path / "opt"
    (runtime / "jdk").mkdir(parents=True)
    (runtime / "jdk" / "release").write_text("JAVA_VERSION=21\n")
    monkeypatch.setattr(exposure, "RUNTIME_ROOTS", (*exposure.RUNTIME_ROOTS, str(runtime)))
    monkeypatch.setattr("tests.reliability.test_bot_reach.targets",
                        lambda s: [str(runtime / "jdk" / "release"), str(ROOT / "manage.py")])
    install_snoop(bots_dir, settings, paths=[str(runtime / "jdk")])
    outcome, said = snoop_lines(bots_dir)
    assert outcome.termination == "normal", outcome.reason
    assert said[str(runtime / "jdk" / "release")] == "ok JAVA_VERSION=21"
    assert said[str(ROOT / "manage.py")].startswith("refused")


def test_a_service_user_without_a_home_still_has_runtimes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/")
    assert exposure.runtime_problem("/usr/lib") is None
    assert exposure.runtime_problem(str(ROOT / "games")) is not None
