"""Glicko-2 ratings, after Mark Glickman's "Example of the Glicko-2 system".

The paper's steps map onto this module as follows:

* Steps 1-2, the scale: ``rating = 173.7178 * mu + 1500`` and ``rd = 173.7178 * phi``
  (:func:`to_glicko2_scale`, :func:`from_glicko2_scale`).
* Steps 3-4, the estimated variance ``v`` and improvement ``delta`` of a rating period.
* Step 5, the new volatility: the root of ``f`` found with the Illinois algorithm
  (:func:`new_volatility`), stopping when the bracket is narrower than 1e-6.
* Steps 6-8, the pre-period deviation ``phi* = sqrt(phi^2 + sigma'^2)``, the new deviation
  and rating, and the conversion back.

:func:`rate_period` is the paper's algorithm as printed (any number of games in one rating
period, no caps); it reproduces the worked example. The service itself uses
:func:`rate_game` with a :class:`Glicko2Config`, under these rules:

* **Each game is its own rating period.** Online game servers do this: a rating moves after
  every game instead of at the end of a month.
* **Inactivity.** A player who has not played for ``days`` days has been through
  ``days / period_days`` empty rating periods (fractions count). Each empty period applies the
  paper's step 6 with the player's own volatility, so
  ``phi = sqrt(phi^2 + (days / period_days) * sigma^2)``.
* **Cap.** The deviation never exceeds the initial deviation (``initial_rd``): a long
  absence makes a player as uncertain as a newcomer, not more.
* **Provisional.** A rating is provisional while its deviation is at least
  ``provisional_rd`` (110 by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ratings.maths.errors import RatingConfigError, RatingInputError

GLICKO2_SCALE = 173.7178
"""Rating points per unit of the Glicko-2 scale (the paper's 400 / ln 10, rounded)."""

SCALE_CENTRE = 1500.0
"""The rating that sits at ``mu = 0`` on the Glicko-2 scale."""

CONVERGENCE_TOLERANCE = 1e-6
"""The paper's epsilon for the Illinois iteration of step 5."""

MAX_ILLINOIS_STEPS = 200

_THREE_OVER_PI_SQUARED = 3.0 / (math.pi * math.pi)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the familiar scale: rating, deviation, volatility."""

    rating: float
    rd: float
    volatility: float

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise RatingInputError(f"rating must be a finite number, not {self.rating!r}")
        if not (math.isfinite(self.rd) and self.rd > 0):
            raise RatingInputError(f"rating deviation must be positive, not {self.rd!r}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise RatingInputError(f"volatility must be positive, not {self.volatility!r}")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a rating period: the opponent's rating before the period and the score."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        check_score(self.score)


@dataclass(frozen=True, slots=True)
class Glicko2Config:
    """The parameters of the service's Glicko-2 ratings.

    The defaults are those of online game servers: a newcomer is 1500 with deviation 500
    and volatility 0.09, and ``tau`` is 0.75. ``period_days`` sets how fast the deviation
    grows back with inactivity (see the module docstring).
    """

    initial_rating: float = 1500.0
    initial_rd: float = 500.0
    initial_volatility: float = 0.09
    tau: float = 0.75
    period_days: float = 5.0
    provisional_rd: float = 110.0

    def __post_init__(self) -> None:
        positive = {
            "initial_rd": self.initial_rd,
            "initial_volatility": self.initial_volatility,
            "tau": self.tau,
            "period_days": self.period_days,
            "provisional_rd": self.provisional_rd,
        }
        for name, value in positive.items():
            if not (math.isfinite(value) and value > 0):
                raise RatingConfigError(f"{name} must be a positive number, not {value!r}")
        if not math.isfinite(self.initial_rating):
            raise RatingConfigError(
                f"initial_rating must be a finite number, not {self.initial_rating!r}"
            )

    def new_rating(self) -> Rating:
        """The rating of a player who has never played."""
        return Rating(self.initial_rating, self.initial_rd, self.initial_volatility)

    @property
    def max_phi(self) -> float:
        """The cap on the deviation, on the Glicko-2 scale."""
        return self.initial_rd / GLICKO2_SCALE


class ScaledRating(NamedTuple):
    """A rating on the Glicko-2 scale (the paper's mu, phi, sigma)."""

    mu: float
    phi: float
    sigma: float


class PeriodUpdate(NamedTuple):
    """The outcome of one rating period on the Glicko-2 scale, with the paper's v and delta.

    ``variance`` and ``improvement`` are ``None`` for a period without games.
    """

    mu: float
    phi: float
    sigma: float
    variance: float | None
    improvement: float | None


def check_score(score: float) -> None:
    """Reject a score other than a number from 0 to 1 (1 win, 0.5 draw, 0 loss)."""
    if not (isinstance(score, int | float) and 0.0 <= score <= 1.0):
        raise RatingInputError(f"a game score must be between 0 and 1, not {score!r}")


def to_glicko2_scale(rating: Rating) -> ScaledRating:
    """Step 2 of the paper: convert a rating to the Glicko-2 scale."""
    return ScaledRating(
        (rating.rating - SCALE_CENTRE) / GLICKO2_SCALE,
        rating.rd / GLICKO2_SCALE,
        rating.volatility,
    )


def from_glicko2_scale(mu: float, phi: float, sigma: float) -> Rating:
    """Step 8 of the paper: convert back to the familiar scale."""
    return Rating(GLICKO2_SCALE * mu + SCALE_CENTRE, GLICKO2_SCALE * phi, sigma)


def g(phi: float) -> float:
    """The paper's ``g(phi)``: how much an opponent's uncertainty damps a result."""
    return 1.0 / math.sqrt(1.0 + _THREE_OVER_PI_SQUARED * phi * phi)


def expected_score(mu: float, mu_opponent: float, phi_opponent: float) -> float:
    """The paper's ``E(mu, mu_j, phi_j)``: the expected score against one opponent."""
    return 1.0 / (1.0 + math.exp(-g(phi_opponent) * (mu - mu_opponent)))


def new_volatility(
    sigma: float,
    phi: float,
    variance: float,
    improvement: float,
    tau: float,
    tolerance: float = CONVERGENCE_TOLERANCE,
) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = improvement * improvement
    tau2 = tau * tau
    exp = math.exp

    def f(x: float) -> float:
        ex = exp(x)
        total = phi2 + variance + ex
        return ex * (delta2 - phi2 - variance - ex) / (2.0 * total * total) - (x - a) / tau2

    low = a
    if delta2 > phi2 + variance:
        high = math.log(delta2 - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low = f(low)
    f_high = f(high)
    steps = 0
    while abs(high - low) > tolerance:
        steps += 1
        if steps > MAX_ILLINOIS_STEPS:
            raise ArithmeticError("the Glicko-2 volatility iteration did not converge")
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def update_on_scale(
    player: tuple[float, float, float],
    games: Iterable[tuple[float, float, float]],
    tau: float,
) -> PeriodUpdate:
    """Steps 3-7 of the paper on the Glicko-2 scale.

    ``player`` is ``(mu, phi, sigma)``; ``games`` holds ``(mu_j, phi_j, score_j)`` for each
    game of the period.
    """
    mu, phi, sigma = player
    inverse_variance = 0.0
    weighted_surprise = 0.0
    for mu_j, phi_j, score in games:
        g_j = g(phi_j)
        e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        inverse_variance += g_j * g_j * e_j * (1.0 - e_j)
        weighted_surprise += g_j * (score - e_j)
    if inverse_variance == 0.0:
        return PeriodUpdate(mu, math.sqrt(phi * phi + sigma * sigma), sigma, None, None)
    variance = 1.0 / inverse_variance
    improvement = variance * weighted_surprise
    sigma_new = new_volatility(sigma, phi, variance, improvement, tau)
    phi_star_squared = phi * phi + sigma_new * sigma_new
    phi_new = 1.0 / math.sqrt(1.0 / phi_star_squared + inverse_variance)
    mu_new = mu + phi_new * phi_new * weighted_surprise
    return PeriodUpdate(mu_new, phi_new, sigma_new, variance, improvement)


def update_one_game_on_scale(
    mu: float,
    phi: float,
    sigma: float,
    mu_opponent: float,
    phi_opponent: float,
    score: float,
    tau: float,
) -> tuple[float, float, float]:
    """Steps 3-7 for a period of exactly one game: the new ``(mu, phi, sigma)``.

    The same arithmetic as :func:`update_on_scale`, unrolled for the bulk recomputation.
    """
    g_opponent = 1.0 / math.sqrt(1.0 + _THREE_OVER_PI_SQUARED * phi_opponent * phi_opponent)
    expected = 1.0 / (1.0 + math.exp(-g_opponent * (mu - mu_opponent)))
    inverse_variance = g_opponent * g_opponent * expected * (1.0 - expected)
    if inverse_variance == 0.0:
        return mu, math.sqrt(phi * phi + sigma * sigma), sigma
    surprise = g_opponent * (score - expected)
    variance = 1.0 / inverse_variance
    sigma_new = new_volatility(sigma, phi, variance, variance * surprise, tau)
    phi_new = 1.0 / math.sqrt(1.0 / (phi * phi + sigma_new * sigma_new) + inverse_variance)
    return mu + phi_new * phi_new * surprise, phi_new, sigma_new


def rate_period(player: Rating, results: Sequence[GameResult], tau: float = 0.5) -> Rating:
    """The paper's algorithm: the rating after one period with the given games.

    Opponents' ratings are those at the start of the period. With no games only the
    deviation grows (step 6 with the player's volatility). No cap applies here.
    """
    if not (math.isfinite(tau) and tau > 0):
        raise RatingConfigError(f"tau must be a positive number, not {tau!r}")
    scaled = to_glicko2_scale(player)
    games = [(*to_glicko2_scale(result.opponent)[:2], float(result.score)) for result in results]
    update = update_on_scale(scaled, games, tau)
    return from_glicko2_scale(update.mu, update.phi, update.sigma)


def inflate_for_inactivity(player: Rating, days: float, config: Glicko2Config) -> Rating:
    """The rating after ``days`` without games: only the deviation grows, up to the cap."""
    if not (math.isfinite(days) and days >= 0):
        raise RatingInputError(f"days of inactivity must be zero or more, not {days!r}")
    phi = grown_phi(
        player.rd / GLICKO2_SCALE, player.volatility, days / config.period_days, config.max_phi
    )
    return Rating(player.rating, phi * GLICKO2_SCALE, player.volatility)


def grown_phi(phi: float, sigma: float, periods: float, max_phi: float) -> float:
    """The deviation after ``periods`` empty rating periods, capped at ``max_phi``."""
    return min(math.sqrt(phi * phi + periods * sigma * sigma), max_phi)


def rate_game(
    player: Rating,
    opponent: Rating,
    score: float,
    config: Glicko2Config,
    *,
    days_inactive: float = 0.0,
    opponent_days_inactive: float = 0.0,
) -> Rating:
    """The player's rating after one game, which is its own rating period.

    Both ratings first grow their deviation for the days since each player's last game.
    """
    check_score(score)
    player = inflate_for_inactivity(player, days_inactive, config)
    opponent = inflate_for_inactivity(opponent, opponent_days_inactive, config)
    scaled_opponent = to_glicko2_scale(opponent)
    update = update_on_scale(
        to_glicko2_scale(player),
        [(scaled_opponent.mu, scaled_opponent.phi, float(score))],
        config.tau,
    )
    return from_glicko2_scale(update.mu, min(update.phi, config.max_phi), update.sigma)


def is_provisional(rating: Rating, config: Glicko2Config) -> bool:
    """Whether the rating is still provisional (deviation at least ``provisional_rd``)."""
    return rating.rd >= config.provisional_rd
