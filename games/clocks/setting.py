"""Clock settings and their compact text form.

A setting is a base time per seat plus an optional per-move bonus of one of three kinds
(each seat has its own clock, in team games too):

* ``fischer`` increment: after each move the seat's clock gains the increment.
* ``bronstein`` delay: after each move the clock gains back the time that move used, up to
  the delay.
* ``simple_delay``: at each move the clock waits ``delay`` seconds before it starts running.

Text form (spaces optional, case ignored)::

    15          15 minutes, no increment ("15+0" is read the same)
    15+10       15 minutes, Fischer increment of 10 seconds
    15 d5       15 minutes, simple delay of 5 seconds
    15 b5       15 minutes, Bronstein delay of 5 seconds
    1:30+2      1 minute 30 seconds, Fischer 2 seconds (base as minutes:seconds)

:func:`format_setting` writes the canonical text: whole minutes without ``:00``, one space
before a delay, no bonus part when there is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from games.clocks.errors import ClockInputError, ClockNotationError
from games.i18n import N_, Message

MAX_BASE_SECONDS = 24 * 3600
MAX_BONUS_SECONDS = 3600


class IncrementKind(StrEnum):
    NONE = "none"
    FISCHER = "fischer"
    BRONSTEIN = "bronstein"
    SIMPLE_DELAY = "simple_delay"


_KIND_WORDS = {
    IncrementKind.FISCHER: N_("Fischer increment"),
    IncrementKind.BRONSTEIN: N_("Bronstein delay"),
    IncrementKind.SIMPLE_DELAY: N_("simple delay"),
}


def kind_words(kind: IncrementKind) -> Message:
    """The kind of bonus in words ("Fischer increment"), translatable."""
    return Message(_KIND_WORDS[kind])


@dataclass(frozen=True, slots=True)
class ClockSetting:
    """Base time per seat in seconds, the kind of per-move bonus and its seconds."""

    base_seconds: int
    kind: IncrementKind = IncrementKind.NONE
    bonus_seconds: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.base_seconds, int) or not 0 < self.base_seconds <= MAX_BASE_SECONDS:
            raise ClockInputError(
                N_("the base time must be a whole number of seconds from 1 to "
                   "%(most)s, not %(base_seconds)r"),
                most=MAX_BASE_SECONDS, base_seconds=self.base_seconds
            )
        try:
            kind = IncrementKind(self.kind)
        except ValueError:
            kinds = ", ".join(kind.value for kind in IncrementKind)
            raise ClockInputError(
                N_("unknown increment kind %(kind)r (kinds: %(kinds)s)"),
                kind=self.kind, kinds=kinds
            ) from None
        object.__setattr__(self, "kind", kind)
        if not isinstance(self.bonus_seconds, int) or not (
            0 <= self.bonus_seconds <= MAX_BONUS_SECONDS
        ):
            raise ClockInputError(
                N_("the increment or delay must be a whole number of seconds from 0 to "
                   "%(most)s, not %(bonus_seconds)r"),
                most=MAX_BONUS_SECONDS, bonus_seconds=self.bonus_seconds
            )
        if kind is IncrementKind.NONE and self.bonus_seconds:
            raise ClockInputError(
                N_("a clock without increment cannot have increment seconds; choose fischer, "
                   "bronstein or simple_delay")
            )
        if kind is not IncrementKind.NONE and not self.bonus_seconds:
            object.__setattr__(self, "kind", IncrementKind.NONE)

    @classmethod
    def parse(cls, text: str) -> ClockSetting:
        return parse_setting(text)

    def __str__(self) -> str:
        return format_setting(self)

    def max_seconds_for(self, moves: float) -> float:
        """The most clock time one seat can use in a game where it makes ``moves`` moves.

        With every kind of bonus the seat can spend its base time plus one bonus per move
        (a Bronstein or simple delay is only fully used by a move that lasts at least the
        delay).
        """
        return self.base_seconds + self.bonus_seconds * moves

    def describe(self) -> str:
        """The setting in words: "15 minutes + 10 s Fischer increment per move"."""
        return str(self.description())

    def description(self) -> Message:
        """:meth:`describe`, translatable."""
        base = duration_words(self.base_seconds)
        if self.kind is IncrementKind.NONE:
            return Message(N_("%(base)s, no increment"), base=base)
        return Message(N_("%(base)s + %(bonus)s s %(kind)s per move"), base=base,
                       bonus=self.bonus_seconds, kind=kind_words(self.kind))


_TEXT = re.compile(
    r"^(?P<minutes>\d+)(?::(?P<seconds>[0-5]\d))?"
    r"\s*(?:(?P<sign>[+dbDB])\s*(?P<bonus>\d+))?$"
)
_KIND_BY_SIGN = {
    "+": IncrementKind.FISCHER,
    "d": IncrementKind.SIMPLE_DELAY,
    "b": IncrementKind.BRONSTEIN,
}


def parse_setting(text: str) -> ClockSetting:
    """Read a setting from its text form (see the module docstring)."""
    match = _TEXT.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ClockNotationError(
            N_("cannot read clock setting %(text)r: write minutes and an optional bonus, like "
               "\"15\", \"15+10\" (Fischer), \"15 d5\" (simple delay), \"15 b5\" (Bronstein) or "
               "\"1:30+2\""),
            text=text
        )
    base = int(match["minutes"]) * 60 + int(match["seconds"] or 0)
    if match["sign"] is None:
        return ClockSetting(base)
    kind = _KIND_BY_SIGN[match["sign"].lower()]
    return ClockSetting(base, kind, int(match["bonus"]))


def format_setting(setting: ClockSetting) -> str:
    """The canonical text of a setting."""
    minutes, seconds = divmod(setting.base_seconds, 60)
    base = f"{minutes}" if not seconds else f"{minutes}:{seconds:02d}"
    if setting.kind is IncrementKind.FISCHER:
        return f"{base}+{setting.bonus_seconds}"
    if setting.kind is IncrementKind.SIMPLE_DELAY:
        return f"{base} d{setting.bonus_seconds}"
    if setting.kind is IncrementKind.BRONSTEIN:
        return f"{base} b{setting.bonus_seconds}"
    return base


def duration_words(seconds: int) -> Message:
    """A clock time in words: "1 minute", "15 minutes", "30 seconds", "1 min 30 s"."""
    minutes, rest = divmod(seconds, 60)
    if not rest:
        return minutes_words(minutes)
    if not minutes:
        return Message(N_("%(seconds)s seconds"), seconds=rest)
    return Message(N_("%(minutes)s min %(seconds)s s"), minutes=minutes, seconds=rest)


def minutes_words(minutes: int | str) -> Message:
    """ "1 minute" or "15 minutes" (a number already written out may be given)."""
    if minutes in (1, "1"):
        return Message(N_("%(minutes)s minute"), minutes=minutes)
    return Message(N_("%(minutes)s minutes"), minutes=minutes)
