"""What an analysis answers: per-move values of one position, notes on a whole game.

Values are for the side to move. Exact values are ``1`` (a win), ``0`` (a draw) or
``-1`` (a loss) under perfect play; search values are win rates in [0, 1] with visit
counts; Stolbiki values are expected column points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Method = Literal["exact", "mcts", "sampling", "over"]
#: Whose cards a Stolbiki analysis used: the seat's view only, or every hand (a finished
#: game, where nothing is hidden any more).
Information = Literal["complete", "observed", "all hands"]

VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}


class AnalysisError(ValueError):
    """Bad input to an analysis; ``field`` names the input at fault, when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(slots=True)
class MoveValue:
    move: str
    #: Exact value for the mover after this move (1, 0, -1), when solved.
    value: int | None = None
    win_rate: float | None = None
    visits: int | None = None
    #: Stolbiki: the mover's side's and the other side's expected column points.
    points: float | None = None
    opponent_points: float | None = None
    best: bool = False

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"move": self.move, "best": self.best}
        if self.value is not None:
            found["value"] = self.value
            found["outcome"] = VALUE_NAMES[self.value]
        for name in ("win_rate", "points", "opponent_points"):
            number = getattr(self, name)
            if number is not None:
                found[name] = round(number, 4)
        if self.visits is not None:
            found["visits"] = self.visits
        return found


@dataclass(slots=True)
class PositionReport:
    game: str
    to_move: int | None
    side: int | None
    method: Method
    moves: list[MoveValue]
    #: Exact value of the position for the side to move, when solved.
    value: int | None = None
    #: Search: the best move's win rate; Stolbiki: its expected points.
    win_rate: float | None = None
    points: float | None = None
    information: Information = "complete"
    iterations: int = 0
    solver_nodes: int = 0
    seed: int | None = None
    #: Legal moves the search never tried (progressive widening keeps some out).
    unexplored: int = 0
    samples: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def best_moves(self) -> list[str]:
        return [move.move for move in self.moves if move.best]

    def find(self, move: str) -> MoveValue | None:
        return next((found for found in self.moves if found.move == move), None)

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "game": self.game,
            "to_move": self.to_move,
            "side": self.side,
            "method": self.method,
            "exact": self.exact,
            "information": self.information,
            "moves": [move.as_dict() for move in self.moves],
            "best_moves": self.best_moves(),
            "seconds": round(self.seconds, 3),
        }
        if self.value is not None:
            found["value"] = self.value
            found["outcome"] = VALUE_NAMES[self.value]
        if self.win_rate is not None:
            found["win_rate"] = round(self.win_rate, 4)
        if self.points is not None:
            found["points"] = round(self.points, 4)
        if self.method == "mcts":
            found.update(iterations=self.iterations, seed=self.seed, unexplored=self.unexplored)
        if self.method == "sampling":
            found.update(samples=self.samples, seed=self.seed)
        if self.solver_nodes:
            found["solver_nodes"] = self.solver_nodes
        if self.notes:
            found["notes"] = list(self.notes)
        return found


@dataclass(slots=True)
class MoveNote:
    """One move of a recorded game: what was played, what was best, what it cost."""

    number: int
    mover: int
    side: int
    move: str
    method: Method
    best_moves: list[str]
    #: Exact values for the mover before the move (best play) and after the one played.
    value_before: int | None = None
    value_after: int | None = None
    #: Search: the best move's and the played move's win rates (or Stolbiki points).
    best_score: float | None = None
    played_score: float | None = None
    forced: bool = False
    seconds: float = 0.0

    @property
    def blunder(self) -> bool:
        """In the solver's exact sense: the move threw away a win or a draw."""
        return (
            self.method == "exact"
            and self.value_before is not None
            and self.value_after is not None
            and self.value_after < self.value_before
        )

    @property
    def better_move(self) -> str | None:
        if self.blunder or (self.drop or 0) > 0:
            return self.best_moves[0] if self.best_moves else None
        return None

    @property
    def drop(self) -> float | None:
        """How much the played move lost against the best one (win rate or points)."""
        if self.best_score is None or self.played_score is None:
            return None
        return max(0.0, self.best_score - self.played_score)

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "number": self.number,
            "mover": self.mover,
            "side": self.side,
            "move": self.move,
            "method": self.method,
            "exact": self.method == "exact",
            "best_moves": self.best_moves[:5],
            "blunder": self.blunder,
            "better_move": self.better_move,
            "forced": self.forced,
            "seconds": round(self.seconds, 3),
        }
        if self.value_before is not None:
            found["value_before"] = self.value_before
            found["outcome_before"] = VALUE_NAMES[self.value_before]
        if self.value_after is not None:
            found["value_after"] = self.value_after
            found["outcome_after"] = VALUE_NAMES[self.value_after]
        score = "margin" if self.method == "sampling" else "win_rate"
        if self.best_score is not None:
            found[f"best_{score}"] = round(self.best_score, 4)
        if self.played_score is not None:
            found[f"played_{score}"] = round(self.played_score, 4)
        if self.drop is not None:
            found[f"{score}_drop"] = round(self.drop, 4)
        return found


@dataclass(slots=True)
class GameReport:
    game: str
    moves: list[MoveNote]
    information: Information
    result: dict[str, Any] | None
    seconds: float = 0.0
    #: The record's moves; more than ``len(moves)`` when a time cap stopped the analysis.
    moves_total: int | None = None

    @property
    def complete(self) -> bool:
        return self.moves_total is None or len(self.moves) >= self.moves_total

    def blunders(self) -> list[MoveNote]:
        return [note for note in self.moves if note.blunder]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "information": self.information,
            "result": self.result,
            "moves": [note.as_dict() for note in self.moves],
            "blunders": [note.number for note in self.blunders()],
            "seconds": round(self.seconds, 3),
            "complete": self.complete,
        }
