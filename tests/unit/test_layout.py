"""The floors of the project (STYLE.md): arrows point down only, not even lazily inside a
function; each app's ``__init__.py`` is empty; and no module outside ``matches`` creates,
updates or deletes Game rows (an AST walk over the source, tests and benchmarks aside)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Lower floors first; an app may import its own floor and those below.
FLOORS = ["games", "players", "tournaments", "matches", "analysis", "ratings", "botruns",
          "playerlinks", "signup", "reporting", "phoneclock", "printpack", "notices", "leagues",
          "pages"]
FLOOR = {app: level for level, app in enumerate(FLOORS)}


def _modules(app: str) -> list[Path]:
    return [p for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]


def _imported_apps(tree: ast.AST) -> set[tuple[str, int]]:
    found = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top in FLOOR:
                found.add((top, getattr(node, "lineno", 0)))
    return found


@pytest.mark.parametrize("app", FLOORS)
def test_arrows_point_down(app: str) -> None:
    upward = [
        f"{path.relative_to(ROOT)}:{line} imports {other}"
        for path in _modules(app)
        for other, line in _imported_apps(ast.parse(path.read_text()))
        if FLOOR[other] > FLOOR[app]
    ]
    assert upward == []


@pytest.mark.parametrize("app", FLOORS)
def test_app_init_is_empty(app: str) -> None:
    assert (ROOT / app / "__init__.py").read_text().strip() == ""


#: Calls that write Game rows: the model's constructor, its manager's writes, a board's
#: related manager, and saving or deleting something named game.
_GAME_WRITES = re.compile(
    r"^(Game|Game\.objects\.(create|bulk_create|bulk_update|get_or_create|update_or_create)"
    r"|Game\.objects\..*\.(update|delete)"
    r"|.*\.games\.(create|bulk_create|update|delete|add|set|clear)"
    r"|.*\.games\..*\.(update|delete)"
    r"|(.*\.)?games?\.(save|delete))$"
)


def _game_writes(tree: ast.AST) -> list[int]:
    return [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _GAME_WRITES.match(ast.unparse(node.func))
    ]


def test_only_matches_writes_game_rows() -> None:
    writers = {
        str(path.relative_to(ROOT))
        for app in FLOORS + ["config"]
        for path in _modules(app)
        if _game_writes(ast.parse(path.read_text()))
    }
    assert writers and all(name.startswith("matches/services/") for name in writers), writers


def test_the_write_patterns_catch_writes() -> None:
    code = ("Game(pairing=p)\nGame.objects.create(x=1)\nGame.objects.filter(a=1).delete()\n"
            "pairing.games.all().delete()\ngame.save()\nself.game.delete()\n")
    assert _game_writes(ast.parse(code)) == [1, 2, 3, 4, 5, 6]
    assert _game_writes(ast.parse("Game.objects.filter(a=1).count()\ngame.full_clean()\n")) == []


def _selector_modules() -> list[Path]:
    return [path for app in FLOORS for path in _modules(app)
            if path.stem == "selectors" or "selectors" in path.parent.parts]


def _imported_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        return [f"{node.module}.{alias.name}" for alias in node.names]
    return []


@pytest.mark.parametrize("path", _selector_modules(), ids=lambda path: str(path.parent.name))
def test_selectors_import_no_write_module(path: Path) -> None:
    """Reads do not reach into writes: a selector imports no services module."""
    writes = [
        f"{path.relative_to(ROOT)}:{getattr(node, "lineno", 0)} imports {name}"
        for node in ast.walk(ast.parse(path.read_text()))
        for name in _imported_names(node)
        if "services" in name.split(".")
    ]
    assert writes == []


def test_no_private_name_is_imported_from_another_module() -> None:
    """A leading underscore means "this module only"; a helper others need gets a name."""
    private = [
        f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}.{alias.name}"
        for app in FLOORS + ["config"]
        for path in _modules(app)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level == 0
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert private == []
