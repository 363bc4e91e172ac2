"""A recorded game: the position after any move, and every move annotated."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.analysis.budget import MAX_SECONDS, Budget
from games.analysis.kazambi import kazambi_search
from games.analysis.position import Analyst
from games.analysis.report import (
    AnalysisError,
    GameReport,
    Information,
    MoveNote,
    PositionReport,
)
from games.engines import ENGINE_NAMES, EngineError, RecordError, get_engine
from games.engines.kazambi.engine import KazambiEngine

#: The longest record analysed (every game's rules end well before).
MAX_RECORD_MOVES = 400

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class Replayed:
    game: str
    engine: Any
    #: The position before each move, then the final one.
    states: list[Any]
    #: The moves in canonical text.
    moves: list[str]

    @property
    def finished(self) -> bool:
        return bool(self.engine.is_over(self.states[-1]))

    @property
    def information(self) -> Information:
        """What a Stolbiki analysis of this game may see: every hand once it is over."""
        if self.engine.perfect_information:
            return "complete"
        return "all hands" if self.finished else "observed"


def replay(record: object) -> Replayed:
    """Check and replay a game record; an illegal move is an :class:`AnalysisError`
    naming the move number and the rule it breaks."""
    if not isinstance(record, Mapping):
        raise AnalysisError("a game record must be a JSON object", "record")
    game = record.get("game")
    if game not in ENGINE_NAMES:
        raise AnalysisError(
            f"the record's game must be one of {', '.join(ENGINE_NAMES)}", "record"
        )
    moves = record.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise AnalysisError("the record's moves must be a list of move texts", "record")
    if len(moves) > MAX_RECORD_MOVES:
        raise AnalysisError(
            f"the record has {len(moves)} moves; at most {MAX_RECORD_MOVES} are analysed",
            "record",
        )
    engine = get_engine(str(game))
    try:
        engine.replay(record)
        state = engine.new_game(deal=record["deal"], **dict(record.get("options") or {}))
    except RecordError as error:
        raise AnalysisError(
            f"move {error.move_number} ({error.move}) is illegal: {error.rule}", "record"
        ) from None
    except (EngineError, TypeError) as error:
        raise AnalysisError(f"the record cannot be replayed: {error}", "record") from None
    states = [state]
    canonical = []
    for move in moves:
        state = engine.play(state, move)
        states.append(state)
        canonical.append(str(engine.to_dict(state)["history"][-1]))
    return Replayed(str(game), engine, states, canonical)


def position_at(record: object, move_number: object) -> tuple[Replayed, Any]:
    """The replayed record and its position after ``move_number`` moves (0: the start)."""
    replayed = replay(record)
    last = len(replayed.moves)
    if isinstance(move_number, bool) or not isinstance(move_number, int) or not (
        0 <= move_number <= last
    ):
        raise AnalysisError(f"move must be a whole number from 0 to {last}", "move")
    return replayed, replayed.states[move_number]


def analyse_game(
    record: object,
    budget: Budget | None = None,
    *,
    progress: Progress | None = None,
    analyst: Analyst | None = None,
    seconds: float | None = None,
) -> GameReport:
    """Every move of ``record`` annotated: its value against the best move's, a blunder
    where the exact value dropped, the win rate (or expected points) lost otherwise.
    ``progress(done, total)`` is called after each move.

    ``seconds`` caps the whole game: each move's search gets at most the time left (and
    ``budget.seconds``), and no move is started once it is spent; the report then holds
    the moves analysed so far (:attr:`GameReport.complete` is false)."""
    budget = budget or Budget()
    analyst = analyst or Analyst()
    replayed = replay(record)
    started = time.perf_counter()
    information = replayed.information
    notes: list[MoveNote] = []
    total = len(replayed.moves)
    for index, move in enumerate(replayed.moves):
        move_budget = budget
        if seconds is not None:
            left = seconds - (time.perf_counter() - started)
            if left <= 0:
                break
            move_budget = replace(budget, seconds=min(budget.seconds or MAX_SECONDS, left))
        state = replayed.states[index]
        report = analyst.analyse(replayed.game, state, move_budget, information=information)
        note = _note(replayed, state, index + 1, move, report, budget)
        note.seconds = time.perf_counter() - started - sum(done.seconds for done in notes)
        notes.append(note)
        if progress is not None:
            progress(index + 1, total)
    final = replayed.states[-1]
    result = replayed.engine.result(final) if replayed.finished else None
    return GameReport(
        replayed.game, notes, information, result, seconds=time.perf_counter() - started,
        moves_total=total,
    )


def _note(
    replayed: Replayed, state: Any, number: int, move: str, report: PositionReport,
    budget: Budget,
) -> MoveNote:
    mover = int(replayed.engine.to_move(state))
    note = MoveNote(number, mover, mover % 2, move, report.method, report.best_moves())
    note.forced = len(replayed.engine.legal_moves(state)) == 1
    played = report.find(move)
    if report.method == "exact":
        note.value_before = report.value
        note.value_after = played.value if played is not None else None
    elif report.method == "sampling":
        best = report.moves[0] if report.moves else None
        note.best_score = _margin(best)
        note.played_score = _margin(played)
    elif report.method == "mcts" and not note.forced:
        note.best_score = report.win_rate
        if played is not None:
            note.played_score = played.win_rate
        elif isinstance(replayed.engine, KazambiEngine) and note.best_moves:
            _compare(replayed, state, move, note, budget)
    return note


def _compare(replayed: Replayed, state: Any, move: str, note: MoveNote, budget: Budget) -> None:
    """The played move was never tried by the search: search the played and the best
    move side by side."""
    engine = replayed.engine
    pair = [engine.parse(state, move), engine.parse(state, note.best_moves[0])]
    report = kazambi_search(replayed.game, state, budget, root_moves=pair)
    played, best = report.find(move), report.find(note.best_moves[0])
    if played is not None and best is not None:
        note.played_score, note.best_score = played.win_rate, best.win_rate


def _margin(found: Any) -> float | None:
    if found is None or found.points is None or found.opponent_points is None:
        return None
    return float(found.points - found.opponent_points)
