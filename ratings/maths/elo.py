"""Elo ratings by the FIDE Rating Regulations (handbook B.02, section 8, as of March 2024).

* **Expected score** (8.1.2, "table b"): the score probability ``PD`` comes from FIDE's table
  of rating differences, not from the logistic formula; the two differ by up to 0.01 (and
  more in the tails). :func:`logistic_expected_score` is there for comparison only.
* **400-point rule** (8.3.1): a difference of more than 400 points counts as 400, so the
  expected score of the stronger player never exceeds 0.92.
* **Development coefficient K** (8.3.3): 40 for a player new to the list until they have
  completed events with at least 30 games, and for juniors (until the end of the year of
  their 18th birthday) while their rating is under 2300; 20 while the rating stays under 2400;
  10 once the published rating has reached 2400, even if it later drops. The 700 rule:
  when ``K * games`` in one rating period exceeds 700, K becomes the largest whole number
  with ``K * games <= 700``.
* **Rating change** (8.3.2, 8.3.4): per game ``K * (score - PD)``; per tournament or rating
  period ``K * sum(score - PD)``, rounded to the nearest whole number, 0.5 away from zero.

Ratings before the period are used for every game of the period.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ratings.maths.errors import RatingInputError

MAX_COUNTED_DIFFERENCE = 400
"""The 400-point rule: a larger rating difference counts as 400."""

K_NEW_PLAYER = 40
K_JUNIOR = 40
K_STANDARD = 20
K_SENIOR = 10
NEW_PLAYER_GAMES = 30
JUNIOR_RATING_LIMIT = 2300
SENIOR_RATING = 2400
MAX_K_TIMES_GAMES = 700

# FIDE table 8.1.2: (largest rating difference of the row, PD of the higher rated player).
# A difference above 735 gives 1.00 (unreachable under the 400-point rule).
_FIDE_TABLE: tuple[tuple[int, float], ...] = (
    (3, 0.50), (10, 0.51), (17, 0.52), (25, 0.53), (32, 0.54), (39, 0.55), (46, 0.56),
    (53, 0.57), (61, 0.58), (68, 0.59), (76, 0.60), (83, 0.61), (91, 0.62), (98, 0.63),
    (106, 0.64), (113, 0.65), (121, 0.66), (129, 0.67), (137, 0.68), (145, 0.69),
    (153, 0.70), (162, 0.71), (170, 0.72), (179, 0.73), (188, 0.74), (197, 0.75),
    (206, 0.76), (215, 0.77), (225, 0.78), (235, 0.79), (245, 0.80), (256, 0.81),
    (267, 0.82), (278, 0.83), (290, 0.84), (302, 0.85), (315, 0.86), (328, 0.87),
    (344, 0.88), (357, 0.89), (374, 0.90), (391, 0.91), (411, 0.92), (432, 0.93),
    (456, 0.94), (484, 0.95), (517, 0.96), (559, 0.97), (619, 0.98), (735, 0.99),
)  # fmt: skip
_ROW_LIMITS = tuple(limit for limit, _ in _FIDE_TABLE)


def fide_table_probability(difference: int) -> float:
    """PD from FIDE table 8.1.2 for a rating difference (positive: the player is higher).

    No 400-point cap is applied here; :func:`expected_score` applies it.
    """
    size = abs(difference)
    row = bisect.bisect_left(_ROW_LIMITS, size)
    higher = 1.0 if row == len(_FIDE_TABLE) else _FIDE_TABLE[row][1]
    return higher if difference >= 0 else round(1.0 - higher, 2)


def expected_score(rating: float, opponent_rating: float) -> float:
    """The player's score probability PD against one opponent, by the FIDE table.

    Ratings are whole numbers in FIDE lists; a fractional difference is rounded to the
    nearest whole number (0.5 away from zero) before the table is read.
    """
    _check_rating(rating)
    _check_rating(opponent_rating)
    difference = _round_half_away(rating - opponent_rating)
    difference = max(-MAX_COUNTED_DIFFERENCE, min(MAX_COUNTED_DIFFERENCE, difference))
    return fide_table_probability(difference)


def logistic_expected_score(rating: float, opponent_rating: float) -> float:
    """The logistic curve ``1 / (1 + 10^(-D/400))`` that the FIDE table approximates."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent_rating - rating) / 400.0)))


def k_factor(
    *,
    rating: float,
    games_played: int,
    is_junior: bool = False,
    has_reached_2400: bool = False,
) -> int:
    """The development coefficient K of FIDE 8.3.3.

    ``games_played`` counts the rated games completed before this event; ``is_junior`` is
    true until the end of the year of the player's 18th birthday; ``has_reached_2400`` is
    true once a published rating has reached 2400.
    """
    _check_rating(rating)
    if games_played < 0:
        raise RatingInputError(f"games played must be zero or more, not {games_played}")
    if games_played < NEW_PLAYER_GAMES:
        return K_NEW_PLAYER
    if has_reached_2400 or rating >= SENIOR_RATING:
        return K_SENIOR
    if is_junior and rating < JUNIOR_RATING_LIMIT:
        return K_JUNIOR
    return K_STANDARD


def k_for_period(k: int, games_in_period: int) -> int:
    """K after the 700 rule: at most the largest whole number with ``K * games <= 700``."""
    if k <= 0:
        raise RatingInputError(f"K must be positive, not {k}")
    if games_in_period <= 0:
        return k
    return min(k, MAX_K_TIMES_GAMES // games_in_period)


def rating_change_for_game(rating: float, opponent_rating: float, score: float, k: int) -> float:
    """The unrounded rating change ``K * (score - PD)`` for one game."""
    _check_score(score)
    if k <= 0:
        raise RatingInputError(f"K must be positive, not {k}")
    return k * (score - expected_score(rating, opponent_rating))


@dataclass(frozen=True, slots=True)
class PeriodChange:
    """The rating change of one player over a tournament or rating period."""

    k: int
    """K after the 700 rule."""
    games: int
    score: float
    expected: float
    """The sum of PD over the games."""
    change: int
    """``K * (score - expected)`` rounded to a whole number, 0.5 away from zero."""

    @property
    def unrounded_change(self) -> float:
        return self.k * (self.score - self.expected)


def rating_change_for_period(
    rating: float, games: Sequence[tuple[float, float]], k: int
) -> PeriodChange:
    """The rating change over a tournament or period of ``(opponent_rating, score)`` games.

    ``k`` is the player's K from :func:`k_factor`; the 700 rule is applied here.
    """
    for _, score in games:
        _check_score(score)
    k_used = k_for_period(k, len(games))
    expected = math.fsum(expected_score(rating, opponent) for opponent, _ in games)
    score_total = math.fsum(score for _, score in games)
    change = _round_half_away(k_used * (score_total - expected))
    return PeriodChange(k_used, len(games), score_total, expected, change)


def _round_half_away(value: float) -> int:
    """Round to the nearest whole number, 0.5 away from zero (FIDE 8.3.4).

    Sums of two-decimal probabilities carry binary noise (``0.15 * 10`` is
    ``1.4999999999999998``), so the value is first rounded to nine decimals.
    """
    value = round(value, 9)
    return int(math.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


def _check_rating(rating: float) -> None:
    if not (isinstance(rating, int | float) and math.isfinite(rating)):
        raise RatingInputError(f"a rating must be a finite number, not {rating!r}")


def _check_score(score: float) -> None:
    if not (isinstance(score, int | float) and 0.0 <= score <= 1.0):
        raise RatingInputError(f"a game score must be 0, 0.5 or 1, not {score!r}")
