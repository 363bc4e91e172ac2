"""Bots that asked for ``updates moves`` rebuild exactly their seat's observation from the
``moves`` and ``shown`` lines; clocks run per seat and a flag fall is a time forfeit."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from games.clocks.setting import ClockSetting, IncrementKind
from games.engines import get_engine
from games.series.referee import BotSpec
from tests.unit.protocol.helpers import PROGRAMS, misbehaving, play, program

sys.path.insert(0, str(PROGRAMS))
from moves_mode import view_hash  # noqa: E402


@pytest.mark.parametrize(
    ("game", "options", "number"),
    [("kugamai", {}, 0), ("kazambi-pairs", {}, 1), ("stolbiki", {}, 0), ("stolbiki", {}, 1),
     ("stolbiki", {"team_size": 3, "deck": 52}, 2)],
)
def test_a_moves_bot_keeps_its_seat_view(game: str, options: dict[str, Any],
                                         number: int) -> None:
    views_match(game, options, number)


def test_shown_cards_reach_a_moves_bot() -> None:
    """Stolbiki passes (which show the passing seat's cards) appear in some games: find
    one within a few deals and check the bot's view there too."""
    for number in range(3, 10):
        if views_match("stolbiki", {}, number):
            return
    pytest.fail("no Stolbiki game with a pass in 7 deals")


def views_match(game: str, options: dict[str, Any], number: int) -> bool:
    """Check every view of the moves bot in game ``number``; True if a seat passed."""
    outcome = play(program("moves_mode"), BotSpec("greedy"), game=game, options=options,
                   number=number)
    assert outcome.termination == "normal", outcome.reason
    engine = get_engine(game)
    state = engine.new_game(deal=outcome.record["deal"], **options)
    checked = 0
    for move, info in zip(outcome.record["moves"], outcome.info, strict=True):
        seat = engine.to_move(state)
        if seat % 2 == 0:
            assert info == ["string view " + view_hash(engine.observation(state, seat))]
            checked += 1
        state = engine.play(state, move)
    assert checked >= 5
    return "pass" in outcome.record["moves"]


def test_the_clock_runs_per_seat_and_the_flag_falls() -> None:
    clock = ClockSetting(1)
    outcome = play(misbehaving("slow", "0.3"), clock=clock, move_seconds=None)
    assert (outcome.termination, outcome.fault, outcome.winner_side) == (
        "time_forfeit", "timeout", 1), outcome.reason
    assert outcome.clock_left is not None and outcome.clock_left[0] < 0.2
    assert outcome.clock_left[1] > 0.5
    # every move of the slow seat took its 0.3 s, but the last: the flag fell during it
    # (on a loaded machine its remaining time may be anything below 0.4 s)
    assert all(seconds >= 0.3 for seconds in outcome.durations[:-1][0::2] if seconds > 0.25)


def test_an_increment_keeps_a_slow_bot_alive() -> None:
    clock = ClockSetting(1, IncrementKind.FISCHER, 1)
    outcome = play(misbehaving("slow", "0.2"), clock=clock, move_seconds=None)
    assert outcome.termination == "normal", outcome.reason
    assert outcome.clock_left is not None and all(left > 1 for left in outcome.clock_left)
