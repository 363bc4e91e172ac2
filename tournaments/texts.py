"""Texts of the pure tournament cores (TRF, entry lists, tie-breaks) in the active language.

The cores mark their texts with ``games.i18n.N_`` and keep the parameters apart; these
functions translate the template, then fill it in.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments.trf import TrfError


def core_text(template: str, params: dict[str, object] | None = None) -> str:
    """A core's marked ``template`` translated, filled with ``params``."""
    text = gettext(template)
    return text % params if params else text


def trf_error_message(error: TrfError) -> str:
    """A TRF reader's error in the active language, with its line and column."""
    problem = core_text(error.template, error.params)
    if error.line is None:
        return problem
    values = {"line": error.line, "column": error.column, "problem": problem}
    if error.column is None:
        return gettext("line %(line)d: %(problem)s") % values
    return gettext("line %(line)d, column %(column)d: %(problem)s") % values
