"""Play a bot tournament: with the Celery workers (default) or in this process."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from tqdm import tqdm

from botruns import selectors as bot_runs
from botruns import services as bot_tournaments
from botruns.models import BotRunStatus
from core.errors import ApplicationError
from players.counts import games_count
from players.permissions import SYSTEM
from tournaments.models import Tournament


class Command(BaseCommand):
    help = _("Start a tournament whose entrants are all bots and follow it to the end.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament", help="tournament id or slug")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--inline", action="store_true",
                            help="play in this process instead of sending games to workers")
        parser.add_argument("--move-seconds", type=float, default=None,
                            help="forfeit a bot that thinks longer than this on one move")
        parser.add_argument("--no-wait", action="store_true", help="start and return")
        parser.add_argument("--timeout", type=float, default=24 * 3600)

    def handle(self, *args: Any, **opts: Any) -> None:
        key = opts["tournament"]
        query = {"pk": int(key)} if key.isascii() and key.isdigit() else {"slug": key}
        tournament = Tournament.objects.filter(**query).first()
        if tournament is None:
            raise CommandError(_("No tournament %(key)r.") % {"key": key})
        try:
            run = bot_tournaments.bot_tournament_start(
                actor=SYSTEM, tournament=tournament, seed=opts["seed"],
                move_seconds=opts["move_seconds"], inline=opts["inline"],
            )
        except ApplicationError as error:
            raise CommandError(error.message) from None
        started = time.monotonic()
        if opts["inline"]:
            bot_tournaments.bot_run_inline(run)
        elif not opts["no_wait"]:
            self._follow(run, opts["timeout"])
        run.refresh_from_db()
        progress = bot_runs.bot_run_progress(run)
        elapsed = time.monotonic() - started
        self.stdout.write(
            _("%(tournament)s: %(status)s; %(games)s in %(seconds)s s (%(rate)s games/s)") % {
                "tournament": tournament.name, "status": str(run.get_status_display()).lower(),
                "games": games_count(progress.games_done),
                "seconds": number_format(elapsed, 1),
                "rate": number_format(progress.games_done / max(elapsed, 1e-9), 1)}
        )
        if run.status == BotRunStatus.FAILED:
            raise CommandError(run.message)

    def _follow(self, run: Any, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with tqdm(unit="game", desc=run.tournament.name) as bar:
            while time.monotonic() < deadline:
                run.refresh_from_db()
                progress = bot_runs.bot_run_progress(run)
                bar.total = progress.games_total
                bar.n = progress.games_done
                bar.set_postfix(rounds=f"{progress.rounds_done}/{progress.rounds_total or '?'}")
                bar.refresh()
                if run.status != BotRunStatus.RUNNING:
                    return
                time.sleep(0.5)
