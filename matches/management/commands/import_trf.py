"""Import a Swiss tournament from a TRF-16 file into a club."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from matches.services.imports import tournament_import_trf
from players.models import Club
from tournaments.trf import read_trf_text


class Command(BaseCommand):
    help = _("Import a TRF-16 file as a running Swiss tournament of a club.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--club", required=True, help=_("club slug"))
        parser.add_argument("--game", default="kazambi")
        parser.add_argument("--name", help=_("tournament name (default: the file's 012 line)"))
        rated = parser.add_mutually_exclusive_group()
        rated.add_argument("--rated", dest="rated", action="store_true", default=None,
                           help=_("rate the games even if the club already holds them"))
        rated.add_argument("--unrated", dest="rated", action="store_false",
                           help=_("do not rate the games (default: rated unless the club "
                                  "already holds them)"))

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(_("There is no club %(club)r.") % {"club": options["club"]})
        actor = get_user_model().objects.filter(is_superuser=True).order_by("id").first()
        if actor is None:
            raise CommandError(_("Importing needs a site administrator account."))
        try:
            tournament = tournament_import_trf(actor=actor, club=club,
                                               text=read_trf_text(options["file"]),
                                               game=options["game"], name=options["name"],
                                               rated=options["rated"],
                                               file_name=os.path.basename(options["file"]))
        except OSError as error:
            raise CommandError(str(error)) from None
        except ApplicationError as error:
            raise CommandError(error.message) from None
        entrants = tournament.entrants.count()
        self.stdout.write(ngettext("Imported %(tournament)s (id %(id)d) with %(count)d entrant.",
                                   "Imported %(tournament)s (id %(id)d) with %(count)d entrants.",
                                   entrants) % {"tournament": tournament, "id": tournament.pk,
                                                "count": entrants})
