"""One position's analysis for the side to move, whatever the game."""

from __future__ import annotations

import time
from typing import Any

from games.analysis.budget import Budget, Clock
from games.analysis.kazambi import kazambi_exact, kazambi_search
from games.analysis.kugamai import kugamai_exact
from games.analysis.report import AnalysisError, Information, PositionReport
from games.analysis.search import search_values
from games.analysis.stolbiki import stolbiki_sampling
from games.bots.adapters import search_game
from games.bots.solvers.kazambi import KazambiSolver
from games.bots.solvers.kugamai import KugamaiSolver
from games.engines import ENGINE_NAMES, get_engine
from games.engines.kazambi.engine import KazambiEngine
from games.engines.kazambi.state import KazambiState
from games.engines.kugamai.state import KugamaiState
from games.engines.stolbiki.state import StolbikiState


class Analyst:
    """Analyses positions, keeping the solvers' tables from one position to the next
    (the positions of one game share most of their subtrees)."""

    def __init__(self) -> None:
        self.kugamai = KugamaiSolver()
        self.kazambi = {misere: KazambiSolver(misere) for misere in (False, True)}

    def analyse(
        self,
        game: str,
        state: Any,
        budget: Budget,
        *,
        information: Information = "observed",
    ) -> PositionReport:
        """Values for the side to move of ``state`` (a state of engine ``game``).
        ``information`` matters to Stolbiki only: ``"all hands"`` lets the analysis see
        every hand, which only a finished game's analysis may do."""
        if game not in ENGINE_NAMES:
            raise AnalysisError(f"unknown game {game!r} (games: {', '.join(ENGINE_NAMES)})",
                                "game")
        engine = get_engine(game)
        started = time.perf_counter()
        if engine.is_over(state):
            report = PositionReport(game, None, None, "over", [])
            report.notes.append("the game is over")
        else:
            report = self._analyse(game, engine, state, budget, information, budget.clock())
        report.seconds = time.perf_counter() - started
        return report

    def _analyse(
        self, game: str, engine: Any, state: Any, budget: Budget, information: Information,
        clock: Clock,
    ) -> PositionReport:
        if isinstance(state, KugamaiState):
            exact = kugamai_exact(self.kugamai, state, budget, clock)
            if exact is not None:
                return exact
            report = search_values(search_game(game), state, budget, clock=clock)
            report.notes.append("beyond the solver's node or time budget: search values")
            return report
        if isinstance(state, KazambiState):
            assert isinstance(engine, KazambiEngine)
            solver = self.kazambi[engine.misere]
            exact = kazambi_exact(solver, engine, state, budget, clock)
            return exact if exact is not None else kazambi_search(game, state, budget, clock=clock)
        if isinstance(state, StolbikiState):
            if information == "complete":
                information = "observed"
            return stolbiki_sampling(state, budget, information, clock)
        raise AnalysisError(f"no analysis knows the game {game!r}", "game")


def analyse_position(
    game: str, state: Any, budget: Budget | None = None, *, information: Information = "observed"
) -> PositionReport:
    """:meth:`Analyst.analyse` with fresh solvers."""
    return Analyst().analyse(game, state, budget or Budget(), information=information)
