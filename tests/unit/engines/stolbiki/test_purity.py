"""The engine is a pure core: importing it loads no web or task framework."""

from __future__ import annotations

import subprocess
import sys


def test_engine_imports_no_framework() -> None:
    code = (
        "import sys; import games.engines.stolbiki, games.engines.stolbiki.playout; "
        "from games.engines import get_engine; get_engine('stolbiki'); "
        "print(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('django', 'rest_framework', 'celery')))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"


def test_docstring_examples() -> None:
    import doctest

    from games.engines.stolbiki import cards, engine, notation

    for module in (cards, engine, notation):
        assert doctest.testmod(module).failed == 0
