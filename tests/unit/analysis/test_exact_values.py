"""Exact values against the test's own exhaustive search: Kugamai positions late in a
game, and Kazambi endgames (every form) on small boards."""

from __future__ import annotations

import pytest

from games.analysis import Budget, analyse_position
from games.bots.solvers.kazambi import ENDGAME_TILES, live_tile_count
from games.engines import get_engine
from tests.unit.analysis.exhaustive import Exhaustive, random_position


def _tiles_in_hands(game: str, most: int):  # type: ignore[no-untyped-def]
    engine = get_engine(game)
    return lambda state: sum(len(hand) for hand in engine.to_dict(state)["hands"]) <= most


@pytest.mark.parametrize("seed", range(8))
def test_kugamai_values_are_perfect_play(seed: int) -> None:
    state, _ = random_position("kugamai", seed, _tiles_in_hands("kugamai", 12))
    referee = Exhaustive("kugamai")
    expected = referee.move_values(state)
    report = analyse_position("kugamai", state)
    assert report.method == "exact"
    assert {move.move: move.value for move in report.moves} == expected
    best = max(expected.values())
    assert report.value == best == referee.value(state)
    assert set(report.best_moves()) == {move for move, value in expected.items() if value == best}


def test_kugamai_values_include_draws_and_losses() -> None:
    """Across the positions tried, all three outcomes come up (the test means something)."""
    seen = set()
    for seed in range(30):
        state, _ = random_position("kugamai", seed, _tiles_in_hands("kugamai", 14))
        seen |= {move.value for move in analyse_position("kugamai", state).moves}
    assert seen == {1, 0, -1}


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi", "kazambi-pairs",
                                  "anti-kazambi-pairs"])
def test_kazambi_endgame_values_are_perfect_play(game: str) -> None:
    seen = set()
    for seed in range(6):
        state, _ = random_position(game, seed, lambda s: live_tile_count(s) <= 10,
                                   rows=4, cols=5)
        assert live_tile_count(state) <= ENDGAME_TILES
        expected = Exhaustive(game).move_values(state)
        report = analyse_position(game, state)
        assert report.method == "exact"
        assert {move.move: move.value for move in report.moves} == expected
        assert report.value == max(expected.values())
        assert set(report.best_moves()) == {m for m, v in expected.items() if v == report.value}
        seen |= set(expected.values())
    if "pairs" not in game:
        assert seen == {1, -1}  # won and lost moves both came up


def test_kazambi_before_the_endgame_is_searched_reproducibly() -> None:
    engine = get_engine("kazambi")
    state = engine.new_game(seed=4)
    budget = Budget(iterations=300, seed=9)
    first = analyse_position("kazambi", state, budget)
    again = analyse_position("kazambi", state, budget)
    assert first.method == "mcts" and not first.exact
    assert first.as_dict()["moves"] == again.as_dict()["moves"]
    assert first.iterations == sum(move.visits or 0 for move in first.moves)
    assert 0 < first.iterations <= 300
    assert first.moves[0].best and all(0 <= (m.win_rate or 0) <= 1 for m in first.moves)
    legal = {str(move) for move in engine.legal_moves(state)}
    assert {move.move for move in first.moves} <= legal
    assert first.unexplored == len(legal) - len(first.moves)
