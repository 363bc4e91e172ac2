"""The tournament history's lines for check-in, worded in the reader's language (registered
into ``tournaments.history`` from this floor, so that arrows keep pointing down)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from playerlinks.checkins import CHECK_IN_CLOSED, CHECK_IN_OPENED
from tournaments import history
from tournaments.texts import names_text


def _opened(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Check-in for round %(round)d opened.") % {"round": round_number or 0}


def _closed(data: Mapping[str, Any], round_number: int | None) -> str:
    names = [str(name) for name in data.get("names", [])]
    if not names:
        return _("Check-in for round %(round)d closed: everyone is present.") % {
            "round": round_number or 0}
    if data.get("byes"):
        text = ngettext(
            "Check-in for round %(round)d closed: %(count)d absent, not paired (zero-point "
            "bye): %(names)s.",
            "Check-in for round %(round)d closed: %(count)d absent, not paired (zero-point "
            "byes): %(names)s.", len(names))
    else:
        text = ngettext(
            "Check-in for round %(round)d closed: %(count)d missing: %(names)s.",
            "Check-in for round %(round)d closed: %(count)d missing: %(names)s.", len(names))
    return text % {"round": round_number or 0, "count": len(names), "names": names_text(names)}


def register() -> None:
    history.DESCRIBERS[CHECK_IN_OPENED] = _opened
    history.DESCRIBERS[CHECK_IN_CLOSED] = _closed
    history.KIND_LABELS[CHECK_IN_OPENED] = gettext_lazy("Check-in opened")
    history.KIND_LABELS[CHECK_IN_CLOSED] = gettext_lazy("Check-in closed")
