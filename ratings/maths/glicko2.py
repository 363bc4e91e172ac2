"""Glicko-2 ratings, after Mark Glickman's "Example of the Glicko-2 system".

The paper's steps map onto this module as follows:

* Steps 1-2, the scale: ``rating = 173.7178 * mu + 1500`` and ``rd = 173.7178 * phi``
  (:func:`to_glicko2_scale`, :func:`from_glicko2_scale`).
* Steps 3-4, the estimated variance ``v`` and improvement ``delta`` of a rating period.
* Step 5, the new volatility: the root of ``f`` found with the Illinois algorithm
  (:func:`new_volatility`), stopping when the bracket is narrower than 1e-6.
* Steps 6-8, the pre-period deviation ``phi* = sqrt(phi^2 + sigma'^2)``, the new deviation
  and rating, and the conversion back.

The same steps serve two modes, chosen by :attr:`Glicko2Config.mode`:

* ``"lichess"`` (the default) rates exactly as lichess does (lila's rating module, whose
  calculator now lives in scalachess's ``rating`` module). **Each game is its own rating
  period, and step 6 is skipped** (lila rates with ``skipDeviationIncrease``: ``phi* = phi``).
  Instead **the deviation grows with time**: before a game each player's deviation becomes
  ``phi = sqrt(phi^2 + t * sigma^2)`` with ``t = days since their last game x 0.21436``
  (lichess's rating periods per day, "so that RD 60 reaches 110 in a year"), clamped to
  ``[45, initial_rd]``. Ratings below 400 enter the calculation as 400. After the game the
  rating stays within 700 points of the one before and is at least 400, the deviation is
  clamped to ``[45, initial_rd]`` (lichess: 500) and the volatility to at most 0.1.
  A 1500/350 player who beats an equal one gets 1662.21 and RD 290.2305.
* ``"glickman"``: the paper's rating period applied to every game: step 6 grows the
  deviation by the new volatility before each game's update, the deviation also grows by
  ``days / period_days`` empty periods (5 days each by default) between games, capped at
  ``initial_rd``; no other caps. The same player gets 1662.31 and RD 290.32.

:func:`rate_period` is the paper's algorithm as printed (any number of games in one rating
period, no caps); it reproduces the worked example. :func:`rate_game` rates one game under
a :class:`Glicko2Config`. A rating is **provisional** while its deviation is at least
``provisional_rd`` (110 by default), in both modes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from games.i18n import N_
from ratings.maths.errors import RatingConfigError, RatingInputError

GLICKO2_SCALE = 173.7178
"""Rating points per unit of the Glicko-2 scale (the paper's 400 / ln 10, rounded)."""

SCALE_CENTRE = 1500.0
"""The rating that sits at ``mu = 0`` on the Glicko-2 scale."""

CONVERGENCE_TOLERANCE = 1e-6
"""The paper's epsilon for the Illinois iteration of step 5."""

MAX_ILLINOIS_STEPS = 200

LICHESS = "lichess"
GLICKMAN = "glickman"
MODES = (LICHESS, GLICKMAN)
"""The rating modes of :class:`Glicko2Config` (see the module docstring)."""

LICHESS_PERIODS_PER_DAY = 0.21436
"""lichess's rating periods per day of inactivity: RD 60 grows to 110 in a year (sigma 0.06)."""

GLICKMAN_PERIOD_DAYS = 5.0
"""The length of an empty rating period in the ``"glickman"`` mode, by default."""

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

    The defaults are lichess's: a newcomer is 1500 with deviation 500 and volatility 0.09,
    ``tau`` is 0.75, and ``mode`` is ``"lichess"`` (see the module docstring for the two
    modes). ``period_days`` is the length of one rating period of inactivity; left ``None``
    it is the mode's own (lichess: 1 / 0.21436 days; glickman: 5 days). ``min_rd``,
    ``max_volatility``, ``min_rating`` and ``max_change`` are the lichess mode's caps and
    are not used by the glickman mode.
    """

    initial_rating: float = 1500.0
    initial_rd: float = 500.0
    initial_volatility: float = 0.09
    tau: float = 0.75
    period_days: float | None = None
    provisional_rd: float = 110.0
    mode: str = LICHESS
    min_rd: float = 45.0
    max_volatility: float = 0.1
    min_rating: float = 400.0
    max_change: float = 700.0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise RatingConfigError(N_("mode must be one of %(modes)s, not %(mode)r"),
                                    modes=", ".join(MODES), mode=self.mode)
        positive = {
            "initial_rd": self.initial_rd,
            "initial_volatility": self.initial_volatility,
            "tau": self.tau,
            "provisional_rd": self.provisional_rd,
            "min_rd": self.min_rd,
            "max_volatility": self.max_volatility,
            "max_change": self.max_change,
        }
        if self.period_days is not None:
            positive["period_days"] = self.period_days
        for name, value in positive.items():
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise RatingConfigError(N_("%(name)s must be a positive number, not %(value)r"),
                                        name=name, value=value)
        for name, value in (("initial_rating", self.initial_rating),
                            ("min_rating", self.min_rating)):
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise RatingConfigError(N_("%(name)s must be a finite number, not %(value)r"),
                                        name=name, value=value)
        if self.lichess and self.min_rd > self.initial_rd:
            raise RatingConfigError(
                N_("min_rd (%(min_rd)s) must not exceed initial_rd (%(initial_rd)s)"),
                min_rd=self.min_rd, initial_rd=self.initial_rd)

    @property
    def lichess(self) -> bool:
        return self.mode == LICHESS

    @property
    def periods_per_day(self) -> float:
        """Rating periods per day of inactivity (the ``t`` of the deviation's growth)."""
        if self.period_days is not None:
            return 1.0 / self.period_days
        return LICHESS_PERIODS_PER_DAY if self.lichess else 1.0 / GLICKMAN_PERIOD_DAYS

    def new_rating(self) -> Rating:
        """The rating of a player who has never played."""
        return Rating(self.initial_rating, self.initial_rd, self.initial_volatility)

    @property
    def max_phi(self) -> float:
        """The cap on the deviation, on the Glicko-2 scale."""
        return self.initial_rd / GLICKO2_SCALE

    @property
    def min_phi(self) -> float:
        """The floor of the deviation on the Glicko-2 scale (0 in the glickman mode)."""
        return self.min_rd / GLICKO2_SCALE if self.lichess else 0.0

    @property
    def min_mu(self) -> float:
        """The lowest rating that enters a calculation, on the Glicko-2 scale."""
        return (self.min_rating - SCALE_CENTRE) / GLICKO2_SCALE if self.lichess else -math.inf


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
    *,
    step6: bool = True,
) -> PeriodUpdate:
    """Steps 3-7 of the paper on the Glicko-2 scale.

    ``player`` is ``(mu, phi, sigma)``; ``games`` holds ``(mu_j, phi_j, score_j)`` for each
    game of the period. ``step6=False`` skips the growth of the deviation by the new
    volatility (lichess: ``phi* = phi``).
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
        phi_empty = math.sqrt(phi * phi + sigma * sigma) if step6 else phi
        return PeriodUpdate(mu, phi_empty, sigma, None, None)
    variance = 1.0 / inverse_variance
    improvement = variance * weighted_surprise
    sigma_new = new_volatility(sigma, phi, variance, improvement, tau)
    phi_star_squared = phi * phi + sigma_new * sigma_new if step6 else phi * phi
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
    step6: bool = True,
) -> tuple[float, float, float]:
    """Steps 3-7 for a period of exactly one game: the new ``(mu, phi, sigma)``.

    The same arithmetic as :func:`update_on_scale`, unrolled for the bulk recomputation.
    """
    g_opponent = 1.0 / math.sqrt(1.0 + _THREE_OVER_PI_SQUARED * phi_opponent * phi_opponent)
    expected = 1.0 / (1.0 + math.exp(-g_opponent * (mu - mu_opponent)))
    inverse_variance = g_opponent * g_opponent * expected * (1.0 - expected)
    if inverse_variance == 0.0:
        return mu, (math.sqrt(phi * phi + sigma * sigma) if step6 else phi), sigma
    surprise = g_opponent * (score - expected)
    variance = 1.0 / inverse_variance
    sigma_new = new_volatility(sigma, phi, variance, variance * surprise, tau)
    phi_star_squared = phi * phi + sigma_new * sigma_new if step6 else phi * phi
    phi_new = 1.0 / math.sqrt(1.0 / phi_star_squared + inverse_variance)
    return mu + phi_new * phi_new * surprise, phi_new, sigma_new


def capped_on_scale(
    config: Glicko2Config, mu_before: float, mu: float, phi: float, sigma: float
) -> tuple[float, float, float]:
    """The mode's limits on a rating after a game, on the Glicko-2 scale.

    lichess: within ``max_change`` of ``mu_before`` (the stored rating), at least
    ``min_rating``, deviation within ``[min_rd, initial_rd]``, volatility at most
    ``max_volatility``. glickman: the deviation at most ``initial_rd``.
    """
    if phi > config.max_phi:
        phi = config.max_phi
    if not config.lichess:
        return mu, phi, sigma
    step = config.max_change / GLICKO2_SCALE
    mu = min(max(mu, mu_before - step), mu_before + step)
    return max(mu, config.min_mu), max(phi, config.min_phi), min(sigma, config.max_volatility)


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
    """The rating after ``days`` without games: only the deviation grows, up to the cap
    (lichess: clamped to ``[min_rd, initial_rd]``, like lichess's live deviation)."""
    if not (math.isfinite(days) and days >= 0):
        raise RatingInputError(f"days of inactivity must be zero or more, not {days!r}")
    phi = grown_phi(
        player.rd / GLICKO2_SCALE, player.volatility, days * config.periods_per_day,
        config.max_phi, config.min_phi,
    )
    return Rating(player.rating, phi * GLICKO2_SCALE, player.volatility)


def grown_phi(phi: float, sigma: float, periods: float, max_phi: float,
              min_phi: float = 0.0) -> float:
    """The deviation after ``periods`` empty rating periods, within ``[min_phi, max_phi]``."""
    return max(min(math.sqrt(phi * phi + periods * sigma * sigma), max_phi), min_phi)


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

    Both ratings first grow their deviation for the days since each player's last game;
    then the game is rated under the config's mode (see the module docstring).
    """
    check_score(score)
    player = inflate_for_inactivity(player, days_inactive, config)
    opponent = inflate_for_inactivity(opponent, opponent_days_inactive, config)
    own = to_glicko2_scale(player)
    other = to_glicko2_scale(opponent)
    mu, phi, sigma = update_one_game_on_scale(
        max(own.mu, config.min_mu), own.phi, own.sigma,
        max(other.mu, config.min_mu), other.phi,
        float(score), config.tau, step6=not config.lichess,
    )
    return from_glicko2_scale(*capped_on_scale(config, own.mu, mu, phi, sigma))


def is_provisional(rating: Rating, config: Glicko2Config) -> bool:
    """Whether the rating is still provisional (deviation at least ``provisional_rd``)."""
    return rating.rd >= config.provisional_rd
