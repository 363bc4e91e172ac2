"""Check a bot program against the protocol: a few games against the random bot."""

from __future__ import annotations

import argparse
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bots.process.check import check_bot
from games.bots.process.installed import InstalledBotError
from games.bots.process.sandbox import Sandbox, SandboxError
from games.engines import ENGINE_NAMES
from games.series.referee import RefereeOutcome
from games.series.targets import resolve_target


class Command(BaseCommand):
    help = _("Play a bot program (a command line, a folder with bot.toml, or a bot installed "
            "in BOTS_DIR) against the random bot and report every protocol error with the "
            "line that caused it.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("program", nargs=argparse.REMAINDER,
                            help="the program and its arguments (after bot_check's options)")
        parser.add_argument("--game", action="append", choices=ENGINE_NAMES,
                            help="a game to check (repeat it; default: the bot's games)")
        parser.add_argument("--games-each", type=int, default=2,
                            help="games per game, the bot's side alternating (default 2)")
        parser.add_argument("--move-seconds", type=float, default=5.0)

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            target = resolve_target(opts["program"], settings.BOTS_DIR)
            report = check_bot(
                target, games=opts["game"], games_each=opts["games_each"],
                move_seconds=opts["move_seconds"], bots_dir=settings.BOTS_DIR,
                sandbox=Sandbox(isolation=settings.BOT_ISOLATION), on_game=self._played,
            )
        except (InstalledBotError, SandboxError, ValueError) as error:
            raise CommandError(str(error)) from None
        for line in report.lines():
            self.stdout.write(line)
        if not report.passed:
            count = len(report.problems)
            raise CommandError(ngettext("%(count)d protocol error", "%(count)d protocol errors",
                                        count) % {"count": count})

    def _played(self, game: str, number: int, outcome: RefereeOutcome) -> None:
        verdict = "ok" if outcome.termination == "normal" else outcome.fault
        moves = len(outcome.record["moves"])
        self.stdout.write("  " + ngettext(
            "%(game)s game %(number)d: %(moves)d move, %(verdict)s",
            "%(game)s game %(number)d: %(moves)d moves, %(verdict)s", moves) % {
                "game": game, "number": number, "moves": moves, "verdict": verdict})
