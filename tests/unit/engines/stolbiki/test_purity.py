"""The docstring examples of the Stolbiki engine hold (purity: tests/unit/test_pure_cores.py)."""

from __future__ import annotations


def test_docstring_examples() -> None:
    import doctest

    from games.engines.stolbiki import cards, engine, notation

    for module in (cards, engine, notation):
        assert doctest.testmod(module).failed == 0
