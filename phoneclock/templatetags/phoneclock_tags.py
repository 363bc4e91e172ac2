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
from tournaments.selectors import match_format_of

register = template.Library()


@register.inclusion_tag("phoneclock/_round_clocks_panel.html")
def round_clocks(round_: Round | None) -> dict[str, Any]:
    if round_ is None or round_.pk is None:
        return {"boards": []}
    boards = []
    sessions: dict[int, list[ClockSession]] = {}
    for session in ClockSession.objects.filter(pairing__round=round_).order_by("game_number"):
        sessions.setdefault(session.pairing_id, []).append(session)
    most = match_format_of(round_.tournament).max_games_needed() or 1
    for pairing in selectors.round_boards(round_):
        finished = {s.game_number for s in sessions.get(pairing.pk, []) if s.finish}
        game = next((n for n in range(1, most + 1) if n not in finished), most)
        boards.append({"board": pairing.board,
                       "url": reverse("phoneclock:board", args=[pairing.pk, game]),
                       "game": game, "sessions": sessions.get(pairing.pk, [])})
    advice, measured, text = selectors.round_measured_advice(round_, boards=len(boards))
    return {"boards": boards if round_.is_released else [], "advice": advice,
            "reasons": selectors.reasons(advice) if advice else [], "measured": measured,
            "setting": text, "minimum": MIN_MEASURED_GAMES}
