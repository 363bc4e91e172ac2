"""Advice: a clock setting that makes a whole match fit a round's time slot.

The worst case is planned for: the match runs to its longest (a best of 5 plays 5 games),
every game runs to the high percentile of moves per seat, and every seat uses its whole
clock, base time and every increment or delay. One clock runs at a time, so a game lasts at
most ``seats * (base + moves * bonus)``; a set-up allowance is added for every game (the
first game too: boards are laid out and results entered each time). The setting is chosen
so that ``games * (seats * (base + moves * bonus) + set-up) <= slot``:

1. The slot, less set-up, is shared equally between the games and then between the seats.
2. The increment (or delay) is the largest friendly value (0, 2, 3, 5, 10, 15, 30 s) whose
   total over the seat's moves stays within ``increment_share`` (a quarter by default) of
   the seat's time, so that most of the time stays in the base.
3. The base is what remains, rounded down to whole minutes; it must be at least 1 minute.

When even 1 minute per seat without increment does not fit, :class:`NoClockFitsError`
says which slot would fit the match and how many games would fit the slot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from games.clocks.errors import ClockInputError, NoClockFitsError
from games.clocks.estimates import MoveEstimate
from games.clocks.setting import (
    ClockSetting,
    IncrementKind,
    format_setting,
    kind_words,
    minutes_words,
)
from games.i18n import N_, Message

FRIENDLY_BONUSES: tuple[int, ...] = (0, 2, 3, 5, 10, 15, 30)
DEFAULT_SETUP_MINUTES = 2.0
DEFAULT_INCREMENT_SHARE = 0.25
MIN_BASE_MINUTES = 1



class MatchFormatLike(Protocol):
    """What the advice needs of a match format (``games.series.MatchFormat`` fits)."""

    def max_games_needed(self) -> int | None: ...

    def describe(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ClockAdvice:
    """The recommended setting, the worst-case length of the match, and the reasoning."""

    setting: ClockSetting
    games: int
    worst_case_minutes: float
    #: The reasoning, sentence by sentence, translatable (:attr:`reasons` in English).
    reason_messages: tuple[Message, ...]

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(str(reason) for reason in self.reason_messages)


def recommend_clock(
    *,
    slot_minutes: float,
    match: MatchFormatLike | int,
    moves: MoveEstimate,
    seats: int = 2,
    setup_minutes: float = DEFAULT_SETUP_MINUTES,
    kind: IncrementKind = IncrementKind.FISCHER,
    game_label: str = "game",
    increment_share: float = DEFAULT_INCREMENT_SHARE,
) -> ClockAdvice:
    """Recommend a clock setting so that the worst-case match fits ``slot_minutes``.

    ``match`` is a match format (``max_games_needed()`` and ``describe()``) or simply the
    largest number of games the match can take. ``moves`` counts moves per seat for the
    seat that moves most (see :mod:`games.clocks.estimates`). ``game_label`` names the game
    in the reasons ("Kazambi").
    """
    games, match_sentence = _worst_case_games(match)
    _check_parameters(slot_minutes, seats, setup_minutes, increment_share)
    kind = IncrementKind(kind)
    per = "player" if seats == 2 else "seat"
    players = per == "player"
    planned_moves = moves.high

    reasons = [
        match_sentence,
        Message(N_("A %(game)s game has %(moves)s; the advice plans for %(planned)s moves for "
                   "each of the %(seats)s players.") if players else
                N_("A %(game)s game has %(moves)s; the advice plans for %(planned)s moves for "
                   "each of the %(seats)s seats."),
                game=game_label, moves=moves.description(per), planned=_number(planned_moves),
                seats=seats),
    ]

    per_game_seconds = slot_minutes * 60 / games - setup_minutes * 60
    per_seat_seconds = per_game_seconds / seats
    minimum_game_minutes = seats * MIN_BASE_MINUTES + setup_minutes
    if per_seat_seconds < MIN_BASE_MINUTES * 60:
        raise NoClockFitsError(
            _no_fit_message(slot_minutes, games, seats, setup_minutes, minimum_game_minutes)
        )
    reasons.append(Message(
        N_("The %(slot)s-minute slot, less %(setup)s minutes of set-up per game, leaves "
           "%(game_minutes)s minutes per game: %(seat_minutes)s minutes for each player's "
           "clock.") if players else
        N_("The %(slot)s-minute slot, less %(setup)s minutes of set-up per game, leaves "
           "%(game_minutes)s minutes per game: %(seat_minutes)s minutes for each seat's clock."),
        slot=_number(slot_minutes), setup=_number(setup_minutes),
        game_minutes=_number(per_game_seconds / 60), seat_minutes=_number(per_seat_seconds / 60),
    ))

    bonus = _choose_bonus(kind, per_seat_seconds, planned_moves, increment_share)
    base_minutes = math.floor((per_seat_seconds - planned_moves * bonus) / 60 + 1e-9)
    setting = ClockSetting(base_minutes * 60, kind if bonus else IncrementKind.NONE, bonus)

    if kind is IncrementKind.NONE:
        reasons.append(Message(N_("No increment or delay was asked for.")))
    elif bonus:
        reasons.append(Message(
            N_("A %(bonus)s s %(kind)s adds up to %(total)s s over %(moves)s moves: the largest "
               "of %(friendly)s s that keeps it within %(share)s of a player's time.") if players
            else N_("A %(bonus)s s %(kind)s adds up to %(total)s s over %(moves)s moves: the "
                    "largest of %(friendly)s s that keeps it within %(share)s of a seat's time."),
            bonus=bonus, kind=kind_words(kind), total=_number(planned_moves * bonus),
            moves=_number(planned_moves), friendly=", ".join(str(b) for b in FRIENDLY_BONUSES),
            share=_percent(increment_share),
        ))
    else:
        reasons.append(Message(
            N_("Even the smallest %(kind)s (%(bonus)s s) would take more than %(share)s of a "
               "player's time, so there is none.") if players else
            N_("Even the smallest %(kind)s (%(bonus)s s) would take more than %(share)s of a "
               "seat's time, so there is none."),
            kind=kind_words(kind), bonus=FRIENDLY_BONUSES[1], share=_percent(increment_share),
        ))
    reasons.append(Message(
        N_("That leaves a base of %(base)s (rounded down to whole minutes): %(setting)s, that "
           "is %(description)s."),
        base=minutes_words(base_minutes), setting=format_setting(setting),
        description=setting.description(),
    ))

    seat_seconds = setting.max_seconds_for(planned_moves)
    worst_case_minutes = games * (seats * seat_seconds / 60 + setup_minutes)
    reasons.append(Message(
        N_("Worst case: %(games)s x (%(seats)s players x %(seat_minutes)s minutes + %(setup)s "
           "minutes set-up) = %(total)s minutes, within the %(slot)s-minute slot.") if players
        else N_("Worst case: %(games)s x (%(seats)s seats x %(seat_minutes)s minutes + "
                "%(setup)s minutes set-up) = %(total)s minutes, within the %(slot)s-minute slot."),
        games=_games(games), seats=seats, seat_minutes=_number(seat_seconds / 60),
        setup=_number(setup_minutes), total=_number(worst_case_minutes),
        slot=_number(slot_minutes),
    ))
    typical_seconds = setting.max_seconds_for(moves.mean)
    reasons.append(Message(
        N_("A game with %(moves)s moves per player in which every player uses all their time "
           "lasts %(minutes)s minutes; most games end sooner.") if players else
        N_("A game with %(moves)s moves per seat in which every seat uses all their time lasts "
           "%(minutes)s minutes; most games end sooner."),
        moves=_number(moves.mean), minutes=_number(seats * typical_seconds / 60),
    ))
    return ClockAdvice(setting, games, worst_case_minutes, tuple(reasons))


def _games(count: int) -> Message:
    if count == 1:
        return Message(N_("%(count)s game"), count=count)
    return Message(N_("%(count)s games"), count=count)


def worst_case_games(kind: str, games: int = 1, max_games: int | None = None) -> int:
    """The most games a match can take: single 1, best of N and fixed N: N, first to N: its
    ``max_games`` cap (required, since drawn games do not count)."""
    if not isinstance(games, int) or games < 1:
        raise ClockInputError(N_("a match needs at least one game, not %(games)r"), games=games)
    if kind == "single":
        return 1
    if kind in ("best_of", "fixed"):
        return games
    if kind == "first_to":
        if max_games is None:
            raise ClockInputError(
                N_("first to %(games)s wins has no longest length while draws do not count: give "
                   "it a max_games cap"),
                games=games
            )
        if max_games < games:
            raise ClockInputError(N_("max_games (%(max_games)s) is less than %(games)s"),
                                  max_games=max_games, games=games)
        return max_games
    raise ClockInputError(
        N_("unknown match format %(kind)r (formats: single, best_of, first_to, fixed)"), kind=kind
    )


def _worst_case_games(match: MatchFormatLike | int) -> tuple[int, Message]:
    if isinstance(match, int):
        if isinstance(match, bool) or match < 1:
            raise ClockInputError(N_("a match needs at least one game, not %(match)r"), match=match)
        if match == 1:
            return 1, Message(N_("The match is a single game."))
        return match, Message(N_("The match can run to %(games)s games."), games=match)
    games = match.max_games_needed()
    described = getattr(match, "description", None)
    description = described() if callable(described) else Message(match.describe())
    if games is None:
        raise ClockInputError(
            N_("the match (%(description)s) has no longest length: give it a max_games cap"),
            description=description
        )
    if games == 1:
        return 1, Message(N_("The match (%(description)s) is one game."),
                          description=description)
    return games, Message(N_("The match (%(description)s) can run to %(games)s games."),
                          description=description, games=games)


def _choose_bonus(kind: IncrementKind, seat_seconds: float, moves: float, share: float) -> int:
    if kind is IncrementKind.NONE:
        return 0
    fitting = [bonus for bonus in FRIENDLY_BONUSES if moves * bonus <= share * seat_seconds]
    for bonus in reversed(fitting):
        if seat_seconds - moves * bonus >= MIN_BASE_MINUTES * 60:
            return bonus
    return 0


def _check_parameters(
    slot_minutes: float, seats: int, setup_minutes: float, increment_share: float
) -> None:
    if not (math.isfinite(slot_minutes) and slot_minutes > 0):
        raise ClockInputError(
            N_("the time slot must be a positive number of minutes, not %(slot_minutes)s"),
            slot_minutes=slot_minutes
        )
    if not isinstance(seats, int) or seats < 1:
        raise ClockInputError(N_("a game needs at least one seat, not %(seats)r"), seats=seats)
    if not (math.isfinite(setup_minutes) and setup_minutes >= 0):
        raise ClockInputError(
            N_("the set-up allowance must be zero or more minutes, not %(setup_minutes)s"),
            setup_minutes=setup_minutes
        )
    if not 0 <= increment_share < 1:
        raise ClockInputError(
            N_("the increment share must be at least 0 and below 1, not %(increment_share)s"),
            increment_share=increment_share
        )


def _no_fit_message(
    slot_minutes: float, games: int, seats: int, setup_minutes: float, minimum_game: float
) -> Message:
    needed = games * minimum_game
    fitting_games = math.floor(slot_minutes / minimum_game + 1e-9)
    params = {"games": _games(games), "seats": seats, "minimum": MIN_BASE_MINUTES,
              "setup": _number(setup_minutes), "needed": _number(needed),
              "slot": _number(slot_minutes), "fit": math.ceil(needed - 1e-9)}
    if fitting_games >= 1:
        return Message(
            N_("no clock fits: %(games)s with %(seats)s clocks of at least %(minimum)s minute "
               "each and %(setup)s minutes of set-up per game need %(needed)s minutes, more "
               "than the %(slot)s-minute slot. A slot of at least %(fit)s minutes would fit, "
               "or a match of at most %(fitting)s in this slot."),
            fitting=_games(fitting_games), **params,
        )
    return Message(
        N_("no clock fits: %(games)s with %(seats)s clocks of at least %(minimum)s minute each "
           "and %(setup)s minutes of set-up per game need %(needed)s minutes, more than the "
           "%(slot)s-minute slot. A slot of at least %(fit)s minutes would fit; even one game "
           "does not fit this slot."),
        **params,
    )


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def _percent(share: float) -> Message:
    names = {0.25: N_("a quarter"), 0.5: N_("half"), 1 / 3: N_("a third")}
    for value, name in names.items():
        if abs(share - value) < 1e-9:
            return Message(name)
    return Message(N_("%(percent)s%%"), percent=f"{share * 100:.0f}")
