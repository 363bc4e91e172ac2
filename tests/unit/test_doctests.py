"""The ``>>>`` examples in the docstrings of the pure cores run, module by module."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

from tests.unit.test_pure_cores import PURE_PACKAGES


def _modules() -> list[str]:
    names = []
    for package in PURE_PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.walk_packages(getattr(root, "__path__", []), package + "."):
            names.append(info.name)
    return sorted(set(names))


def _with_examples(names: list[str]) -> list[str]:
    finder = doctest.DocTestFinder()
    return [name for name in names
            if any(test.examples for test in finder.find(importlib.import_module(name)))]


@pytest.mark.parametrize("module", _with_examples(_modules()))
def test_the_examples_of(module: str) -> None:
    failed, attempted = doctest.testmod(importlib.import_module(module),
                                        optionflags=doctest.ELLIPSIS, report=True)
    assert attempted and not failed, f"{failed} of {attempted} examples failed"


def test_the_cores_have_examples() -> None:
    assert len(_with_examples(_modules())) >= 20
