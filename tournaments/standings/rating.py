"""Rating arithmetic for ARO and TPR (FIDE Rating Regulations, table 8.1.1).

>>> rating_difference(0.5), rating_difference(0.75), rating_difference(0.2)
(0, 193, -240)
>>> performance_rating(1900, 4.5, 6)
2093
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

# dp for fractional scores 0.50, 0.51, ... 1.00 (the table is symmetric below 0.50).
_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip


def round_half_up(value: float) -> int:
    return int(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def rating_difference(fraction: float) -> int:
    """dp for a fractional score p (rounded to the nearest hundredth, halves up)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"a fractional score lies in 0..1, got {fraction}")
    hundredths = round_half_up(fraction * 100)
    if hundredths >= 50:
        return _DP_FROM_HALF[hundredths - 50]
    return -_DP_FROM_HALF[50 - hundredths]


def average_rating(ratings: list[int]) -> int:
    """Average of ratings rounded to the nearest whole number, halves up (0 if none)."""
    if not ratings:
        return 0
    return round_half_up(sum(ratings) / len(ratings))


def performance_rating(average_opponent_rating: int, game_points: float, games: int) -> int:
    """FIDE tournament performance rating: ARO + dp(game points / games)."""
    if games <= 0:
        return 0
    return average_opponent_rating + rating_difference(game_points / games)
