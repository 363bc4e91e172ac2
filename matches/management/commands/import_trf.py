"""Import a Swiss tournament from a TRF-16 file into a club."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.errors import ApplicationError
from matches.services.imports import tournament_import_trf
from players.models import Club
from tournaments.trf import read_trf_text


class Command(BaseCommand):
    help = "Import a TRF-16 file as a running Swiss tournament of a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--club", required=True, help="club slug")
        parser.add_argument("--game", default="kazambi")
        parser.add_argument("--name", help="tournament name (default: the file's 012 line)")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"There is no club {options['club']!r}.")
        actor = get_user_model().objects.filter(is_superuser=True).order_by("id").first()
        if actor is None:
            raise CommandError("Importing needs a site administrator account.")
        try:
            tournament = tournament_import_trf(actor=actor, club=club,
                                               text=read_trf_text(options["file"]),
                                               game=options["game"], name=options["name"])
        except OSError as error:
            raise CommandError(str(error)) from None
        except ApplicationError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Imported {tournament} (id {tournament.pk}) with "
                          f"{tournament.entrants.count()} entrants.")
