"""Checks the league services share."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from leagues.models import League, Season, SeasonStatus
from leagues.permissions import ensure_can_manage_league


def whole(value: Any, *, field: str, low: int, high: int) -> int:
    """``value`` as a whole number within ``low``..``high``, or refused naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApplicationError(_("Give a whole number."), field=field)
    if not low <= value <= high:
        raise ApplicationError(_("Give a number from %(low)d to %(high)d.")
                               % {"low": low, "high": high}, field=field)
    return value


def lock_league(actor: Any, league: League) -> League:
    """The league row, locked for the transaction, after checking ``actor`` manages it."""
    ensure_can_manage_league(actor, league)
    return League.objects.select_for_update().get(pk=league.pk)


def lock_season(season: Season) -> Season:
    return Season.objects.select_related("league").select_for_update(of=("self",)).get(
        pk=season.pk)


def ensure_planning(season: Season, doing: str) -> None:
    if season.status != SeasonStatus.PLANNING:
        raise ApplicationError(
            _("%(doing)s only before the season starts; it is %(status)s.")
            % {"doing": doing, "status": str(season.get_status_display()).lower()},
            field="season")


def ensure_running(season: Season, doing: str) -> None:
    if season.status != SeasonStatus.RUNNING:
        raise ApplicationError(
            _("%(doing)s only while the season runs; it is %(status)s.")
            % {"doing": doing, "status": str(season.get_status_display()).lower()},
            field="season")
