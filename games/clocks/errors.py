"""Errors raised by the clock maths; each subclasses ``ValueError`` and keeps its marked
template and parameters apart (:class:`games.i18n.MessageError`)."""

from __future__ import annotations

from games.i18n import MessageError


class ClockError(MessageError):
    """Base class of every error caused by bad input to the clock maths."""


class ClockNotationError(ClockError):
    """A clock setting text cannot be read."""


class ClockInputError(ClockError):
    """A clock setting, a move duration or an advice parameter is out of range."""


class NoClockFitsError(ClockError):
    """No sensible clock setting makes the match fit the time slot.

    The message says what would fit: a longer slot, or a shorter match.
    """
