"""Pit two bots against each other on duplicate deals and print evaluation statistics."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.bots.evaluation import EvaluationError, Sprt
from games.engines import ENGINE_NAMES
from games.series.head_to_head import play_match
from games.series.referee import BotSpec


class Command(BaseCommand):
    help = ("Play bot A against bot B on duplicate deal pairs: Elo difference with a 95% "
            "interval, LOS, pentanomial statistics, optional SPRT stop.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=ENGINE_NAMES)
        parser.add_argument("bot_a", help='kind, or kind:{"iterations": 200}')
        parser.add_argument("bot_b")
        parser.add_argument("--pairs", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--options", default="{}", help="game options as JSON")
        parser.add_argument("--sprt", default=None, metavar="ELO0,ELO1",
                            help="stop early when the SPRT accepts H0 or H1 (alpha=beta=0.05)")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            sprt = None
            if opts["sprt"]:
                elo0, elo1 = (float(x) for x in opts["sprt"].split(","))
                sprt = Sprt(elo0=elo0, elo1=elo1)
            report = play_match(
                opts["game"], _spec(opts["bot_a"]), _spec(opts["bot_b"]), pairs=opts["pairs"],
                seed=opts["seed"], options=json.loads(opts["options"]), sprt=sprt,
            )
        except (ValueError, EvaluationError) as error:
            raise CommandError(str(error)) from None
        for line in report.lines(opts["bot_a"], opts["bot_b"]):
            self.stdout.write(line)


def _spec(text: str) -> BotSpec:
    kind, _, settings = text.partition(":")
    return BotSpec(kind=kind, settings=json.loads(settings) if settings else {})
