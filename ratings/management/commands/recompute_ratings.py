"""Rebuild ratings from the game history: every pool, one club's, or one game family's."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from tqdm import tqdm

from core.errors import ApplicationError
from games.engines import GAME_FAMILY
from players.counts import games_count, players_count
from players.models import Club
from ratings import services as rating_services
from ratings.models import RATING_FAMILIES
from ratings.selectors import rating_pool_game_count


class Command(BaseCommand):
    help = _(
        "Recompute ratings from the rated games, oldest first, and rewrite the rating "
        "history (use after correcting past results or changing a club's rating settings)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help=_("Only this club (its id or slug)."))
        parser.add_argument(
            "--game",
            help=_("Only this game's pool: a game name (kazambi-pairs rates in the kazambi "
                   "pool) or a family (%(families)s).") % {"families": ", ".join(RATING_FAMILIES)},
        )
        parser.add_argument("--no-progress", action="store_true", help=_("No progress bar."))

    def handle(self, *args: Any, **options: Any) -> None:
        club = _club(options["club"]) if options["club"] else None
        family = _family(options["game"]) if options["game"] else None
        total = rating_pool_game_count(club, family)
        started = time.perf_counter()
        with tqdm(
            total=total, unit="game", disable=options["no_progress"], file=self.stderr
        ) as bar:
            try:
                summaries = rating_services.ratings_recompute(
                    club=club, family=family, progress=bar.update
                )
            except ApplicationError as error:
                raise CommandError(error.message) from None
        elapsed = time.perf_counter() - started
        for summary in summaries:
            self.stdout.write(
                _("club %(club)s %(family)s (%(system)s): %(games)s, %(players)s") % {
                    "club": summary.club_id, "family": summary.family,
                    "system": summary.system, "games": games_count(summary.games),
                    "players": players_count(summary.players)}
            )
        games = sum(summary.games for summary in summaries)
        pools = ngettext("Recomputed %(count)d pool", "Recomputed %(count)d pools",
                         len(summaries)) % {"count": len(summaries)}
        self.stdout.write(self.style.SUCCESS(
            _("%(pools)s, %(games)s in %(seconds)s s.") % {
                "pools": pools, "games": games_count(games),
                "seconds": number_format(elapsed, 1)}))


def _club(value: str) -> Club:
    club = Club.objects.filter(slug=value).first()
    if club is None and value.isascii() and value.isdigit():
        club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        raise CommandError(_("No club with id or slug %(club)r.") % {"club": value})
    return club


def _family(value: str) -> str:
    if value in RATING_FAMILIES:
        return value
    if value in GAME_FAMILY:
        return GAME_FAMILY[value]
    known = ", ".join(sorted({*GAME_FAMILY, *RATING_FAMILIES}))
    raise CommandError(_("Unknown game %(game)r; choose one of %(known)s.")
                       % {"game": value, "known": known})
