"""The players' reports of a round, for the round's admin page (an include there)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from reporting import selectors
from tournaments.models import Round

register = template.Library()


@register.simple_tag
def round_reports(round_: Any) -> dict[str, Any] | None:
    """Per board: its report state and both claims; the confirm-all and queue links."""
    if not isinstance(round_, Round) or round_.pk is None or round_.released_at is None:
        return None
    if not selectors.round_has_reports(round_):  # one query on a round without reports
        return {"boards": [], "agreed": 0, "issues": 0}
    boards = selectors.round_boards(round_)
    return {
        "boards": boards,
        "agreed": sum(1 for b in boards if b.is_agreed),
        "issues": sum(1 for b in boards if b.is_issue),
        "confirm_round_url": reverse("admin:reporting_confirm_round", args=[round_.pk]),
        "queue_url": reverse("admin:reporting_queue"),
    }


@register.simple_tag
def confirm_url(pairing: Any) -> str:
    return reverse("admin:reporting_confirm", args=[pairing.pk])


@register.simple_tag
def resolve_url(pairing: Any) -> str:
    return reverse("admin:reporting_resolve", args=[pairing.pk])
