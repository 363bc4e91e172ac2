"""Kugamai: every move's perfect-play value from the exact solver."""

from __future__ import annotations

from games.analysis.budget import Budget, Clock
from games.analysis.report import MoveValue, PositionReport
from games.bots.solvers.kugamai import KugamaiSolver, SolverLimitError
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT

#: Transposition-table entries kept between positions before the table starts afresh.
TABLE_LIMIT = 2_000_000
#: The solver may use this share of a time-limited analysis (search values take the rest).
SOLVER_SHARE = 0.5


def kugamai_exact(
    solver: KugamaiSolver, state: KugamaiState, budget: Budget, clock: Clock | None = None
) -> PositionReport | None:
    """The solved position, or ``None`` when the solver needs more than
    ``budget.kugamai_nodes`` new positions or :data:`SOLVER_SHARE` of the time left."""
    if len(solver.table) > TABLE_LIMIT:
        solver.table.clear()
    solver.nodes = 0
    solver.node_limit = budget.kugamai_nodes
    solver.deadline = (clock or budget.clock()).solver_deadline(SOLVER_SHARE)
    try:
        values = solver.move_values(state)
    except SolverLimitError:
        return None
    finally:
        nodes = solver.nodes
        solver.node_limit = solver.deadline = None
    best = max(values.values())
    moves = [
        MoveValue(MOVE_TEXT[code], value=value, best=value == best)
        for code, value in sorted(values.items(), key=lambda item: (-item[1], item[0]))
    ]
    return PositionReport(
        "kugamai", state.to_move, state.to_move % 2, "exact", moves, value=best,
        solver_nodes=nodes,
    )
