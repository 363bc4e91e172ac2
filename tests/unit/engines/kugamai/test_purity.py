"""The engine is a pure core: importing and using it loads no framework."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]

CODE = """
import sys, random
from games.engines import get_engine
from games.engines.kugamai.playout import random_playout
engine = get_engine("kugamai")
engine.legal_moves(engine.new_game(seed=1))
random_playout(random.Random(1))
bad = sorted(m for m in sys.modules if m.split(".")[0] in {"django", "rest_framework", "celery"})
print(",".join(bad))
"""


def test_no_framework_is_imported():
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == ""
