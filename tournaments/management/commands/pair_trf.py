"""Print the next round of a TRF file in the plain FIDE pairing-program format."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.texts import trf_error_message
from tournaments.trf import TrfError, format_pairings, pair_trf, read_trf_text


class Command(BaseCommand):
    help = _(
        "Pair the next round of a TRF file (FIDE Dutch, 2025 rules) and print it: the pair "
        "count, then one 'white black' line per board (the bye as 'player 0'). A file that "
        "cannot be read, or a round with no legal pairing, ends with an error and exit "
        "status 1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help=_("a TRF file with an 'XXR n' line"))

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            pairs = pair_trf(read_trf_text(options["file"]))
        except OSError as error:
            raise CommandError(str(error)) from None
        except TrfError as error:
            raise CommandError(trf_error_message(error)) from None
        self.stdout.write(format_pairings(pairs), ending="")
