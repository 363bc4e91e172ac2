"""Write a tournament as TRF-16 or its standings as CSV."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import Tournament


class Command(BaseCommand):
    help = _("Export a tournament: TRF-16 (default) or standings CSV, to stdout or a file.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help=_("tournament id"))
        parser.add_argument("--format", choices=["trf", "csv"], default="trf")
        parser.add_argument("--output", "-o", help=_("file to write (default: stdout)"))

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.select_related("club").filter(
            pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(_("There is no tournament %(id)s.") % {"id": options["tournament"]})
        if options["format"] == "csv":
            text = selectors.standings_csv(tournament)
        else:
            text = selectors.tournament_trf(tournament)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            self.stdout.write(text, ending="")
