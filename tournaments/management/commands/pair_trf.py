"""Print the next round of a TRF-16 file in the plain FIDE pairing-program format."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Pair the next round of a TRF-16 file (FIDE Dutch) and print it: the pair count, " \
           "then one 'first second' line per board (the bye as 'player 0')."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a TRF-16 file with an 'XXR n' line")

    def handle(self, *args: Any, **options: Any) -> None:
        from tournaments.trf import TrfError, format_pairings, pair_trf

        try:
            with open(options["file"], encoding="utf-8") as handle:
                pairs = pair_trf(handle.read())
        except (OSError, TrfError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(format_pairings(pairs), ending="")
