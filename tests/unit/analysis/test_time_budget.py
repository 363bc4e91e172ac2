"""A position's analysis within ``Budget.cpu_seconds`` of its thread's CPU time: the
solvers' tries and the search they fall back to share one clock, so the whole analysis
stops in time whatever the position (the web service's anonymous budget rests on it)."""

from __future__ import annotations

import time

import pytest

from games.analysis import AnalysisError, Budget, PositionReport, analyse_position
from games.analysis.budget import Clock
from games.bots.solvers.kazambi import ENDGAME_TILES, live_tile_count
from games.bots.solvers.kugamai import KugamaiSolver, SolverLimitError
from games.engines import get_engine
from tests.unit.analysis.exhaustive import random_position

#: What the analysis does beyond its clock: reading the position, building the report.
SLACK = 0.1


def timed(game: str, state: object, budget: Budget) -> tuple[float, PositionReport]:
    started = time.thread_time()
    report = analyse_position(game, state, budget)
    return time.thread_time() - started, report


def test_a_kazambi_endgame_the_solver_cannot_finish_stops_in_time() -> None:
    """On a 12x12 board this position at the endgame solver's tile count costs it some
    0.3 s of CPU (40,000 nodes) before it gives up: the clock stops the solver at its
    share, and MCTS has the rest."""
    state, _ = random_position("kazambi", 1, lambda s: live_tile_count(s) <= ENDGAME_TILES,
                               rows=12, cols=12)
    spent, report = timed("kazambi", state, Budget(iterations=5000, solver_nodes=40_000,
                                                   cpu_seconds=0.1))
    assert spent < 0.1 + SLACK, spent
    assert report.method == "mcts" and "stopped by the time budget" in report.notes


def test_a_kazambi_opening_search_stops_in_time_and_says_so() -> None:
    engine = get_engine("kazambi")
    spent, report = timed("kazambi", engine.new_game(seed=1, rows=12, cols=12),
                          Budget(iterations=5000, cpu_seconds=0.15))
    assert spent < 0.15 + SLACK, spent
    assert 0 < report.iterations < 5000
    assert report.as_dict()["notes"] == ["stopped by the time budget"]


def test_stolbiki_sampling_stops_in_time() -> None:
    engine = get_engine("stolbiki")
    spent, report = timed("stolbiki", engine.new_game(seed=2),
                          Budget(iterations=20_000, cpu_seconds=0.05))
    assert spent < 0.05 + SLACK, spent
    assert "stopped by the time budget" in report.notes


def test_the_kugamai_solver_stops_at_its_deadline() -> None:
    engine = get_engine("kugamai")
    solver = KugamaiSolver()
    solver.deadline = time.thread_time() - 1
    with pytest.raises(SolverLimitError):
        solver.move_values(engine.new_game(seed=3))
    report = analyse_position("kugamai", engine.new_game(seed=3),
                              Budget(iterations=50, cpu_seconds=0.0001))
    assert report.method == "mcts"
    assert "beyond the solver's node or time budget: search values" in report.notes


def test_without_time_limits_the_search_runs_its_iterations() -> None:
    engine = get_engine("kazambi")
    report = analyse_position("kazambi", engine.new_game(seed=1), Budget(iterations=50))
    assert report.iterations == 50 and report.notes == []
    assert Clock().solver_deadline() is None and not Clock().expired()


def test_the_clock_gives_a_solver_its_share_of_the_time_left() -> None:
    clock = Clock(cpu_seconds=10.0)
    deadline = clock.solver_deadline(0.5)
    assert deadline is not None
    assert 4.9 < deadline - time.thread_time() <= 5.0
    wall, cpu = Clock(seconds=1e-9, cpu_seconds=1e-9).left()
    assert wall == cpu == 0.001  # a late search still runs its one iteration


@pytest.mark.parametrize("value", [0, -1, 61, True, "1"])
def test_cpu_seconds_must_be_a_positive_number_of_seconds(value: object) -> None:
    with pytest.raises(AnalysisError, match="cpu_seconds"):
        Budget(cpu_seconds=value)  # type: ignore[arg-type]
