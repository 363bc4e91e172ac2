"""How much work one position's analysis may do: bounded and, with a seed, reproducible."""

from __future__ import annotations

import time
from dataclasses import dataclass

from games.analysis.report import AnalysisError

MAX_ITERATIONS = 20_000
MAX_SOLVER_NODES = 2_000_000
MAX_SECONDS = 60.0
#: What a time limit leaves a search that starts after it ran out: one iteration.
_FLOOR = 0.001


@dataclass(frozen=True, slots=True)
class Budget:
    """``iterations``: MCTS iterations (Kazambi before its endgame) or playouts shared
    among the moves (Stolbiki); ``solver_nodes``: new positions the Kazambi endgame
    solver may visit for one position before the analysis falls back to search, and
    ``kugamai_nodes`` the same for the Kugamai solver (whose nodes cost a twentieth: a
    whole game from the deal takes some 40,000); ``seed`` makes the search reproducible.
    Two optional time limits stop the whole analysis of a position early all the same
    (solvers and search alike, see :class:`Clock`): ``seconds`` of wall time and
    ``cpu_seconds`` of the CPU time of the thread that analyses (:func:`time.thread_time`:
    in a threaded web server, one request's own work whatever the other threads do). A
    search cut short by time is reproducible no more: it says how far it got."""

    iterations: int = 1000
    seed: int = 0
    solver_nodes: int = 100_000
    seconds: float | None = None
    kugamai_nodes: int = 500_000
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        _whole("iterations", self.iterations, 1, MAX_ITERATIONS)
        _whole("solver_nodes", self.solver_nodes, 1, MAX_SOLVER_NODES)
        _whole("kugamai_nodes", self.kugamai_nodes, 1, MAX_SOLVER_NODES)
        _whole("seed", self.seed, 0, 2**63 - 1)
        _seconds("seconds", self.seconds)
        _seconds("cpu_seconds", self.cpu_seconds)

    def clock(self) -> Clock:
        """The time limits, counted from now."""
        return Clock(self.seconds, self.cpu_seconds)


class Clock:
    """The time limits of one position's analysis, counted from its start: every phase
    (a solver's try, then the search it falls back to) draws on the same time."""

    __slots__ = ("wall_end", "cpu_end")

    def __init__(self, seconds: float | None = None, cpu_seconds: float | None = None) -> None:
        self.wall_end = None if seconds is None else time.perf_counter() + seconds
        self.cpu_end = None if cpu_seconds is None else time.thread_time() + cpu_seconds

    @property
    def limited(self) -> bool:
        return self.wall_end is not None or self.cpu_end is not None

    def left(self) -> tuple[float | None, float | None]:
        """Wall and CPU seconds left (``None``: no such limit); never quite nothing, so a
        search started late still runs its one iteration."""
        wall = None if self.wall_end is None else max(_FLOOR, self.wall_end - time.perf_counter())
        cpu = None if self.cpu_end is None else max(_FLOOR, self.cpu_end - time.thread_time())
        return wall, cpu

    def solver_deadline(self, share: float = 1.0) -> float | None:
        """A :func:`time.thread_time` value for a solver that may use ``share`` of the
        time left (the tighter limit, wall seconds counted as CPU seconds), or ``None``."""
        limits = [limit for limit in self.left() if limit is not None]
        return time.thread_time() + share * min(limits) if limits else None

    def expired(self) -> bool:
        return (self.wall_end is not None and time.perf_counter() >= self.wall_end) or (
            self.cpu_end is not None and time.thread_time() >= self.cpu_end
        )


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AnalysisError(f"{name} must be a whole number from {low} to {high}", name)


def _seconds(name: str, value: object) -> None:
    if value is not None and (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 < value <= MAX_SECONDS
    ):
        raise AnalysisError(f"{name} must be a number in (0, {MAX_SECONDS:g}]", name)
