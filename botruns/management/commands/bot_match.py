"""Pit two bots against each other on duplicate deals and print evaluation statistics."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext
from tqdm import tqdm

from core import seed_secret
from games.bots.evaluation import EvaluationError, Sprt
from games.bots.process.sandbox import Sandbox
from games.clocks.setting import parse_setting
from games.engines import ENGINE_NAMES
from games.series.head_to_head import play_match
from games.series.targets import spec_from_text


class Command(BaseCommand):
    help = ("Play bot A against bot B on duplicate deal pairs: Elo difference with a 95% "
            "interval, LOS, pentanomial statistics, optional SPRT stop. Every bot plays in "
            "its own process; games spread over --concurrency worker processes.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=ENGINE_NAMES)
        parser.add_argument(
            "bot_a", help='a built-in kind (random, greedy, mcts, solver), kind:{"iterations": '
            '200}, bot:NAME (installed in BOTS_DIR), cmd:"COMMAND LINE" or a bot folder')
        parser.add_argument("bot_b")
        parser.add_argument("--pairs", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--options", default="{}", help="game options as JSON")
        parser.add_argument("--sprt", default=None, metavar="ELO0,ELO1",
                            help="stop early when the SPRT accepts H0 or H1 (alpha=beta=0.05)")
        parser.add_argument("--sprt-model", default="logistic",
                            choices=["logistic", "normalized"],
                            help="what the SPRT's Elo bounds mean (normalized: fastchess's)")
        parser.add_argument("--concurrency", type=int, default=1,
                            help="games played at once, each by its own worker process")
        parser.add_argument("--clock", default=None, help='a chess clock per seat, e.g. "1+1"')
        parser.add_argument("--move-seconds", type=float, default=None,
                            help="a limit for every move")
        parser.add_argument("--secret", default=None,
                            help="the secret deals and bot seeds are drawn from "
                            "(default: BOT_SEED_SECRET)")

    def handle(self, *args: Any, **opts: Any) -> None:
        self.warn_if_predictable(opts["secret"])
        try:
            sprt = None
            if opts["sprt"]:
                elo0, elo1 = (float(x) for x in opts["sprt"].split(","))
                sprt = Sprt(elo0=elo0, elo1=elo1, model=opts["sprt_model"])
            bot_a = spec_from_text(opts["bot_a"], settings.BOTS_DIR)
            bot_b = spec_from_text(opts["bot_b"], settings.BOTS_DIR)
            clock = parse_setting(opts["clock"]) if opts["clock"] else None
            with tqdm(total=2 * opts["pairs"], unit="game", disable=None) as bar:
                report = play_match(
                    opts["game"], bot_a, bot_b, pairs=opts["pairs"], seed=opts["seed"],
                    options=json.loads(opts["options"]), sprt=sprt,
                    secret=opts["secret"] or settings.BOT_SEED_SECRET,
                    concurrency=opts["concurrency"], clock=clock,
                    move_seconds=opts["move_seconds"], bots_dir=settings.BOTS_DIR,
                    sandbox=Sandbox(isolation=settings.BOT_ISOLATION),
                    on_game=lambda job, outcome: bar.update(1),
                )
        except (ValueError, EvaluationError) as error:
            raise CommandError(str(error)) from None
        for line in report.lines(opts["bot_a"], opts["bot_b"]):
            self.stdout.write(line)

    def warn_if_predictable(self, secret: str | None) -> None:
        """Say so when the deals and seeds derive from a secret others may know."""
        weakness = (seed_secret.weakness(secret) if secret
                    else getattr(settings, "BOT_SEED_SECRET_WEAKNESS", ""))
        reasons = {
            seed_secret.SHORT: gettext("the secret has fewer than %(count)d characters")
            % {"count": seed_secret.MIN_LENGTH},
            seed_secret.PLACEHOLDER: gettext("the secret looks like a placeholder"),
            seed_secret.DEVELOPMENT: gettext("it derives from the public development key"),
        }
        if weakness:
            self.stderr.write(self.style.WARNING(gettext(
                "Warning: deals and bot seeds are predictable (%(reason)s): anyone who "
                "knows the secret can rebuild hidden hands and the bots' seeds. Set "
                "BOT_SEED_SECRET (or SECRET_KEY) to a long random text, or give --secret "
                "one.") % {"reason": reasons[weakness]}))
