"""Demo bot tournament for ``manage.py load_demo``: a Kugamai knockout between the demo
bots, sent to the Celery workers (``make run`` starts one), so the live page moves."""

from __future__ import annotations

from typing import Any

from botruns import services as bot_tournaments
from players.models import Club, Player
from tournaments import services
from tournaments.models import Tournament

BOT_CUP_SLUG = "kugamai-bot-cup"


def load(club: Club, organizer: Any) -> None:
    if Tournament.objects.filter(club=club, slug=BOT_CUP_SLUG).exists():
        return
    bots = list(Player.objects.filter(club=club, is_bot=True).order_by("id"))
    if len(bots) < 2:
        return
    cup = services.tournament_create(
        actor=organizer, club=club, name="Kugamai Bot Cup", game="kugamai", format="knockout",
        match_format={"kind": "first_to", "games": 3, "max_games": 9},
    )
    Tournament.objects.filter(pk=cup.pk).update(slug=BOT_CUP_SLUG)
    cup.slug = BOT_CUP_SLUG
    for index, bot in enumerate(bots):
        services.entrant_register(actor=organizer, tournament=cup, player=bot,
                                  rating=1600 - 10 * index)
    bot_tournaments.bot_tournament_start(actor=organizer, tournament=cup, seed=2026)
