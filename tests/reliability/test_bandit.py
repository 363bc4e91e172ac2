"""bandit finds nothing of medium severity or above in the service's code."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["config", "players", "games", "tournaments", "matches", "ratings", "botruns", "pages"]


@pytest.mark.slow
def test_bandit_finds_nothing_of_medium_severity_or_above() -> None:
    bandit = Path(sys.executable).parent / "bandit"
    if not bandit.exists() and shutil.which("bandit") is None:
        pytest.fail("bandit is not installed: pip install -e '.[dev]'")
    command = [str(bandit if bandit.exists() else "bandit"), "-q", "-r", *PACKAGES, "-ll",
               "-f", "custom", "--msg-template", "{relpath}:{line} {test_id} {msg}"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"bandit findings:\n{result.stdout}\n{result.stderr}"
