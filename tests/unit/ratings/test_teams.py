"""Team games: individual Glicko-2 ratings updated against team composites."""

from __future__ import annotations

import math

import pytest

from ratings.maths.errors import RatingInputError
from ratings.maths.glicko2 import Glicko2Config, Rating, rate_game
from ratings.maths.teams import rate_team_game, team_composite

CONFIG = Glicko2Config()


def total(ratings):
    return math.fsum(r.rating for r in ratings)


def test_one_v_one_is_the_two_player_update():
    a, b = Rating(1620, 90, 0.07), Rating(1480, 150, 0.06)
    new_a, new_b = rate_team_game([a], [b], 1, CONFIG)
    assert new_a == [rate_game(a, b, 1, CONFIG)]
    assert new_b == [rate_game(b, a, 0, CONFIG)]


def test_winners_go_up_and_losers_go_down():
    team_a = [Rating(1700, 60, 0.06), Rating(1300, 60, 0.06)]
    team_b = [Rating(1550, 60, 0.06), Rating(1450, 60, 0.06)]
    new_a, new_b = rate_team_game(team_a, team_b, 1, CONFIG)
    assert all(after.rating > before.rating for before, after in zip(team_a, new_a, strict=True))
    assert all(after.rating < before.rating for before, after in zip(team_b, new_b, strict=True))


def test_symmetry_swapping_teams_and_result_mirrors_changes():
    team_a = [Rating(1700, 80, 0.06), Rating(1400, 200, 0.07)]
    team_b = [Rating(1500, 120, 0.05), Rating(1600, 60, 0.06)]
    a1, b1 = rate_team_game(team_a, team_b, 1, CONFIG)
    b2, a2 = rate_team_game(team_b, team_a, 0, CONFIG)
    assert a1 == a2 and b1 == b2


def test_conservation_with_equal_deviations():
    team_a = [Rating(1700, 80, 0.06), Rating(1350, 80, 0.06)]
    team_b = [Rating(1500, 80, 0.06), Rating(1600, 80, 0.06)]
    for score in (1, 0.5, 0):
        new_a, new_b = rate_team_game(team_a, team_b, score, CONFIG)
        gained = total(new_a) - total(team_a)
        lost = total(team_b) - total(new_b)
        assert gained == pytest.approx(lost, abs=1e-9)


def test_conservation_is_approximate_with_unequal_deviations():
    team_a = [Rating(1700, 60, 0.06), Rating(1350, 90, 0.06)]
    team_b = [Rating(1500, 70, 0.06), Rating(1600, 80, 0.06)]
    new_a, new_b = rate_team_game(team_a, team_b, 1, CONFIG)
    gained = total(new_a) - total(team_a)
    lost = total(team_b) - total(new_b)
    assert gained > 0 and lost > 0
    assert gained == pytest.approx(lost, rel=0.35)


def test_member_with_higher_rd_moves_more():
    team_a = [Rating(1500, 60, 0.06), Rating(1500, 250, 0.06)]
    team_b = [Rating(1500, 100, 0.06), Rating(1500, 100, 0.06)]
    (settled, uncertain), _ = rate_team_game(team_a, team_b, 1, CONFIG)
    assert uncertain.rating - 1500 > 3 * (settled.rating - 1500) > 0
    assert uncertain.rd < 250 and settled.rd <= 61


def test_teammates_share_the_expected_score():
    # The strong member is not punished for a weak partner: equal deviations, equal change.
    team_a = [Rating(1900, 80, 0.06), Rating(1100, 80, 0.06)]
    team_b = [Rating(1500, 80, 0.06), Rating(1500, 80, 0.06)]
    (strong, weak), _ = rate_team_game(team_a, team_b, 0, CONFIG)
    assert strong.rating - 1900 == pytest.approx(weak.rating - 1100)


def test_even_teams_draw_changes_nothing_but_deviation():
    team = [Rating(1600, 80, 0.06), Rating(1400, 80, 0.06)]
    new_a, new_b = rate_team_game(team, list(team), 0.5, CONFIG)
    assert [r.rating for r in new_a] == pytest.approx([1600, 1400])
    assert all(r.rd < 80 for r in new_a + new_b)


def test_three_v_three():
    team_a = [Rating(1500 + 50 * i, 100, 0.06) for i in range(3)]
    team_b = [Rating(1550, 100, 0.06)] * 3
    new_a, new_b = rate_team_game(team_a, team_b, 0.5, CONFIG)
    assert len(new_a) == len(new_b) == 3
    assert total(new_a) == pytest.approx(total(team_a), abs=1e-6)


def test_composite():
    mu, phi = team_composite([(0.5, 0.3), (-0.5, 0.4)])
    assert mu == 0.0
    assert phi == pytest.approx(math.sqrt((0.09 + 0.16) / 2))


def test_empty_team_is_rejected():
    with pytest.raises(RatingInputError, match="at least one player"):
        rate_team_game([], [Rating(1500, 100, 0.06)], 1, CONFIG)
