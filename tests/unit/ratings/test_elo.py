"""FIDE Elo (Rating Regulations B.02, section 8)."""

from __future__ import annotations

import pytest

from ratings.maths.elo import (
    expected_score,
    fide_table_probability,
    k_factor,
    k_for_period,
    logistic_expected_score,
    rating_change_for_game,
    rating_change_for_period,
)
from ratings.maths.errors import RatingInputError


class TestFideTable:
    @pytest.mark.parametrize(
        ("difference", "higher"),
        [
            (0, 0.50), (3, 0.50), (4, 0.51), (10, 0.51), (11, 0.52), (91, 0.62), (92, 0.63),
            (98, 0.63), (99, 0.64), (197, 0.75), (198, 0.76), (344, 0.88), (345, 0.89),
            (391, 0.91), (392, 0.92), (411, 0.92), (412, 0.93), (619, 0.98), (620, 0.99),
            (735, 0.99), (736, 1.00),
        ],
    )  # fmt: skip
    def test_row_boundaries(self, difference, higher):
        assert fide_table_probability(difference) == higher
        assert fide_table_probability(-difference) == pytest.approx(1 - higher)

    def test_table_is_monotonic_and_near_the_logistic_curve(self):
        previous = 0.0
        for difference in range(-735, 736):
            probability = fide_table_probability(difference)
            assert probability >= previous
            previous = probability
            logistic = logistic_expected_score(difference, 0)
            assert abs(probability - logistic) <= 0.02

    def test_table_differs_from_logistic_formula(self):
        # 538 points: the table says .97, the logistic formula 0.9568.
        assert fide_table_probability(538) == 0.97
        assert round(logistic_expected_score(2538, 2000), 4) == 0.9568


class TestExpectedScore:
    def test_uses_the_table(self):
        assert expected_score(2200, 2300) == 0.36
        assert expected_score(2200, 1950) == 0.81

    def test_400_point_rule(self):
        assert expected_score(2600, 2000) == 0.92  # 600 counts as 400
        assert expected_score(2000, 2600) == 0.08
        assert expected_score(2400, 2000) == 0.92

    def test_fractional_ratings_are_rounded(self):
        assert expected_score(1503.5, 1500) == 0.51  # 3.5 rounds to 4


class TestKFactor:
    def test_new_player_until_30_games(self):
        assert k_factor(rating=1800, games_played=0) == 40
        assert k_factor(rating=2450, games_played=29) == 40
        assert k_factor(rating=1800, games_played=30) == 20

    def test_junior_under_2300(self):
        assert k_factor(rating=2299, games_played=100, is_junior=True) == 40
        assert k_factor(rating=2300, games_played=100, is_junior=True) == 20

    def test_under_2400(self):
        assert k_factor(rating=2399, games_played=100) == 20

    def test_once_2400_reached_stays_10(self):
        assert k_factor(rating=2400, games_played=100) == 10
        assert k_factor(rating=2350, games_played=100, has_reached_2400=True) == 10

    def test_rejects_negative_games(self):
        with pytest.raises(RatingInputError):
            k_factor(rating=1800, games_played=-1)

    def test_700_rule(self):
        assert k_for_period(40, 17) == 40  # 680 <= 700
        assert k_for_period(40, 18) == 38  # 38 * 18 = 684
        assert k_for_period(20, 36) == 19
        assert k_for_period(10, 70) == 10


class TestRatingChange:
    def test_per_game(self):
        assert rating_change_for_game(2200, 2300, 1, 20) == pytest.approx(12.8)
        assert rating_change_for_game(2200, 2300, 0.5, 20) == pytest.approx(2.8)
        assert rating_change_for_game(2200, 2300, 0, 20) == pytest.approx(-7.2)

    def test_per_tournament(self):
        # 2200 (K 20) against 2300 (win), 1950 (draw), 2600 (loss, counted as 2600 -> 400)
        change = rating_change_for_period(2200, [(2300, 1), (1950, 0.5), (2600, 0)], 20)
        assert change.expected == pytest.approx(0.36 + 0.81 + 0.08)
        assert change.score == 1.5
        assert change.unrounded_change == pytest.approx(5.0)
        assert (change.k, change.games, change.change) == (20, 3, 5)

    def test_rounding_half_away_from_zero(self):
        # 34 points above the opponent: PD .55
        assert rating_change_for_period(2000, [(1966, 1)], 10).change == 5  # +4.5
        assert rating_change_for_period(2000, [(1966, 0)], 10).change == -6  # -5.5
        assert rating_change_for_period(2000, [(1966, 0.5)], 10).change == -1  # -0.5
        assert rating_change_for_period(2100, [(2000, 1), (2000, 0.5)], 10).change == 2  # 2.2

    def test_700_rule_applies_to_the_period(self):
        games = [(2000, 1)] * 20
        change = rating_change_for_period(2000, games, 40)
        assert change.k == 35
        assert change.change == 350

    def test_bad_score(self):
        with pytest.raises(RatingInputError, match="score"):
            rating_change_for_game(2000, 2000, 2, 20)
