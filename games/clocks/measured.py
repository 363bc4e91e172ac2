"""Advice from measured games: how long players really think, and what a proposed time
control would do to a round.

The phone clock records every move's duration. For one game and board size (the caller
groups the games), :func:`measured_advice` replays each recorded game's move times on a
proposed time control:

* a game is **lost on time** under the proposal when the proposed clock's flag falls
  during its recorded moves (:func:`games.clocks.running`'s rule: a move that uses all the
  time available flags); a game that ended on time in its record counts as lost on time
  too, unless the proposal gives its flagged seat more time at that move than the clock it
  was played with (then the game is counted by its recorded moves, an optimistic guess);
* a game's **length** is the sum of its move times (up to the proposal's flag fall);
* a **round** of ``boards`` boards, each a match of ``games`` games with ``setup_minutes``
  of set-up per game, lasts as long as its longest board. With the recorded games' length
  distribution ``F`` (every game of a match taken as long as one drawn game, a
  simplification that overstates spread), the longest of ``boards`` boards is at most ``x``
  with probability ``F(x) ** boards``: the median and the 90th percentile are the smallest
  recorded lengths where that reaches 0.5 and 0.9.

Percentiles are nearest-rank (the smallest value that at least that share of the values
do not exceed). With fewer than :data:`MIN_MEASURED_GAMES` games the function returns
``None``: the caller keeps today's estimate (:mod:`games.clocks.advice`) and says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.clocks.control import TimeControl
from games.clocks.errors import ClockInputError
from games.clocks.running import left_after
from games.clocks.setting import IncrementKind
from games.i18n import N_, Message

MIN_MEASURED_GAMES = 10
MAX_BOARDS = 1000


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One measured game: each move's duration (seconds) in order, seat 0 first, the
    controls it was played with, and the seat whose flag fell (None: no flag)."""

    durations: tuple[float, ...]
    controls: tuple[TimeControl, TimeControl]
    flagged_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Distribution:
    count: int
    median: float
    p90: float


@dataclass(frozen=True, slots=True)
class MeasuredAdvice:
    games_measured: int
    lost_on_time: int
    move_seconds: Distribution
    game_minutes: Distribution
    round_median_minutes: float
    round_p90_minutes: float
    boards: int
    reason_messages: tuple[Message, ...]

    @property
    def lost_on_time_share(self) -> float:
        return self.lost_on_time / self.games_measured

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(str(reason) for reason in self.reason_messages)


def nearest_rank(values: Sequence[float], share: float) -> float:
    """The smallest value that at least ``share`` of ``values`` do not exceed."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(share * len(ordered) - 1e-9)) - 1]


def distribution(values: Sequence[float]) -> Distribution:
    if not values:
        raise ClockInputError(N_("no values to summarise"))
    ordered = sorted(values)
    count = len(ordered)
    return Distribution(count, ordered[max(1, math.ceil(0.5 * count - 1e-9)) - 1],
                        ordered[max(1, math.ceil(0.9 * count - 1e-9)) - 1])


def replay(game: RecordedGame, proposal: tuple[TimeControl, TimeControl]) -> tuple[bool, float]:
    """(lost on time under ``proposal``, the game's length in seconds under it)."""
    left = [float(c.first.base_seconds) for c in proposal]
    periods, in_period, moves = [0, 0], [0, 0], [0, 0]
    current = [proposal[0].period(0), proposal[1].period(0)]
    total = 0.0
    seat = 0
    for used in game.durations:
        period = current[seat]
        kind, bonus = period.setting.kind, period.setting.bonus_seconds
        available = left[seat] + bonus if kind is IncrementKind.SIMPLE_DELAY else left[seat]
        if used >= available:
            return True, total + available
        total += used
        left[seat] = left_after(kind, bonus, left[seat], used)
        moves[seat] += 1
        if period.moves is not None:
            in_period[seat] += 1
            if in_period[seat] >= period.moves:
                periods[seat] += 1
                in_period[seat] = 0
                current[seat] = proposal[seat].period(periods[seat])
                left[seat] += current[seat].setting.base_seconds
        seat = 1 - seat
    if game.flagged_seat is not None:
        flagged = game.flagged_seat
        made = moves[flagged] + 1
        if proposal[flagged].max_seconds_for(made) <= game.controls[flagged].max_seconds_for(made):
            return True, total
    return False, total


def round_quantile(lengths: Sequence[float], boards: int, share: float) -> float:
    """The smallest recorded length ``x`` with ``F(x) ** boards >= share``."""
    ordered = sorted(lengths)
    count = len(ordered)
    for rank, value in enumerate(ordered, start=1):
        if (rank / count) ** boards >= share - 1e-12:
            return value
    return ordered[-1]


def measured_advice(
    games: Sequence[RecordedGame], proposal: tuple[TimeControl, TimeControl], *,
    boards: int = 1, games_per_match: int = 1, setup_minutes: float = 2.0,
    label: str = "",
) -> MeasuredAdvice | None:
    """The proposal's expected share of games lost on time and round length, from
    ``games`` (one game and board size); None with fewer than MIN_MEASURED_GAMES."""
    if not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise ClockInputError(N_("a round has 1 to %(most)s boards, not %(boards)r"),
                              most=MAX_BOARDS, boards=boards)
    if not isinstance(games_per_match, int) or games_per_match < 1:
        raise ClockInputError(N_("a match needs at least one game, not %(games)r"),
                              games=games_per_match)
    usable = [game for game in games if game.durations]
    if len(usable) < MIN_MEASURED_GAMES:
        return None
    outcomes = [replay(game, proposal) for game in usable]
    lost = sum(1 for flagged, _ in outcomes if flagged)
    lengths = [length for _, length in outcomes]
    moves = distribution([used for game in usable for used in game.durations])
    game_minutes = distribution([length / 60 for length in lengths])
    match_minutes = [games_per_match * (length / 60 + setup_minutes) for length in lengths]
    median = round_quantile(match_minutes, boards, 0.5)
    p90 = round_quantile(match_minutes, boards, 0.9)
    proposal_text = str(proposal[0]) if proposal[0] == proposal[1] else \
        f"{proposal[0]} / {proposal[1]}"
    reasons = (
        Message(N_("Measured on this clock: %(count)s games%(label)s; a move takes "
                   "%(median)s s (median), %(p90)s s at the 90th percentile; a game lasts "
                   "%(game_median)s minutes (median), %(game_p90)s at the 90th percentile."),
                count=len(usable), label=f" ({label})" if label else "",
                median=_number(moves.median), p90=_number(moves.p90),
                game_median=_number(game_minutes.median), game_p90=_number(game_minutes.p90)),
        Message(N_("With %(proposal)s, %(lost)s of the %(count)s measured games would be lost "
                   "on time (%(percent)s%%)."),
                proposal=proposal_text, lost=lost, count=len(usable),
                percent=_number(100 * lost / len(usable))),
        Message(N_("A round of %(boards)s boards would last %(median)s minutes (median), "
                   "%(p90)s minutes at the 90th percentile, from %(count)s measured games."),
                boards=boards, median=_number(median), p90=_number(p90), count=len(usable)),
    )
    return MeasuredAdvice(len(usable), lost, moves, game_minutes, median, p90, boards, reasons)


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"
