"""Glicko-2: the worked example of Glickman's paper, and the service's rules."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ratings.maths.errors import RatingConfigError, RatingInputError
from ratings.maths.glicko2 import (
    GLICKO2_SCALE,
    GameResult,
    Glicko2Config,
    Rating,
    expected_score,
    from_glicko2_scale,
    g,
    inflate_for_inactivity,
    is_provisional,
    new_volatility,
    rate_game,
    rate_period,
    to_glicko2_scale,
    update_on_scale,
)

PLAYER = Rating(1500, 200, 0.06)
RESULTS = [
    GameResult(Rating(1400, 30, 0.06), 1),
    GameResult(Rating(1550, 100, 0.06), 0),
    GameResult(Rating(1700, 300, 0.06), 0),
]
PAPER_TAU = 0.5


def paper_update():
    games = [(*to_glicko2_scale(r.opponent)[:2], r.score) for r in RESULTS]
    return update_on_scale(to_glicko2_scale(PLAYER), games, PAPER_TAU)


class TestPaperExample:
    """The example of "Example of the Glicko-2 system" (Glickman), steps 2 to 8."""

    def test_step_2_scale(self):
        assert to_glicko2_scale(PLAYER) == pytest.approx((0.0, 1.1513, 0.06), abs=5e-5)
        opponents = [to_glicko2_scale(r.opponent) for r in RESULTS]
        assert [round(o.mu, 4) for o in opponents] == [-0.5756, 0.2878, 1.1513]
        assert [round(o.phi, 4) for o in opponents] == [0.1727, 0.5756, 1.7269]

    def test_step_3_g_and_expected_scores(self):
        opponents = [to_glicko2_scale(r.opponent) for r in RESULTS]
        assert [round(g(o.phi), 4) for o in opponents] == [0.9955, 0.9531, 0.7242]
        expected = [round(expected_score(0.0, o.mu, o.phi), 3) for o in opponents]
        assert expected == [0.639, 0.432, 0.303]

    def test_steps_3_and_4_variance_and_improvement(self):
        update = paper_update()
        # The paper prints v = 1.7785 and delta = -0.4834, computed from g and E rounded
        # as in the table above; unrounded arithmetic gives 1.77898 and -0.48393.
        assert update.variance == pytest.approx(1.7785, abs=6e-4)
        assert update.improvement == pytest.approx(-0.4834, abs=6e-4)
        rounded_v = 1 / sum(
            gj * gj * ej * (1 - ej)
            for gj, ej in [(0.9955, 0.639), (0.9531, 0.432), (0.7242, 0.303)]
        )
        assert round(rounded_v, 4) == 1.7785

    def test_step_5_volatility(self):
        # The paper prints sigma' = 0.05999, the first five decimals of 0.0599960.
        update = paper_update()
        assert math.floor(update.sigma * 1e5) / 1e5 == 0.05999
        assert round(update.sigma, 6) == 0.059996
        from_paper_values = new_volatility(0.06, 1.1513, 1.7785, -0.4834, PAPER_TAU)
        assert round(from_paper_values, 6) == 0.059996

    def test_step_5_illinois_agrees_with_bisection(self):
        update = paper_update()
        phi, v, delta, tau = 200 / GLICKO2_SCALE, update.variance, update.improvement, 0.5
        a = math.log(0.06**2)

        def f(x):
            ex = math.exp(x)
            return (
                ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2
            )

        low, high = a - 10, a + 10
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (middle, high) if f(middle) > 0 else (low, middle)
        assert update.sigma == pytest.approx(math.exp(low / 2), abs=1e-8)

    def test_step_6_pre_period_deviation(self):
        # The paper's phi* = 1.152862 comes from its rounded phi = 1.1513.
        sigma = paper_update().sigma
        assert round(math.sqrt(1.1513**2 + sigma**2), 6) == 1.152862
        assert round(math.sqrt((200 / GLICKO2_SCALE) ** 2 + sigma**2), 6) == 1.152855

    def test_step_7_new_mu_and_phi(self):
        update = paper_update()
        assert round(update.mu, 4) == -0.2069
        assert round(update.phi, 4) == 0.8722
        assert round(update.mu, 6) == -0.206941
        assert round(update.phi, 6) == 0.872199

    def test_step_8_rating_and_deviation(self):
        rating = rate_period(PLAYER, RESULTS, tau=PAPER_TAU)
        assert round(rating.rd, 2) == 151.52
        assert round(rating.volatility, 6) == 0.059996
        # The paper converts its rounded mu' = -0.2069 and prints r' = 1464.06; from the
        # unrounded mu' the rating is 1464.0507.
        assert round(from_glicko2_scale(-0.2069, 0.8722, 0.05999).rating, 2) == 1464.06
        assert rating.rating == pytest.approx(1464.06, abs=0.01)
        assert round(rating.rating, 4) == 1464.0507

    def test_no_games_only_deviation_grows(self):
        rating = rate_period(PLAYER, [], tau=PAPER_TAU)
        assert rating.rating == PLAYER.rating
        assert rating.volatility == PLAYER.volatility
        assert rating.rd == pytest.approx(GLICKO2_SCALE * math.sqrt((200 / 173.7178) ** 2 + 0.0036))


class TestVolatility:
    def test_branch_where_delta_squared_exceeds_phi_squared_plus_v(self):
        # A huge surprise takes the first bracketing branch of step 5.
        sigma = new_volatility(0.06, 0.3, 0.5, 3.0, 0.5)
        assert sigma > 0.06

    def test_expected_result_lowers_volatility(self):
        sigma = new_volatility(0.06, 0.3, 2.0, 0.0, 0.5)
        assert sigma < 0.06


class TestConfig:
    def test_defaults_are_lichess_defaults(self):
        config = Glicko2Config()
        assert config.new_rating() == Rating(1500, 500, 0.09)
        assert config.tau == 0.75
        assert config.mode == "lichess"
        assert config.periods_per_day == 0.21436

    def test_glickman_mode_keeps_five_day_periods(self):
        assert Glicko2Config(mode="glickman").periods_per_day == pytest.approx(1 / 5)
        assert Glicko2Config(mode="glickman", period_days=2).periods_per_day == 0.5

    def test_rejects_an_unknown_mode(self):
        with pytest.raises(RatingConfigError, match="mode"):
            Glicko2Config(mode="fide")

    @pytest.mark.parametrize("field", ["initial_rd", "initial_volatility", "tau", "period_days",
                                       "min_rd", "max_volatility", "max_change"])
    def test_rejects_non_positive_parameters(self, field):
        values: dict[str, Any] = {field: 0}
        with pytest.raises(RatingConfigError, match=field):
            Glicko2Config(**values)

    def test_rejects_bad_ratings_and_scores(self):
        with pytest.raises(RatingInputError):
            Rating(1500, -1, 0.06)
        with pytest.raises(RatingInputError):
            GameResult(PLAYER, 2)
        with pytest.raises(ValueError):
            rate_game(PLAYER, PLAYER, -0.5, Glicko2Config())


class TestGlickmanMode:
    """Glickman's rating period for every game (step 6), 5-day periods of inactivity."""

    config = Glicko2Config(mode="glickman")

    def test_each_game_is_its_own_period(self):
        newcomer = self.config.new_rating()
        after = rate_game(newcomer, newcomer, 1, self.config)
        assert after.rating > 1500 and after.rd < 500
        expected = rate_period(newcomer, [GameResult(newcomer, 1)], tau=0.75)
        assert after == expected

    def test_winner_up_loser_down_draw_between(self):
        a, b = Rating(1600, 80, 0.06), Rating(1500, 80, 0.06)
        win = rate_game(a, b, 1, self.config).rating
        draw = rate_game(a, b, 0.5, self.config).rating
        loss = rate_game(a, b, 0, self.config).rating
        assert loss < draw < 1600 < win

    def test_inactivity_grows_deviation_by_periods(self):
        player = Rating(1700, 60, 0.06)
        after = inflate_for_inactivity(player, 50, self.config)  # 10 periods of 5 days
        expected_phi = math.sqrt((60 / GLICKO2_SCALE) ** 2 + 10 * 0.06**2)
        assert after.rd == pytest.approx(expected_phi * GLICKO2_SCALE)
        assert after.rating == 1700 and after.volatility == 0.06

    def test_inactivity_is_capped_at_initial_deviation(self):
        after = inflate_for_inactivity(Rating(1700, 60, 0.06), 100_000, self.config)
        assert after.rd == pytest.approx(500)

    def test_inactivity_before_a_game_makes_it_count_more(self):
        a, b = Rating(1500, 60, 0.06), Rating(1500, 60, 0.06)
        fresh = rate_game(a, b, 1, self.config)
        rusty = rate_game(a, b, 1, self.config, days_inactive=365)
        assert rusty.rating - 1500 > fresh.rating - 1500

    def test_negative_inactivity_is_rejected(self):
        with pytest.raises(RatingInputError, match="days"):
            inflate_for_inactivity(PLAYER, -1, self.config)

    def test_provisional_while_rd_at_least_110(self):
        assert is_provisional(Rating(1500, 110, 0.06), self.config)
        assert not is_provisional(Rating(1500, 109.9, 0.06), self.config)

    def test_newcomer_leaves_provisional_after_some_games(self):
        player, opponent = self.config.new_rating(), Rating(1500, 50, 0.06)
        games = 0
        while is_provisional(player, self.config):
            player = rate_game(player, opponent, games % 2, self.config)
            games += 1
            assert games < 50
        assert 5 <= games <= 30
