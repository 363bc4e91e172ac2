"""Clock advice for over-the-board play, from the move counts of the games stored so far.

Move statistics come from the recorded games of the same game and options (a game's
``move_count`` counts every move, passes included, so a seat made at most
``ceil(move_count / seats)`` of them: turns rotate strictly). With fewer than
:data:`MIN_RECORDED_GAMES` such games the rules' limits of :mod:`games.clocks.estimates`
are used instead. The advice itself is the pure :func:`games.clocks.advice.recommend_clock`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from core.engine_messages import engine_error_message, game_label, translated
from core.errors import ApplicationError
from games.clocks.advice import ClockAdvice, recommend_clock
from games.clocks.errors import ClockError
from games.clocks.estimates import MoveEstimate, default_move_estimate, few_recorded, seats_of
from games.clocks.setting import format_setting
from games.engines import UnknownGameError, game_facts
from games.series.format import MatchFormat, SeriesError
from matches.models import Game
from tournaments.selectors import round_clock

MIN_RECORDED_GAMES = 20
#: Only the latest games count (the game may be played differently as a club learns it).
MAX_RECORDED_GAMES = 5000


@dataclass(frozen=True)
class RoundClockAdvice:
    """Advice for a round, with the clock the round is set to play."""

    advice: ClockAdvice
    moves: MoveEstimate
    current: str
    slot_minutes: int

    @property
    def reasons(self) -> list[str]:
        """The advice's reasoning in the active language."""
        return [translated(reason) for reason in self.advice.reason_messages]


def _estimate_options(game: str, options: dict[str, Any]) -> dict[str, int]:
    try:
        keys = game_facts(game).length_options
    except UnknownGameError:
        raise ApplicationError(_("Unknown game %(game)r.") % {"game": game},
                               field="game") from None
    return {key: options[key] for key in keys if options.get(key) is not None}


def move_estimate(game: str, options: dict[str, Any] | None = None) -> MoveEstimate:
    """Moves per seat (the seat that moves most) in ``game`` played with ``options``."""
    options = dict(options or {})
    known = _estimate_options(game, options)
    try:
        seats = seats_of(game, **known)
    except ClockError as error:
        raise ApplicationError(engine_error_message(error), field="game") from None
    counts = list(
        Game.objects.filter(game=game, options=options, move_count__gt=0)
        .order_by("-played_at", "-id").values_list("move_count", flat=True)[:MAX_RECORDED_GAMES]
    )
    per_seat = [math.ceil(count / seats) for count in counts if count]
    if len(per_seat) >= MIN_RECORDED_GAMES:
        return _measured(per_seat)
    try:
        rules = default_move_estimate(game, **known)
    except ClockError as error:
        raise ApplicationError(engine_error_message(error), field="game") from None
    if not per_seat:
        return rules
    return few_recorded(rules, len(per_seat), MIN_RECORDED_GAMES)


def _measured(per_seat: list[int]) -> MoveEstimate:
    """``MoveEstimate.from_counts``, except that a few long games can lift the mean above
    the percentile (which that class refuses): the high figure is then the mean."""
    try:
        return MoveEstimate.from_counts(per_seat)
    except ClockError:
        measured = MoveEstimate.from_counts(sorted(per_seat)[:1] * len(per_seat))
        mean = sum(per_seat) / len(per_seat)
        return MoveEstimate(mean, mean, measured.percentile, len(per_seat), measured.basis,
                            measured.basis_message)


def clock_advice(
    *, game: str, options: dict[str, Any] | None, match_format: MatchFormat | str | dict[str, Any],
    slot_minutes: float,
) -> tuple[ClockAdvice, MoveEstimate]:
    """A clock setting that fits a match of ``match_format`` into ``slot_minutes``."""
    try:
        if isinstance(match_format, str):
            match_format = MatchFormat.parse(match_format)
        elif isinstance(match_format, dict):
            match_format = MatchFormat.from_dict(match_format)
    except SeriesError as error:
        raise ApplicationError(engine_error_message(error), field="match_format") from None
    moves = move_estimate(game, options)
    known = _estimate_options(game, dict(options or {}))
    try:
        advice = recommend_clock(
            slot_minutes=slot_minutes, match=match_format, moves=moves,
            seats=seats_of(game, **known), game_label=game_label(game),
        )
    except ClockError as error:
        field = "match_format" if "max_games" in str(error) else "slot_minutes"
        raise ApplicationError(_("No clock advice: %(problem)s")
                               % {"problem": engine_error_message(error)}, field=field) from None
    return advice, moves


def round_clock_advice(round_: Any) -> RoundClockAdvice:
    """Advice for ``round_``'s time slot and its tournament's game and match format."""
    tournament = round_.tournament
    if not round_.time_slot_minutes:
        raise ApplicationError(
            _("Round %(round)d has no time slot: set its time slot (minutes) to get clock "
              "advice.") % {"round": round_.number}, field="time_slot_minutes")
    advice, moves = clock_advice(
        game=tournament.game, options=tournament.game_options,
        match_format=tournament.match_format or {}, slot_minutes=round_.time_slot_minutes,
    )
    return RoundClockAdvice(advice, moves, round_clock(round_), round_.time_slot_minutes)


#: What the floors above add to a round's advice, by key (the phone clock: "measured", the
#: advice from measured games): each provider takes the round and returns a JSON-able
#: dict. Connected in their AppConfig.ready; nothing here imports them.
round_advice_extras: dict[str, Callable[[Any], dict[str, Any]]] = {}


def round_advice_extra(round_: Any) -> dict[str, Any]:
    return {key: provider(round_) for key, provider in round_advice_extras.items()}


@dataclass(frozen=True)
class AdviceQuestion:
    """A clock setting to judge outside a round: ``clock`` (a round's clock text) for
    ``game`` with ``options``, a round of ``boards`` boards of matches of at most
    ``games_per_match`` games."""

    game: str
    options: dict[str, Any]
    clock: str
    boards: int = 1
    games_per_match: int = 1
    #: Shared by the questions of one page: a provider keeps what it read for the next.
    memo: dict[str, Any] = field(default_factory=dict, compare=False)


#: What the floors above add to any advice (the phone clock: "measured"), by key: each
#: provider takes an :class:`AdviceQuestion` and returns a JSON-able dict.
advice_extras: dict[str, Callable[[AdviceQuestion], dict[str, Any]]] = {}


def advice_extra(question: AdviceQuestion) -> dict[str, Any]:
    return {key: provider(question) for key, provider in advice_extras.items()}


def advice_as_dict(advice: ClockAdvice, moves: MoveEstimate) -> dict[str, Any]:
    return {
        "setting": format_setting(advice.setting),
        "description": translated(advice.setting.description()),
        "games": advice.games,
        "worst_case_minutes": round(advice.worst_case_minutes, 1),
        "reasons": [translated(reason) for reason in advice.reason_messages],
        "moves": {"mean": round(moves.mean, 2), "high": moves.high,
                  "percentile": moves.percentile, "games_recorded": moves.games_recorded,
                  "basis": translated(moves.basis_words)},
    }
