"""How much work one position's analysis may do: bounded and, with a seed, reproducible."""

from __future__ import annotations

from dataclasses import dataclass

from games.analysis.report import AnalysisError

MAX_ITERATIONS = 20_000
MAX_SOLVER_NODES = 2_000_000
MAX_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Budget:
    """``iterations``: MCTS iterations (Kazambi before its endgame) or playouts shared
    among the moves (Stolbiki); ``solver_nodes``: new positions the Kazambi endgame
    solver may visit for one position before the analysis falls back to search, and
    ``kugamai_nodes`` the same for the Kugamai solver (whose nodes cost a twentieth: a
    whole game from the deal takes some 40,000); ``seed`` makes the search reproducible;
    ``seconds`` (optional) stops a search early all the same."""

    iterations: int = 1000
    seed: int = 0
    solver_nodes: int = 100_000
    seconds: float | None = None
    kugamai_nodes: int = 500_000

    def __post_init__(self) -> None:
        _whole("iterations", self.iterations, 1, MAX_ITERATIONS)
        _whole("solver_nodes", self.solver_nodes, 1, MAX_SOLVER_NODES)
        _whole("kugamai_nodes", self.kugamai_nodes, 1, MAX_SOLVER_NODES)
        _whole("seed", self.seed, 0, 2**63 - 1)
        if self.seconds is not None and (
            isinstance(self.seconds, bool)
            or not isinstance(self.seconds, int | float)
            or not 0 < self.seconds <= MAX_SECONDS
        ):
            raise AnalysisError(f"seconds must be a number in (0, {MAX_SECONDS:g}]", "seconds")


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AnalysisError(f"{name} must be a whole number from {low} to {high}", name)
