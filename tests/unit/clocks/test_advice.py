"""Move estimates and clock advice."""

from __future__ import annotations

import itertools
import math

import pytest

from games.clocks.advice import recommend_clock, worst_case_games
from games.clocks.errors import ClockInputError, NoClockFitsError
from games.clocks.estimates import MoveEstimate, default_move_estimate, seats_of
from games.clocks.running import run_game_clocks
from games.clocks.setting import ClockSetting, IncrementKind
from games.series.format import MatchFormat

KAZAMBI_COUNTS = [13] * 100 + [14] * 15 + [12] * 5


class FakeFormat:
    def __init__(self, games: int | None, text: str) -> None:
        self.games, self.text = games, text

    def max_games_needed(self) -> int | None:
        return self.games

    def describe(self) -> str:
        return self.text


class TestEstimates:
    def test_from_counts(self):
        estimate = MoveEstimate.from_counts(KAZAMBI_COUNTS)
        assert estimate.mean == pytest.approx(13.083, abs=1e-3)
        assert estimate.high == 14
        assert estimate.games_recorded == 120
        assert estimate.describe() == (
            "about 13.1 moves per player (95th percentile 14, from 120 recorded games)"
        )

    def test_nearest_rank_percentile(self):
        counts = list(range(1, 101))
        assert MoveEstimate.from_counts(counts, 95).high == 95
        assert MoveEstimate.from_counts(counts, 100).high == 100
        assert MoveEstimate.from_counts([7], 95).high == 7

    def test_from_no_counts(self):
        with pytest.raises(ClockInputError, match="default_move_estimate"):
            MoveEstimate.from_counts([])

    @pytest.mark.parametrize(
        ("game", "options", "moves", "seats"),
        [
            ("kazambi", {}, 14, 2),
            ("anti-kazambi", {}, 14, 2),
            ("kazambi", {"rows": 4, "cols": 4}, 4, 2),
            ("kazambi", {"rows": 12, "cols": 12}, 14, 2),
            ("kazambi-pairs", {}, 7, 4),
            ("kugamai", {}, 14, 2),
            ("stolbiki", {}, 9, 4),
            ("stolbiki", {"team_size": 1}, 9, 4),
            ("stolbiki", {"deck": 52}, 13, 4),
            ("stolbiki", {"team_size": 3}, 6, 6),
            ("stolbiki", {"deck": 52, "team_size": 3}, 9, 6),
        ],
    )
    def test_defaults_from_the_rules(self, game, options, moves, seats):
        estimate = default_move_estimate(game, **options)
        assert estimate.high == estimate.mean == moves
        assert estimate.games_recorded == 0
        assert seats_of(game, **options) == seats
        assert f"up to {moves} moves" in estimate.describe()

    def test_unknown_game_or_option(self):
        with pytest.raises(ClockInputError, match="no move estimate"):
            default_move_estimate("chess")
        with pytest.raises(ClockInputError, match="unknown option"):
            default_move_estimate("kugamai", rows=3)
        with pytest.raises(ClockInputError, match="deck"):
            default_move_estimate("stolbiki", deck=40)


class TestWorstCaseGames:
    def test_formats(self):
        assert worst_case_games("single") == 1
        assert worst_case_games("best_of", 5) == 5
        assert worst_case_games("fixed", 4) == 4
        assert worst_case_games("first_to", 3, max_games=9) == 9

    def test_first_to_needs_a_cap(self):
        with pytest.raises(ClockInputError, match="max_games"):
            worst_case_games("first_to", 3)

    def test_series_match_formats_fit_the_protocol(self):
        advice = recommend_clock(
            slot_minutes=240,
            match=MatchFormat.parse("ft3/9"),
            moves=default_move_estimate("kugamai"),
        )
        assert advice.games == 9
        assert "can run to 9 games" in advice.reasons[0]


class TestRecommendation:
    def test_kazambi_best_of_five_in_two_hours(self):
        advice = recommend_clock(
            slot_minutes=120,
            match=FakeFormat(5, "best of 5"),
            moves=MoveEstimate.from_counts(KAZAMBI_COUNTS),
            game_label="Kazambi",
        )
        # 120 / 5 - 2 = 22 min per game, 11 per player; 10 s x 14 = 140 s <= a quarter.
        assert advice.setting == ClockSetting(480, IncrementKind.FISCHER, 10)
        assert advice.worst_case_minutes == pytest.approx(5 * (2 * (8 + 140 / 60) + 2))
        assert advice.worst_case_minutes <= 120
        assert advice.reasons[0] == "The match (best of 5) can run to 5 games."
        assert advice.reasons[1].startswith(
            "A Kazambi game has about 13.1 moves per player (95th percentile 14, "
            "from 120 recorded games)"
        )
        assert any("8+10" in reason for reason in advice.reasons)
        assert all(isinstance(reason, str) and reason.endswith(".") for reason in advice.reasons)

    def test_delay_kinds_and_no_increment(self):
        moves = default_move_estimate("kazambi")
        for kind in (IncrementKind.BRONSTEIN, IncrementKind.SIMPLE_DELAY):
            advice = recommend_clock(slot_minutes=60, match=1, moves=moves, kind=kind)
            assert advice.setting.kind is kind
        plain = recommend_clock(slot_minutes=60, match=1, moves=moves, kind=IncrementKind.NONE)
        assert plain.setting == ClockSetting(29 * 60)
        assert "No increment" in " ".join(plain.reasons)

    def test_tight_slot_drops_the_increment(self):
        # 2 games in 10 minutes with 2 min set-up: 3 min per game, 90 s per player; 14
        # moves at 2 s would take 28 s, more than a quarter of 90 s.
        advice = recommend_clock(slot_minutes=10, match=2, moves=MoveEstimate(14, 14))
        assert advice.setting == ClockSetting(60)
        assert advice.worst_case_minutes == pytest.approx(8)

    def test_team_game_has_a_clock_per_seat(self):
        advice = recommend_clock(
            slot_minutes=90,
            match=1,
            moves=default_move_estimate("stolbiki"),
            seats=4,
            game_label="Stolbiki",
        )
        assert advice.worst_case_minutes <= 90
        assert "each of the 4 seats" in advice.reasons[1]

    def test_every_recommendation_fits_and_a_full_game_fits_in_practice(self):
        for slot, games, seats, high in itertools.product(
            (20, 45, 60, 90, 150, 240), (1, 3, 5, 9), (2, 4, 6), (7, 9, 14, 30)
        ):
            try:
                advice = recommend_clock(
                    slot_minutes=slot, match=games, moves=MoveEstimate(high, high), seats=seats
                )
            except NoClockFitsError:
                assert slot < games * (seats + 2)
                continue
            assert advice.worst_case_minutes <= slot + 1e-9
            assert advice.setting.base_seconds % 60 == 0
            assert advice.setting.bonus_seconds in (0, 2, 3, 5, 10, 15, 30)
            # Every seat uses nearly its whole clock (the bonus after a seat's last move
            # cannot be used): no flag, and the game fits the planned worst case.
            setting, count = advice.setting, math.ceil(high)
            usable = setting.base_seconds + (count - 1) * setting.bonus_seconds
            per_move = usable / count - 1e-6
            moves = [(index % seats, per_move) for index in range(seats * count)]
            assert run_game_clocks(setting, seats, moves).flag is None
            game_minutes = seats * count * per_move / 60
            assert games * (game_minutes + 2) <= advice.worst_case_minutes + 1e-9

    def test_nothing_fits_says_what_would(self):
        with pytest.raises(NoClockFitsError) as caught:
            recommend_clock(slot_minutes=15, match=5, moves=MoveEstimate(14, 14))
        message = str(caught.value)
        assert "at least 20 minutes" in message
        assert "at most 3 games" in message
        assert isinstance(caught.value, ValueError)

    def test_not_even_one_game_fits(self):
        with pytest.raises(NoClockFitsError, match="even one game"):
            recommend_clock(slot_minutes=3, match=1, moves=MoveEstimate(9, 9), seats=4)

    def test_bad_parameters(self):
        moves = MoveEstimate(10, 12)
        with pytest.raises(ClockInputError, match="slot"):
            recommend_clock(slot_minutes=0, match=1, moves=moves)
        with pytest.raises(ClockInputError, match="max_games"):
            recommend_clock(slot_minutes=60, match=FakeFormat(None, "first to 3"), moves=moves)
        with pytest.raises(ClockInputError, match="at least the mean"):
            MoveEstimate(12, 10)


def test_skewed_counts_plan_for_at_least_the_mean() -> None:
    from games.clocks.estimates import MoveEstimate

    estimate = MoveEstimate.from_counts([10] * 19 + [16])
    assert estimate.high >= estimate.mean == 10.3
