"""The clock maths is pure: importing it loads no Django, DRF or Celery."""

from __future__ import annotations

import subprocess
import sys


def test_clocks_import_no_framework():
    code = (
        "import sys, games.clocks.advice, games.clocks.running, games.clocks.estimates;"
        "loaded = {m.split('.')[0] for m in sys.modules};"
        "print(sorted(loaded & {'django', 'rest_framework', 'celery'}))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"
