"""The game facts behind the registry: every engine has them, they agree with the rules,
and code outside the engines asks them instead of branching on a game's name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.engines import ENGINE_NAMES, GAME_FAMILY, UnknownGameError, game_facts, get_engine
from games.series import deal_for_game, game_roles

ROOT = Path(__file__).resolve().parents[2]
#: Where a branch on a game's name is expected: the engines themselves, the bots' search
#: adapters (one per game) and the board drawings (one per game).
EXEMPT = ("games/engines/", "examples/", "games/bots/adapters.py", "games/bots/solvers/",
          "games/bots/kazambi_", "pages/svg/", "bench/", "tests/", ".venv/")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_has_its_facts(name: str) -> None:
    facts = game_facts(name)
    assert facts.name == name and facts.label and GAME_FAMILY[name] == facts.family
    limit, why = facts.move_limit({})
    assert limit > 0 and why
    assert facts.players_per_side(get_engine(name).options()) >= 1


def test_only_kazambi_has_no_draw() -> None:
    no_draw = {name for name in ENGINE_NAMES if not game_facts(name).draws_possible}
    assert no_draw == {"kazambi", "kazambi-pairs", "anti-kazambi", "anti-kazambi-pairs"}


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        game_facts("chess")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_deals_give_the_role_to_the_side_of_each_game(name: str) -> None:
    facts = game_facts(name)
    for index in range(4):
        roles = game_roles(name, index)
        deal = deal_for_game(name, {}, 7, roles)
        assert deal[facts.role_seat_key] % 2 == roles.first_side
        assert roles.role_name == facts.first_role


def _branches_on_a_game_name(tree: ast.AST) -> list[int]:
    names = set(ENGINE_NAMES)
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in (node.left, *node.comparators):
            if isinstance(side, ast.Constant) and side.value in names:
                lines.append(node.lineno)
            if isinstance(side, ast.Tuple | ast.List | ast.Set) and any(
                    isinstance(e, ast.Constant) and e.value in names for e in side.elts):
                lines.append(node.lineno)
    return lines


def test_no_branch_on_a_game_name_outside_the_engines() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(EXEMPT) or "/migrations/" in relative:
            continue
        for line in _branches_on_a_game_name(ast.parse(path.read_text(), relative)):
            found.append(f"{relative}:{line}")
    assert found == [], "ask games.engines.game_facts instead: " + ", ".join(found)
