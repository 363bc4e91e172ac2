"""Rebuild ratings from the game history: every pool, one club's, or one game family's."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from config.errors import ApplicationError
from games.engines import GAME_FAMILY
from players.models import Club
from ratings import services as rating_services
from ratings.models import RATING_FAMILIES


class Command(BaseCommand):
    help = (
        "Recompute ratings from the rated games, oldest first, and rewrite the rating "
        "history (use after correcting past results or changing a club's rating settings)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="Only this club (its id or slug).")
        parser.add_argument(
            "--game",
            help="Only this game's pool: a game name (kazambi-pairs rates in the kazambi "
            f"pool) or a family ({', '.join(RATING_FAMILIES)}).",
        )
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, **options: Any) -> None:
        club = _club(options["club"]) if options["club"] else None
        family = _family(options["game"]) if options["game"] else None
        total = rating_services.rating_pool_game_count(club, family)
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
                f"club {summary.club_id} {summary.family} ({summary.system}): "
                f"{summary.games} games, {summary.players} players"
            )
        games = sum(summary.games for summary in summaries)
        self.stdout.write(
            self.style.SUCCESS(
                f"Recomputed {len(summaries)} pool(s), {games} games in {elapsed:.1f} s."
            )
        )


def _club(value: str) -> Club:
    club = Club.objects.filter(slug=value).first()
    if club is None and value.isascii() and value.isdigit():
        club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        raise CommandError(f"No club with id or slug {value!r}.")
    return club


def _family(value: str) -> str:
    if value in RATING_FAMILIES:
        return value
    if value in GAME_FAMILY:
        return GAME_FAMILY[value]
    known = ", ".join(sorted({*GAME_FAMILY, *RATING_FAMILIES}))
    raise CommandError(f"Unknown game {value!r}; choose one of {known}.")
