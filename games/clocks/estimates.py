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
from games.i18n import N_, Message, as_message

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
    #: ``basis`` translatable (``None``: ``basis`` is shown as it is).
    basis_message: Message | None = None

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
        basis = (Message(N_("from %(count)s recorded game"), count=1) if len(ordered) == 1
                 else Message(N_("from %(count)s recorded games"), count=len(ordered)))
        rank = max(1, math.ceil(percentile / 100 * len(ordered)))
        mean = sum(ordered) / len(ordered)
        return cls(
            mean=mean,
            # a skewed sample can put the percentile below the mean: plan for the larger
            high=max(float(ordered[rank - 1]), mean),
            percentile=percentile,
            games_recorded=len(ordered),
            basis=str(basis),
            basis_message=basis,
        )

    @property
    def basis_words(self) -> Message:
        """Where the figures come from, translatable."""
        return self.basis_message or Message(self.basis)

    def describe(self, per: str = "player") -> str:
        """E.g. "about 13 moves per player (95th percentile 14, from 120 recorded games)"."""
        return str(self.description(per))

    def description(self, per: str = "player") -> Message:
        """:meth:`describe`, translatable; ``per`` is "player" or "seat"."""
        seat = per == "seat"
        if self.games_recorded:
            template = (N_("about %(mean)s moves per seat (%(percentile)s percentile %(high)s, "
                           "%(basis)s)") if seat else
                        N_("about %(mean)s moves per player (%(percentile)s percentile "
                           "%(high)s, %(basis)s)"))
            return Message(template, mean=_number(self.mean), percentile=_ordinal(self.percentile),
                           high=_number(self.high), basis=self.basis_words)
        template = (N_("up to %(high)s moves per seat (%(basis)s)") if seat
                    else N_("up to %(high)s moves per player (%(basis)s)"))
        return Message(template, high=_number(self.high), basis=self.basis_words)


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
    basis = Message(N_("no recorded games; %(why)s"), why=why)
    return MoveEstimate(limit, limit, 100, 0, str(basis), basis)


def few_recorded(rules: MoveEstimate, count: int, minimum: int) -> MoveEstimate:
    """The rules' estimate ``rules`` when only ``count`` games (fewer than ``minimum``) are
    recorded: the same figures, and a basis that says so."""
    why = rules.basis_message.params.get("why", "") if rules.basis_message else ""
    template = (N_("only %(count)s recorded game (fewer than %(minimum)s); %(why)s")
                if count == 1 else
                N_("only %(count)s recorded games (fewer than %(minimum)s); %(why)s"))
    basis = Message(template, count=count, minimum=minimum, why=why)
    return MoveEstimate(rules.mean, rules.high, rules.percentile, 0, str(basis), basis)


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


def _ordinal(number: int) -> Message:
    if 10 <= number % 100 <= 20:
        return Message(N_("%(number)sth"), number=number)
    suffix = {1: N_("%(number)sst"), 2: N_("%(number)snd"), 3: N_("%(number)srd")}
    return Message(suffix.get(number % 10, N_("%(number)sth")), number=number)
