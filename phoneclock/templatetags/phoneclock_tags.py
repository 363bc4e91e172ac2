"""The round page's clock panel: a phone clock link per board, and the advice measured on
the phone clock for the round's setting (matches' admin template includes it)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.clocks.measured import MIN_MEASURED_GAMES
from phoneclock import selectors
from phoneclock.models import ClockSession
from tournaments.models import Round

register = template.Library()


@register.inclusion_tag("phoneclock/_round_clocks_panel.html")
def round_clocks(round_: Round | None) -> dict[str, Any]:
    if round_ is None or round_.pk is None:
        return {"boards": []}
    boards = []
    sessions: dict[int, list[ClockSession]] = {}
    for session in ClockSession.objects.filter(pairing__round=round_).order_by("game_number"):
        sessions.setdefault(session.pairing_id, []).append(session)
    for pairing in selectors.round_boards(round_):
        game = selectors.next_game_number(pairing)
        boards.append({"board": pairing.board,
                       "url": reverse("phoneclock:board", args=[pairing.pk, game]),
                       "game": game, "sessions": sessions.get(pairing.pk, [])})
    advice, measured, text = selectors.round_measured_advice(round_)
    return {"boards": boards if round_.is_released else [], "advice": advice,
            "reasons": selectors.reasons(advice) if advice else [], "measured": measured,
            "setting": text, "minimum": MIN_MEASURED_GAMES}
