"""Bots named on a command line (bot_check, bot_match): a ``cmd:`` bot runs in its own
folder, never in the caller's working folder (which may be the project, with its
secrets)."""

from __future__ import annotations

import doctest
import os
import sys
from pathlib import Path

import pytest

import games.series.targets
from games.bots.process.sandbox import isolation_method
from games.series.referee import RefereeOutcome
from games.series.targets import program_command, resolve_target, spec_from_text
from tests.unit.protocol.helpers import PROGRAMS, play

JAILED = isolation_method() != "none"


def said(outcome: RefereeOutcome, prefix: str) -> str:
    lines = [line.removeprefix(f"string {prefix} ") for moves in outcome.info
             for line in moves if line.startswith(f"string {prefix} ")]
    assert len(lines) == 1, outcome.info
    return lines[0]


def test_docstring_examples() -> None:
    assert doctest.testmod(games.series.targets).failed == 0


@pytest.fixture
def caller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The caller's working folder, holding a file a bot must not read."""
    (tmp_path / "caller-secret.txt").write_text("SECRET_KEY=not-for-bots\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_command_bot_runs_in_its_scripts_folder_not_the_callers(caller: Path) -> None:
    spec = spec_from_text(f"cmd:{sys.executable} {PROGRAMS / 'prisoner.py'} cwd "
                          f"project:{caller} -", None)
    assert spec.cwd == str(PROGRAMS)
    outcome = play(spec)
    assert outcome.termination == "normal", outcome.reason
    where, names = said(outcome, "cwd").split(" ", 1)
    assert where == str(PROGRAMS) and "prisoner.py" in names
    assert "caller-secret.txt" not in names
    if JAILED:  # without a jail a bot can read what its user can
        assert said(outcome, "caller") == "hidden"


def test_relative_paths_are_made_absolute_and_the_script_decides_the_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(PROGRAMS.parent)
    argv, cwd = program_command(["python3", "programs/prisoner.py", "--flag", "programs"])
    assert argv[1:] == [str(PROGRAMS / "prisoner.py"), "--flag", str(PROGRAMS)]
    assert os.path.isabs(argv[0]) and cwd == str(PROGRAMS)
    argv, cwd = program_command(["programs/prisoner.py", "--fast"])
    assert argv == [str(PROGRAMS / "prisoner.py"), "--fast"] and cwd == str(PROGRAMS)


def test_a_program_on_the_path_alone_runs_in_its_private_home(caller: Path) -> None:
    argv, cwd = program_command(["python3", "-c", "pass"])
    assert cwd is None and argv[1:] == ["-c", "pass"]
    target = resolve_target(["python3", "-c", "pass"], None)
    assert target.spec.cwd is None
