"""Bots cannot hold a worker: bounded settings, and limits enforced while a move runs.

Before: ``{"iterations": 1000000000}`` and ``{"seconds": 100000}`` were accepted, and
nothing bounded a whole game (a 48-second move thirty times over outlived the re-send
time-out, so beat sent copies of the game until every worker slot played it).
"""

from __future__ import annotations

import inspect
import time
from typing import Any

import pytest

from core.bounds import MAX_BOT_ITERATIONS, MAX_BOT_SECONDS
from core.errors import ApplicationError
from games.bots.registry import BOT_KINDS, get_bot
from games.series.referee import BotSpec
from players.services import BOT_BUDGET, BOT_OPTIONS, bot_settings_check
from tests.unit.protocol.helpers import misbehaving, play


def test_the_settings_table_follows_the_bots_constructors() -> None:
    assert set(BOT_OPTIONS) == set(BOT_KINDS)
    for kind, options in BOT_OPTIONS.items():
        factory = type(get_bot(kind, seed=1))
        parameters = inspect.signature(factory).parameters
        accepted = {name for name, p in parameters.items()
                    if p.kind == p.KEYWORD_ONLY or name not in ("self", "seed")}
        assert set(options) == accepted, kind


@pytest.mark.parametrize(("kind", "settings", "field"), [
    ("mcts", {"iterations": MAX_BOT_ITERATIONS + 1}, "bot_settings.iterations"),
    ("mcts", {"iterations": 1.5}, "bot_settings.iterations"),
    ("mcts", {"version": 3}, "bot_settings.version"),
    ("mcts", {"version": True}, "bot_settings.version"),
    ("mcts", {"cpu_seconds": 1e9}, "bot_settings.cpu_seconds"),
    ("mcts", {"seconds": MAX_BOT_SECONDS + 1}, "bot_settings.seconds"),
    ("mcts", {"seconds": 0}, "bot_settings.seconds"),
    ("mcts", {"seconds": True}, "bot_settings.seconds"),
    ("greedy", {"policy": True}, "bot_settings.policy"),
    ("mcts", {"policy": "yes"}, "bot_settings.policy"),
    ("random", [1, 2, 3], "bot_settings"),
    ("chess", {}, "bot_kind"),
])
def test_bot_settings_are_bounded(kind: str, settings: Any, field: str) -> None:
    with pytest.raises(ApplicationError) as error:
        bot_settings_check(kind, settings)
    assert error.value.field == field


def test_the_bounds_themselves_are_accepted() -> None:
    assert bot_settings_check("mcts", dict(BOT_BUDGET)) == BOT_BUDGET
    bot_settings_check("greedy", {"endgame_solver": True, "seconds": 0.5})


def test_a_built_in_bot_keeps_the_move_limit_whatever_its_budget() -> None:
    """An MCTS bot told to search 100,000 iterations for 30 s per move stops in time for a
    0.3 s move limit (the launcher caps its budget by the go line): no forfeit."""
    outcome = play(BotSpec("mcts", {"iterations": MAX_BOT_ITERATIONS, "seconds": 30}),
                   move_seconds=0.3)
    assert outcome.termination == "normal", outcome.reason
    assert max(outcome.durations) < 0.3 + 0.25


def test_a_slow_bot_loses_on_time_when_the_game_s_time_runs_out() -> None:
    started = time.monotonic()
    outcome = play(misbehaving("slow", "0.4"), move_seconds=5.0, game_seconds=1.5)
    elapsed = time.monotonic() - started
    assert outcome.termination == "time_forfeit"
    assert outcome.winner_side == 1 and outcome.fault_seat in (0, 2)
    assert "ran out" in outcome.reason
    assert elapsed < 1.5 + 3.0  # the bots' start and stop around the game's 1.5 s


def test_a_built_in_bot_shares_out_the_game_s_time() -> None:
    """With only a game limit, the go line's move time is what is left of the game, and a
    built-in bot with a 30-second budget spends a part of it per move."""
    started = time.monotonic()
    outcome = play(BotSpec("mcts", {"seconds": 30}), move_seconds=None, game_seconds=2.0)
    elapsed = time.monotonic() - started
    assert outcome.termination in ("normal", "time_forfeit"), outcome.reason
    assert sum(outcome.durations) < 2.0 + 0.25
    assert elapsed < 2.0 + 3.0
