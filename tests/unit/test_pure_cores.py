"""The pure cores import no Django, DRF or Celery: every module of each package is imported
in a fresh interpreter, which must not load any of them."""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE_PACKAGES = [
    "games.engines",
    "games.bots",
    "games.series",
    "games.clocks",
    "games.analysis",
    "tournaments.pairing",
    "tournaments.standings",
    "tournaments.systems",
    "tournaments.trf",
    "tournaments.csv_cells",
    "tournaments.entry_lists",
    "tournaments.prizes",
    "ratings.maths",
    "pages.svg",
    "pages.viewer",
    "tournaments.etags",
    "matches.progress",
    "playerlinks.tokens",
    "notices.ics",
    "notices.origins",
    "printpack.layout",
    "reporting.board",
]

_IMPORT_ALL = """
import importlib, pkgutil, sys
root = importlib.import_module({package!r})
for info in pkgutil.walk_packages(getattr(root, "__path__", []), root.__name__ + "."):
    importlib.import_module(info.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {{"django", "rest_framework", "celery"}})
print(",".join(bad))
"""


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_no_framework(package: str) -> None:
    code = _IMPORT_ALL.format(package=package)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{package} pulls in {out.stdout.strip()}"
