"""The pure cores import no Django, DRF or Celery (checked in a fresh interpreter)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

PURE_PACKAGES = [
    "games.engines",
    "games.engines.kazambi",
    "games.engines.kugamai",
    "games.engines.stolbiki",
    "games.bots",
    "games.clocks",
    "tournaments.pairing",
    "tournaments.pairing.swiss",
    "tournaments.pairing.round_robin",
    "tournaments.pairing.knockout",
    "tournaments.standings",
    "tournaments.trf",
    "players.ratings",
]


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_no_framework(package: str) -> None:
    if importlib.util.find_spec(package.split(".")[0]) is None:
        pytest.skip("not present")
    try:
        if importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} not written yet")
    except ModuleNotFoundError:
        pytest.skip(f"{package} not written yet")
    code = (
        f"import sys, importlib; importlib.import_module({package!r}); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery'}); print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{package} pulls in {out.stdout.strip()}"
