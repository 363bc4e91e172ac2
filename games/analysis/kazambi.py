"""Kazambi (every form): exact values once the endgame solver reaches the position,
seeded MCTS win rates before."""

from __future__ import annotations

from typing import Any

from games.analysis.budget import Budget, Clock
from games.analysis.report import MoveValue, PositionReport
from games.analysis.search import search_values
from games.bots.greedy import kazambi_scores
from games.bots.kazambi_policy import policy_search
from games.bots.solvers.kazambi import ENDGAME_TILES, KazambiSolver, live_tile_count
from games.bots.solvers.kugamai import SolverLimitError
from games.engines.kazambi.engine import KazambiEngine
from games.engines.kazambi.state import KazambiState

TABLE_LIMIT = 2_000_000
#: Root moves (all of them, in a fixed order) ranked by the greedy score for the search.
ROOT_SCORED = 300
#: The position's own solve may take this fraction (1/n) of the solver's node budget.
ROOT_SHARE = 5
#: The solver may use this share of a time-limited analysis (MCTS takes the rest).
SOLVER_SHARE = 0.5


def kazambi_exact(
    solver: KazambiSolver, engine: KazambiEngine, state: KazambiState, budget: Budget,
    clock: Clock | None = None,
) -> PositionReport | None:
    """Every move's value (a win or a loss for the mover) once at most the endgame
    solver's live tiles remain and it finishes within ``budget.solver_nodes`` and
    :data:`SOLVER_SHARE` of the time left."""
    if live_tile_count(state) > ENDGAME_TILES:
        return None
    if len(solver.table) > TABLE_LIMIT:
        solver.table.clear()
    solver.nodes = 0
    solver.deadline = (clock or budget.clock()).solver_deadline(SOLVER_SHARE)
    # The position itself first, on a fifth of the budget: its search stops at the first
    # winning move, so one that cannot finish there leaves its moves' values out of reach.
    solver.node_limit = max(1, budget.solver_nodes // ROOT_SHARE)
    moves: list[MoveValue] = []
    try:
        solver.wins(state.copy())
        solver.node_limit = budget.solver_nodes
        for move in engine.legal_moves(state):
            after = state.copy()
            engine.push(after, move)
            moves.append(MoveValue(str(move), value=-1 if solver.wins(after) else 1))
    except SolverLimitError:
        return None
    finally:
        nodes = solver.nodes
        solver.node_limit = solver.deadline = None
    best = max(found.value or -1 for found in moves)
    for found in moves:
        found.best = found.value == best
    moves.sort(key=lambda found: -(found.value or -1))
    return PositionReport(
        engine.name, state.to_move, state.to_move % 2, "exact", moves, value=best,
        solver_nodes=nodes,
    )


def kazambi_search(
    name: str, state: KazambiState, budget: Budget, root_moves: list[Any] | None = None,
    *, clock: Clock | None = None,
) -> PositionReport:
    """MCTS over the burn policy, the root's moves tried best first by the greedy score
    (a fixed order: the analysis is reproducible for its seed)."""
    adapter = policy_search(name)

    def order(root: Any, moves: list[Any]) -> list[Any]:
        head, tail = moves[:ROOT_SCORED], moves[ROOT_SCORED:]
        score = kazambi_scores(adapter, root)
        return sorted(head, key=lambda move: -score(move)) + tail

    return search_values(adapter, state, budget, root_order=order, root_moves=root_moves,
                         clock=clock)
