"""A tournament's history: every step of the event as a stored fact, worded when read.

Services call :func:`record` inside their transaction, so a step that is refused or rolled
back leaves no line. Lines keep facts, not sentences (names as they were, numbers, codes),
and :func:`describe` words them in the language of whoever reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from players.permissions import actor_user
from tournaments.models import Tournament, TournamentEvent
from tournaments.texts import broken_rule_text


class EventKind:
    """The kinds of history lines (stored as these strings)."""

    ROUND_PAIRED = "round_paired"
    ROUND_RELEASED = "round_released"
    ROUND_UNPAIRED = "round_unpaired"
    PAIRING_EDITED = "pairing_edited"


def record(tournament: Tournament, kind: str, *, actor: Any = None,
           round_number: int | None = None, board: int | None = None,
           **data: Any) -> TournamentEvent:
    """Store one history line. ``data`` must be JSON: names, numbers and codes, never
    translated text."""
    user = actor_user(actor)  # None for the system (bot runs) and anonymous users
    name = user.get_username() if user is not None else getattr(actor, "username", "")
    return TournamentEvent.objects.create(
        tournament=tournament, kind=kind, actor=user, actor_name=name,
        round_number=round_number, board=board, data=data,
    )


def _round_paired(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Round %(round)s paired (%(boards)s boards).") % {
        "round": round_number, "boards": data.get("boards", "?")}


def _round_released(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Round %(round)s released.") % {"round": round_number}


def _round_unpaired(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Round %(round)s unpaired.") % {"round": round_number}


def _pairing_edited(data: Mapping[str, Any], round_number: int | None) -> str:
    actions = {"swap_boards": _("entrants swapped between boards"),
               "swap_first_move": _("first move swapped"), "manual": _("paired by hand")}
    boards = "; ".join(
        _("board %(board)s: %(before)s → %(after)s") % {
            "board": change.get("board"),
            "before": " – ".join(x or _("bye") for x in change.get("before", [])),
            "after": " – ".join(x or _("bye") for x in change.get("after", []))}
        for change in data.get("changes", []))
    text = _("Round %(round)s edited (%(action)s): %(boards)s.") % {
        "round": round_number, "action": actions.get(data.get("action", ""), ""),
        "boards": boards}
    broken = [broken_rule_text(b.get("rule", ""), list(b.get("names", [])))
              for b in data.get("broken", [])]
    return text + (" " + _("Breaks: %(rules)s.") % {"rules": "; ".join(broken)}
                   if broken else "")


#: Wording per kind; kinds added later register here.
DESCRIBERS: dict[str, Callable[[Mapping[str, Any], int | None], str]] = {
    EventKind.ROUND_PAIRED: _round_paired,
    EventKind.ROUND_RELEASED: _round_released,
    EventKind.ROUND_UNPAIRED: _round_unpaired,
    EventKind.PAIRING_EDITED: _pairing_edited,
}


def describe(event: TournamentEvent) -> str:
    """The line in the active language."""
    wording = DESCRIBERS.get(event.kind)
    if wording is None:
        return event.kind.replace("_", " ")
    return wording(event.data or {}, event.round_number)
