"""Load the demo data (idempotent: running it again reuses what exists)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

# Each app that has demo data exposes ``load(club, organizer)`` in this module path.
DEMO_LOADERS = ["tournaments.demo", "games.demo"]


class Command(BaseCommand):
    help = "Load a small demo: a club, a dozen players, bots and tournaments."

    def handle(self, *args: Any, **options: Any) -> None:
        from players.demo import load_players

        organizer = get_user_model().objects.filter(is_superuser=True).order_by("id").first()
        if organizer is None:
            organizer = get_user_model().objects.create_user("organizer")
        club = load_players(organizer)
        for module_name in DEMO_LOADERS:
            try:
                module = import_module(module_name)
            except ModuleNotFoundError:
                continue
            module.load(club=club, organizer=organizer)
        self.stdout.write(f"Demo data ready: {club.name} with {club.players.count()} players.")
