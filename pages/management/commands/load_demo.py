"""Load the demo data (idempotent: running it again reuses what exists).

It lives on the top floor because it fills every floor below: players, tournaments with
their results (matches) and a bot cup (botruns).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from botruns import demo as bot_demo
from matches import demo as match_demo
from players.demo import load_players


class Command(BaseCommand):
    help = "Load a small demo: a club, a dozen players, bots and tournaments."

    def handle(self, *args: Any, **options: Any) -> None:
        organizer = get_user_model().objects.filter(is_superuser=True).order_by("id").first()
        if organizer is None:
            organizer = get_user_model().objects.create_user("organizer")
        club = load_players(organizer)
        match_demo.load(club=club, organizer=organizer)
        bot_demo.load(club=club, organizer=organizer)
        players = club.players.count()
        self.stdout.write(ngettext("Demo data ready: %(club)s with %(count)d player.",
                                   "Demo data ready: %(club)s with %(count)d players.",
                                   players) % {"club": club.name, "count": players})
