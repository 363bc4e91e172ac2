"""Running a clock over a sequence of moves: time left and flag fall.

Rules for one move that lasts ``used`` seconds, with ``left`` on the clock before it:

* no increment: the clock loses ``used``.
* Fischer: the clock loses ``used``, then gains the increment.
* Bronstein: the clock loses ``used``, then gains back ``min(delay, used)``.
* simple delay: the clock does not run for the first ``delay`` seconds of the move, so it
  loses ``max(0, used - delay)``.

**Flag fall.** The flag falls when the running clock reaches zero before the move is
completed; a move that uses exactly the time on the clock flags too (the clock shows 0:00).
A bonus never saves a move once the flag has fallen: Fischer and Bronstein bonuses are
added only after a completed move. Passes are moves: they are recorded with their duration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.clocks.errors import ClockInputError
from games.clocks.setting import ClockSetting, IncrementKind
from games.i18n import N_


@dataclass(frozen=True, slots=True)
class FlagFall:
    """Where a flag fell: the seat, the seat's move number (1-based), the game's move number
    (1-based, counting every seat's moves) and how many seconds into that move."""

    seat: int
    move: int
    game_move: int
    seconds_into_move: float


@dataclass(frozen=True, slots=True)
class ClockRun:
    """One clock over one seat's moves: the time left after each completed move and the
    flag fall, if any (then ``left`` stops before the flagged move)."""

    left: tuple[float, ...]
    flag: FlagFall | None

    @property
    def final_left(self) -> float:
        """Time on the clock at the end (0 if the flag fell)."""
        if self.flag is not None:
            return 0.0
        return self.left[-1] if self.left else math.nan


def time_available(setting: ClockSetting, left: float) -> float:
    """How long the next move may last before the flag falls, with ``left`` on the clock."""
    if setting.kind is IncrementKind.SIMPLE_DELAY:
        return left + setting.bonus_seconds
    return left


def after_move(setting: ClockSetting, left: float, used: float) -> float:
    """Time on the clock after a completed move of ``used`` seconds (no flag check)."""
    return left_after(setting.kind, setting.bonus_seconds, left, used)


def left_after(kind: IncrementKind, bonus: float, left: float, used: float) -> float:
    """Time left after a move of ``used`` seconds under ``kind`` with ``bonus`` seconds."""
    if kind is IncrementKind.FISCHER:
        return left - used + bonus
    if kind is IncrementKind.BRONSTEIN:
        return left - used + min(bonus, used)
    if kind is IncrementKind.SIMPLE_DELAY:
        return left - max(0.0, used - bonus)
    return left - used


def run_clock(setting: ClockSetting, durations: Iterable[float], seat: int = 0) -> ClockRun:
    """Run one seat's clock over its move durations (seconds), stopping at a flag fall."""
    left = float(setting.base_seconds)
    history: list[float] = []
    for number, used in enumerate(durations, start=1):
        _check_duration(used, number)
        available = time_available(setting, left)
        if used >= available:
            flag = FlagFall(seat, number, number, float(available))
            return ClockRun(tuple(history), flag)
        left = after_move(setting, left, used)
        history.append(left)
    return ClockRun(tuple(history), None)


@dataclass(frozen=True, slots=True)
class GameClocks:
    """All seats' clocks over a game: time left per seat and the first flag fall."""

    left: tuple[float, ...]
    moves: tuple[int, ...]
    flag: FlagFall | None


def run_game_clocks(
    setting: ClockSetting, seats: int, moves: Iterable[tuple[int, float]]
) -> GameClocks:
    """Run every seat's clock over a game given as ``(seat, duration)`` moves in order.

    Stops at the first flag fall: the seat's side loses the game (in a team game, the
    team of the flagged seat).
    """
    if not isinstance(seats, int) or seats < 1:
        raise ClockInputError(N_("a game needs at least one seat, not %(seats)r"), seats=seats)
    left = [float(setting.base_seconds)] * seats
    counts = [0] * seats
    for game_move, (seat, used) in enumerate(moves, start=1):
        if not isinstance(seat, int) or not 0 <= seat < seats:
            raise ClockInputError(N_("move %(number)s: seat %(seat)r is not one of 0..%(last)s"),
                                  number=game_move, seat=seat, last=seats - 1)
        _check_duration(used, game_move)
        counts[seat] += 1
        available = time_available(setting, left[seat])
        if used >= available:
            left[seat] = 0.0
            flag = FlagFall(seat, counts[seat], game_move, float(available))
            return GameClocks(tuple(left), tuple(counts), flag)
        left[seat] = after_move(setting, left[seat], used)
    return GameClocks(tuple(left), tuple(counts), None)


def seat_moves_from_game(durations: Sequence[float], seats: int) -> list[tuple[int, float]]:
    """``(seat, duration)`` pairs for a game whose seats move strictly in turn from seat 0."""
    if seats < 1:
        raise ClockInputError(N_("a game needs at least one seat, not %(seats)s"), seats=seats)
    return [(index % seats, used) for index, used in enumerate(durations)]


def _check_duration(used: float, number: int) -> None:
    if not isinstance(used, int | float) or not math.isfinite(used) or used < 0:
        raise ClockInputError(
            N_("move %(number)s: a move's duration must be zero or more seconds, not %(used)r"),
            number=number, used=used
        )
