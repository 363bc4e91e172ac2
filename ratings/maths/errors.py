"""Errors raised by the rating maths.

Bad input (an impossible score, a negative deviation, games out of date order) raises a
subclass of ``ValueError`` whose message says what to fix.
"""

from __future__ import annotations


class RatingError(ValueError):
    """Base class of every error caused by bad input to the rating maths.

    ``template`` is the English text (marked with ``games.i18n.N_`` where people may read
    it) and ``params`` fill it in; a shell translates the template, then fills it."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class RatingConfigError(RatingError):
    """A rating parameter is out of range."""


class RatingInputError(RatingError):
    """A rating, a score or a game given to the rating maths is invalid."""
