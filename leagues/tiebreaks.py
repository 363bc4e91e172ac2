"""The league's team tie-breaks (``tournaments.standings.team_matches``' registry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from leagues.models import Division
from tournaments.standings.team_matches import TEAM_TIEBREAKS
from tournaments.systems import system_of


def clean_tiebreaks(keys: Sequence[str] | None) -> list[str]:
    """The tie-break keys checked (known, each once); None or empty: the division's system
    decides (its default tie-breaks)."""
    if keys is None:
        return []
    if isinstance(keys, str) or not all(isinstance(key, str) for key in keys):
        raise ApplicationError(_("Tie-breaks must be a list of tie-break keys."),
                               field="tiebreaks")
    found = list(keys)
    if len(set(found)) != len(found):
        raise ApplicationError(_("A tie-break is listed twice."), field="tiebreaks")
    unknown = [key for key in found if key not in TEAM_TIEBREAKS]
    if unknown:
        raise ApplicationError(_("Unknown tie-break %(key)r; choose from %(keys)s.")
                               % {"key": unknown[0][:40], "keys": ", ".join(TEAM_TIEBREAKS)},
                               field="tiebreaks")
    return found


def division_tiebreaks(division: Division) -> list[str]:
    """The tie-breaks of a division's table: the league's, or its system's defaults."""
    chosen: Any = division.season.league.tiebreaks
    if chosen:
        return list(chosen)
    return list(system_of(division.system).default_tiebreaks)
