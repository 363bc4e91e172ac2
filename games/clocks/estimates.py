"""How many moves a game takes, per seat: measured from recorded games, or from the rules.

The clock advice needs the number of moves of the seat that moves most in a game (with a
Fischer increment or a delay, each of those moves adds time to the game). From recorded
games the caller counts, for each game, the largest number of moves made by one seat
(passes included: a pass also earns an increment), and :meth:`MoveEstimate.from_counts`
summarises them. Without recorded games, :func:`default_move_estimate` gives the limit
the rules allow:

* Kazambi (rows x cols, 14 tiles per player): a player makes at most 14 moves, and the
  board holds at most ``rows * cols // 2`` tiles, half of them (rounded up) the first
  player's: 14 on the default 7 x 8 board. Pairs: 7 tiles per seat, so at most 7 moves.
* Kugamai: 14 tiles per player, so about 14 moves (passes come on top, rarely).
* Stolbiki: one card per move, so a seat moves as often as it holds cards: 36 cards in
  2 v 2 (or 1 v 1 as two piles each) gives 9 per seat, 52 cards 13; in 3 v 3, 6 and 9.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.clocks.errors import ClockInputError
from games.engines import ENGINE_NAMES, UnknownGameError, game_facts, get_engine
from games.i18n import N_, as_message

DEFAULT_PERCENTILE = 95


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """Moves per seat (the seat with most moves): the mean, a high percentile, and where
    the figures come from (``games_recorded`` is 0 for an estimate from the rules)."""

    mean: float
    high: float
    percentile: int = DEFAULT_PERCENTILE
    games_recorded: int = 0
    basis: str = ""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mean) and self.mean > 0):
            raise ClockInputError(N_("the mean number of moves must be positive, not %(mean)s"),
                                  mean=self.mean)
        if not (math.isfinite(self.high) and self.high >= self.mean):
            raise ClockInputError(
                N_("the high number of moves (%(high)s) must be at least the mean (%(mean)s)"),
                high=self.high, mean=self.mean
            )
        if not 50 <= self.percentile <= 100:
            raise ClockInputError(N_("the percentile must be 50..100, not %(percentile)s"),
                                  percentile=self.percentile)
        if self.games_recorded < 0:
            raise ClockInputError(N_("the number of recorded games cannot be negative"))

    @classmethod
    def from_counts(
        cls, counts: Sequence[int], percentile: int = DEFAULT_PERCENTILE
    ) -> MoveEstimate:
        """Summarise per-game counts of the most moves made by one seat.

        The high figure is the nearest-rank percentile (the smallest count that at least
        ``percentile`` % of the games do not exceed).
        """
        if not counts:
            raise ClockInputError(N_("no recorded games: use default_move_estimate instead"))
        if any(not isinstance(count, int) or count < 1 for count in counts):
            raise ClockInputError(N_("each recorded game must count at least one move per seat"))
        ordered = sorted(counts)
        rank = max(1, math.ceil(percentile / 100 * len(ordered)))
        mean = sum(ordered) / len(ordered)
        return cls(
            mean=mean,
            # a skewed sample can put the percentile below the mean: plan for the larger
            high=max(float(ordered[rank - 1]), mean),
            percentile=percentile,
            games_recorded=len(ordered),
            basis=f"from {len(ordered)} recorded game{'s' if len(ordered) != 1 else ''}",
        )

    def describe(self, per: str = "player") -> str:
        """E.g. "about 13 moves per player (95th percentile 14, from 120 recorded games)"."""
        if self.games_recorded:
            return (
                f"about {_number(self.mean)} moves per {per} "
                f"({_ordinal(self.percentile)} percentile {_number(self.high)}, {self.basis})"
            )
        return f"up to {_number(self.high)} moves per {per} ({self.basis})"


def default_move_estimate(game: str, **options: int) -> MoveEstimate:
    """The rules' limit on moves per seat for ``game`` (an engine name) and the options
    that change its length (``GameFacts.move_limit``)."""
    try:
        limit, why = game_facts(game).move_limit(options)
    except UnknownGameError:
        raise ClockInputError(
            N_("no move estimate for game %(game)r: use %(games)s, or pass measured figures"),
            game=game, games=', '.join(ENGINE_NAMES)
        ) from None
    except ValueError as error:
        raise ClockInputError(as_message(error)) from None
    return MoveEstimate(limit, limit, 100, 0, f"no recorded games; {why}")


def seats_of(game: str, **options: int) -> int:
    """How many seats (clocks) a game of ``game`` has (1 v 1 Stolbiki has four piles)."""
    try:
        return get_engine(game).seat_count(**options)
    except UnknownGameError:
        raise ClockInputError(N_("unknown game %(game)r"), game=game) from None
    except ValueError as error:
        raise ClockInputError(as_message(error)) from None


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
