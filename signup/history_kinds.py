"""The sign-up's lines in the tournament's history, and their wording (registered with
``tournaments.history`` when the app starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import history

SIGNED_UP = "signup_signed_up"
ACCEPTED = "signup_accepted"
DECLINED = "signup_declined"
WITHDRAWN = "signup_withdrawn"
MOVED_UP = "signup_moved_up"


def _signed_up(data: Mapping[str, Any], round_number: int | None) -> str:
    if data.get("status") == "waitlisted":
        text = _("%(name)s signed up and is on the waiting list.")
    else:
        text = _("%(name)s signed up.")
    text = text % {"name": data.get("name", "")}
    if data.get("matched"):
        text += " " + _("Matched to the club's player of that name.")
    return text


def _accepted(data: Mapping[str, Any], round_number: int | None) -> str:
    text = _("Sign-up of %(name)s accepted.") % {"name": data.get("name", "")}
    if data.get("new_player"):
        text += " " + _("New player created.")
    return text


def _declined(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Sign-up of %(name)s declined.") % {"name": data.get("name", "")}


def _withdrawn(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Sign-up of %(name)s withdrawn.") % {"name": data.get("name", "")}


def _moved_up(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(name)s moved up from the waiting list.") % {"name": data.get("name", "")}


def register() -> None:
    history.DESCRIBERS.update({SIGNED_UP: _signed_up, ACCEPTED: _accepted,
                               DECLINED: _declined, WITHDRAWN: _withdrawn,
                               MOVED_UP: _moved_up})
    history.KIND_LABELS.update({
        SIGNED_UP: gettext_lazy("Signed up"), ACCEPTED: gettext_lazy("Sign-up accepted"),
        DECLINED: gettext_lazy("Sign-up declined"), WITHDRAWN: gettext_lazy("Sign-up withdrawn"),
        MOVED_UP: gettext_lazy("Moved up from the waiting list")})
