"""Time left after moves, and flag fall, under each increment rule."""

from __future__ import annotations

import pytest

from games.clocks.errors import ClockInputError
from games.clocks.running import FlagFall, run_clock, run_game_clocks, seat_moves_from_game
from games.clocks.setting import ClockSetting, IncrementKind

MOVES = [2, 10, 4, 0]


def test_no_increment():
    run = run_clock(ClockSetting(60), MOVES)
    assert run.left == (58, 48, 44, 44)
    assert run.flag is None and run.final_left == 44


def test_fischer_adds_after_each_move():
    run = run_clock(ClockSetting(60, IncrementKind.FISCHER, 5), MOVES)
    assert run.left == (63, 58, 59, 64)


def test_bronstein_gives_back_at_most_the_delay():
    run = run_clock(ClockSetting(60, IncrementKind.BRONSTEIN, 5), MOVES)
    # 2 s used: all given back; 10 s used: 5 given back; 4: all; 0: nothing.
    assert run.left == (60, 55, 55, 55)


def test_simple_delay_clock_waits():
    run = run_clock(ClockSetting(60, IncrementKind.SIMPLE_DELAY, 5), MOVES)
    assert run.left == (60, 55, 55, 55)


def test_bronstein_and_simple_delay_differ_only_in_when_time_goes():
    # Same time left after each move, but a long move flags sooner under Bronstein: the
    # simple-delay clock has not started during the first 5 s.
    bronstein = ClockSetting(10, IncrementKind.BRONSTEIN, 5)
    delay = ClockSetting(10, IncrementKind.SIMPLE_DELAY, 5)
    assert run_clock(bronstein, [12]).flag == FlagFall(0, 1, 1, 10.0)
    assert run_clock(delay, [12]).flag is None
    assert run_clock(delay, [12]).left == (3,)
    assert run_clock(delay, [15]).flag == FlagFall(0, 1, 1, 15.0)


def test_flag_falls_on_the_move_that_runs_out():
    run = run_clock(ClockSetting(60, IncrementKind.FISCHER, 2), [30, 30, 5])
    # 60 -> 32 -> 4 -> flag during the third move, 4 s in
    assert run.left == (32, 4)
    assert run.flag == FlagFall(seat=0, move=3, game_move=3, seconds_into_move=4.0)
    assert run.final_left == 0


def test_using_exactly_the_time_left_flags():
    assert run_clock(ClockSetting(60), [60]).flag == FlagFall(0, 1, 1, 60.0)
    assert run_clock(ClockSetting(60), [59.9]).flag is None


def test_increment_does_not_rescue_a_flagged_move():
    run = run_clock(ClockSetting(10, IncrementKind.FISCHER, 30), [10.5])
    assert run.flag is not None and run.left == ()


def test_fractional_durations():
    run = run_clock(ClockSetting(60, IncrementKind.FISCHER, 2), [1.25, 0.5])
    assert run.left == pytest.approx((60.75, 62.25))


def test_bad_duration():
    with pytest.raises(ClockInputError, match="move 2"):
        run_clock(ClockSetting(60), [1, -3])


class TestGameClocks:
    def test_each_seat_has_its_own_clock(self):
        setting = ClockSetting(60, IncrementKind.FISCHER, 1)
        moves = seat_moves_from_game([10, 20, 30, 40, 1, 1, 1, 1], seats=4)
        game = run_game_clocks(setting, 4, moves)
        assert game.left == (51, 41, 31, 21)
        assert game.moves == (2, 2, 2, 2)
        assert game.flag is None

    def test_first_flag_stops_the_game(self):
        setting = ClockSetting(30)
        moves = [(0, 10), (1, 29), (0, 10), (1, 2), (0, 15)]
        game = run_game_clocks(setting, 2, moves)
        assert game.flag == FlagFall(seat=1, move=2, game_move=4, seconds_into_move=1.0)
        assert game.left == (10, 0)

    def test_team_side_of_flagged_seat(self):
        game = run_game_clocks(ClockSetting(5), 4, [(0, 1), (1, 1), (2, 6)])
        assert game.flag is not None and game.flag.seat % 2 == 0

    def test_bad_seat(self):
        with pytest.raises(ClockInputError, match="seat 4"):
            run_game_clocks(ClockSetting(60), 4, [(4, 1.0)])
