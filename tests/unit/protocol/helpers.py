"""Bots and games for the protocol tests: real programs, run through the real referee."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from games.bots.process.sandbox import Limits, Sandbox
from games.engines import get_engine
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, RefereeOutcome, referee_game
from games.series.roles import game_roles
from games.series.seeds import bot_seeds, deal_seed

PROGRAMS = Path(__file__).resolve().parent / "programs"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "bots"
SECRET = "protocol tests"


def program(name: str, *args: str) -> BotSpec:
    """A test program from programs/, run with this interpreter."""
    return BotSpec.program([sys.executable, str(PROGRAMS / f"{name}.py"), *args])


def misbehaving(mode: str, *args: str) -> BotSpec:
    return program("misbehaving", mode, *args)


def play(
    side_a: BotSpec, side_b: BotSpec | None = None, *, game: str = "kugamai", number: int = 0,
    limits: Limits | None = None, isolation: str = "auto", **kwargs: Any,
) -> RefereeOutcome:
    """Game ``number`` of a match between the two sides (B: the built-in random bot)."""
    options = kwargs.pop("options", {})
    deal = deal_for_game(game, options, deal_seed(SECRET, number), game_roles(game, number))
    seats = get_engine(game).seat_count(**options)
    kwargs.setdefault("move_seconds", 5.0)
    return referee_game(
        game, options, deal, (side_a, side_b or BotSpec("random")),
        seeds=bot_seeds(SECRET, seats, number), sandbox=Sandbox(limits or Limits(), isolation),
        **kwargs,
    )
