"""Exact solvers: Kugamai from any position (:mod:`.kugamai`), Kazambi once few tiles
remain (:mod:`.kazambi`), and the ``solver`` bot that plays them."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.bots.adapters import KazambiSearch, search_game
from games.bots.base import Bot, Budget
from games.bots.solvers.kazambi import ENDGAME_TILES, KazambiSolver, live_tile_count

__all__ = ["TABLE_LIMIT", "KazambiSolver", "KugamaiSolver", "SolverBot", "solved_move"]
from games.bots.solvers.kugamai import KugamaiSolver, SolverLimitError
from games.engines.kazambi.state import KazambiState
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT

#: New positions one Kazambi endgame search may visit before MCTS takes over.
KAZAMBI_NODE_LIMIT = 8_000
#: New positions one Kugamai search may visit (a whole game takes far fewer).
KUGAMAI_NODE_LIMIT = 2_000_000
#: Transposition table entries a solver bot keeps before it starts afresh.
TABLE_LIMIT = 2_000_000


def solved_move(
    game: str,
    state: Any,
    kugamai: KugamaiSolver | None = None,
    *,
    whole_kugamai: bool = True,
    kazambi: KazambiSolver | None = None,
    endgame_tiles: int = ENDGAME_TILES,
    kazambi_nodes: int | None = KAZAMBI_NODE_LIMIT,
    kazambi_seconds: float | None = None,
) -> str | None:
    """A move proved best, or ``None`` when no solver settles the position cheaply:
    Kugamai is solved outright; a Kazambi position with at most ``endgame_tiles`` live
    tiles gives its winning move if it is won (a lost one is left to MCTS, which may still
    trick a weaker opponent); its search stops after ``kazambi_nodes`` new positions or
    ``kazambi_seconds`` of CPU time, whichever comes first (``None``: no such limit).
    ``whole_kugamai=False`` leaves Kugamai unsolved. Solvers passed in keep their
    tables, so a position proved won stays proved."""
    if isinstance(state, KugamaiState) and whole_kugamai:
        solver = kugamai or KugamaiSolver()
        solver.nodes = 0
        solver.node_limit = KUGAMAI_NODE_LIMIT
        try:
            _, move = solver.best(state)
        except SolverLimitError:
            return None
        return None if move is None else MOVE_TEXT[move]
    if isinstance(state, KazambiState) and live_tile_count(state) <= endgame_tiles:
        adapter = search_game(game)
        assert isinstance(adapter, KazambiSearch)
        if kazambi is None or kazambi.misere != adapter.misere:
            kazambi = KazambiSolver(adapter.misere)
        kazambi.nodes = 0
        kazambi.node_limit = kazambi_nodes
        if kazambi_seconds is not None:
            kazambi.deadline = time.thread_time() + kazambi_seconds
        try:
            won, winning = kazambi.best(state)
        except SolverLimitError:
            return None
        finally:
            kazambi.deadline = None
        return str(winning) if won and winning is not None else None
    return None


class SolverBot(Bot):
    """Perfect Kugamai; Kazambi endgames solved exactly, MCTS before; MCTS for Stolbiki."""

    kind = "solver"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.kugamai = KugamaiSolver()
        self.kazambi: dict[bool, KazambiSolver] = {
            misere: KazambiSolver(misere) for misere in (False, True)
        }

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        from games.bots.mcts import search

        adapter = search_game(game)
        state = adapter.load(observation, self.rng)
        if len(self.kugamai.table) > TABLE_LIMIT:
            self.kugamai.table.clear()
        kazambi = None
        if isinstance(adapter, KazambiSearch):
            kazambi = self.kazambi[adapter.misere]
            if len(kazambi.table) > TABLE_LIMIT:
                kazambi.table.clear()
        solved = solved_move(game, state, self.kugamai, kazambi=kazambi)
        if solved is not None:
            return solved
        move, _ = search(adapter, state, budget, self.rng)
        return adapter.text(state, move)
