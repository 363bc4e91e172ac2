"""Every clock type against worked examples: sudden death, Fischer, Bronstein and simple
delay, move-count controls with a secondary period (and a repeating one), time odds,
pause, added time, flags, resignations and agreed draws."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.clocks.control import (
    GameClock,
    Tap,
    TapKind,
    controls_for,
    format_control,
    parse_control,
    run_taps,
)
from games.clocks.errors import ClockError

S = 1000  # ms


def play(text: str, moves: Sequence[float], odds: str = "") -> tuple[GameClock, list[int]]:
    """Start seat 0's clock at 0, then each move lasts ``moves[i]`` seconds, seats in turn;
    returns the clock and the time left after each move (ms)."""
    clock = GameClock(controls_for(text, odds))
    clock.apply(Tap(TapKind.START, 0, 0))
    at, lefts = 0, []
    for index, seconds in enumerate(moves):
        at += int(seconds * S)
        outcome = clock.apply(Tap(TapKind.MOVE, index % 2, at))
        lefts.append(outcome.left_ms)
    return clock, lefts


def test_sudden_death() -> None:
    _, lefts = play("5", [10, 20, 30])
    assert lefts == [290 * S, 280 * S, 260 * S]


def test_fischer_increment() -> None:
    # 3+2: 180 - 10 + 2 = 172; seat 1: 180 - 1 + 2 = 181 (an increment can raise the clock)
    _, lefts = play("3+2", [10, 1, 5])
    assert lefts == [172 * S, 181 * S, 169 * S]


def test_bronstein_delay() -> None:
    # 5 b3: a 2 s move gets its 2 s back (300), a 10 s move gets 3 back (293): never above
    _, lefts = play("5 b3", [2, 10, 10])
    assert lefts == [300 * S, 293 * S, 293 * S]


def test_simple_delay() -> None:
    # 5 d3: the first 3 s of a move are free: 2 s costs nothing, 10 s costs 7
    _, lefts = play("5 d3", [2, 10, 3])
    assert lefts == [300 * S, 293 * S, 300 * S]


def test_simple_delay_flag_counts_the_delay() -> None:
    # 0:10 d3: a move may last 13 s; 12.9 s leaves 0.1 s, then 3.1 s (3 free + 0.1) flags
    clock, lefts = play("0:10 d3", [12.9])
    assert lefts == [100]
    clock.apply(Tap(TapKind.MOVE, 1, 12_900 + 1_000))
    outcome = clock.apply(Tap(TapKind.MOVE, 0, 12_900 + 1_000 + 3_100))
    assert clock.finished == "flag" and clock.loser == 0 and outcome.left_ms == 0


def test_move_count_control_with_secondary_period() -> None:
    # 2/1, 1: 60 s for 2 moves, then 60 s more for the rest: 50, 40 + 60 = 100, then 90
    _, lefts = play("2/1, 1", [10, 5, 10, 5, 10, 5])
    assert lefts[0::2] == [50 * S, 100 * S, 90 * S]
    assert lefts[1::2] == [55 * S, 110 * S, 105 * S]


def test_fide_classical_with_increment_in_both_periods() -> None:
    # 40/90+30, 30+30: after 40 moves of 60 s: 5400 - 40 * 30 = 4200, then + 1800 = 6000
    clock, lefts = play("40/90+30, 30+30", [60, 1] * 40 + [60])
    assert lefts[78] == 6000 * S
    assert lefts[80] == 6000 * S - 30 * S  # 41st move: -60 + 30
    assert clock.periods == [1, 1]


def test_repeating_last_period() -> None:
    # 2/1 repeats: 60 s for every 2 moves
    _, lefts = play("2/1", [10, 0, 10, 0, 10, 0, 10, 0])
    assert lefts[0::2] == [50 * S, 100 * S, 90 * S, 140 * S]


def test_time_odds_per_side() -> None:
    clock, lefts = play("5", [10, 10], odds="3+2")
    assert lefts == [290 * S, 172 * S]
    assert [str(c) for c in clock.controls] == ["5", "3+2"]


def test_pause_resume_and_added_time() -> None:
    clock = GameClock(controls_for("1"))
    clock.apply(Tap(TapKind.START, 0, 0))
    clock.apply(Tap(TapKind.PAUSE, 0, 5 * S))
    clock.apply(Tap(TapKind.ADD_TIME, 1, 6 * S, amount_ms=120 * S))
    clock.apply(Tap(TapKind.RESUME, 0, 100 * S))
    outcome = clock.apply(Tap(TapKind.MOVE, 0, 103 * S))
    assert (outcome.used_ms, outcome.left_ms) == (8 * S, 52 * S)
    assert clock.left[1] == 180 * S


def test_flag_claim_and_resignation() -> None:
    clock = GameClock(controls_for("1"))
    clock.apply(Tap(TapKind.START, 0, 0))
    with pytest.raises(ClockError, match="has not fallen"):
        clock.apply(Tap(TapKind.FLAG, 0, 30 * S))
    clock.apply(Tap(TapKind.FLAG, 0, 60 * S))
    assert (clock.finished, clock.loser) == ("flag", 0)
    with pytest.raises(ClockError, match="game is over"):
        clock.apply(Tap(TapKind.MOVE, 0, 61 * S))
    resigned, _ = run_taps(controls_for("1"), [Tap(TapKind.START, 0, 0),
                                               Tap(TapKind.MOVE, 0, S),
                                               Tap(TapKind.RESIGN, 0, 2 * S)])
    assert (resigned.finished, resigned.loser) == ("resign", 0)
    assert resigned.left == [59 * S, 59 * S]  # seat 1's clock stopped after 1 s of its move


def test_a_draw_agreed_at_the_board_stops_both_clocks_without_a_loser() -> None:
    drawn, outcomes = run_taps(controls_for("1+2"), [Tap(TapKind.START, 0, 0),
                                                     Tap(TapKind.MOVE, 0, 10 * S),
                                                     Tap(TapKind.DRAW, 0, 14 * S)])
    assert (drawn.finished, drawn.loser) == ("draw", None)
    assert drawn.left == [52 * S, 56 * S]  # seat 1 had used 4 s of its move
    assert outcomes[-1].used_ms == 0  # tapped by the seat whose clock was not running
    with pytest.raises(ClockError, match="game is over"):
        drawn.apply(Tap(TapKind.MOVE, 1, 15 * S))


@pytest.mark.parametrize("taps", [
    [Tap(TapKind.MOVE, 0, 0)],                                     # not started
    [Tap(TapKind.START, 0, 0), Tap(TapKind.MOVE, 1, 5)],           # not seat 1's turn
    [Tap(TapKind.START, 0, 10), Tap(TapKind.MOVE, 0, 5)],          # time goes back
    [Tap(TapKind.START, 0, 0), Tap(TapKind.RESUME, 0, 5)],         # not paused
    [Tap(TapKind.START, 0, 0), Tap(TapKind.ADD_TIME, 0, 5, 10**12)],  # huge
    [Tap(TapKind.START, 2, 0)],                                    # no such seat
])
def test_bad_taps_are_refused(taps: list[Tap]) -> None:
    with pytest.raises(ClockError):
        run_taps(controls_for("5"), taps)


@pytest.mark.parametrize("text", ["", "40/", "90+30, 40/90", "0/5", "5\x00", "abc",
                                  "1/1, 1/1, 1/1, 1/1, 1/1, 1/1", "9" * 200])
def test_bad_controls_are_refused(text: str) -> None:
    with pytest.raises(ClockError):
        parse_control(text)


def test_control_text_round_trip_and_worst_case() -> None:
    control = parse_control(" 40 / 90+30 ,30+30")
    assert format_control(control) == "40/90+30, 30+30"
    assert control.max_seconds_for(60) == 5400 + 1800 + 60 * 30


def test_per_game_settings_and_odds_in_the_clock_text() -> None:
    from games.clocks.control import game_control_text

    assert game_control_text("15+10; 5 | 4", 1) == ("15+10", "")
    assert game_control_text("15+10; 5 | 4", 2) == ("5", "4")
    assert game_control_text("15+10; 5 | 4", 7) == ("5", "4")
    with pytest.raises(ClockError):
        game_control_text("5 | 4 | 3", 1)


def test_full_clock_texts_have_a_canonical_form() -> None:
    from games.clocks.control import format_clock_text

    assert format_clock_text("40/90+30,30+30 ;5|3") == "40/90+30, 30+30; 5 | 3"
    with pytest.raises(ClockError):
        format_clock_text("5 | 3 | 1")
