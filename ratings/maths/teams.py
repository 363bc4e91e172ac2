"""Glicko-2 for team games (Kazambi pairs, Stolbiki 2 v 2 and 3 v 3).

Every player keeps an individual Glicko-2 rating; there are no team ratings. A team game
updates each member as if the member had played one two-player game, built as follows.

1. **Team composites.** On the Glicko-2 scale a team's strength is the mean of its members'
   ``mu`` and its uncertainty is the root mean square of their ``phi``:
   ``mu_T = mean(mu_i)``, ``phi_T = sqrt(mean(phi_i^2))``. The mean (not the sum) keeps a
   team on the same scale as a player, so a pair of 1500s against a pair of 1500s is an
   even game, and 2 v 2 ratings stay comparable with 1 v 1 ratings. The root mean square
   treats the team as uncertain as its typical member.
2. **One expected score per team.** The result is a team result, so every member of a team
   shares the same expected score, the Glicko-2 expectation of ``mu_A`` against
   ``(mu_B, phi_B)``. A strong player carried by a weak partner is not punished for the
   partner's weakness, and every member of the winning team gains.
3. **Each member's own step size.** Member ``i`` is rated as in one game against a virtual
   opponent with ``mu = mu_i - (mu_A - mu_B)`` and ``phi = phi_B``: the virtual opponent
   stands as far from the member as the opposing team stands from the member's team, so
   the expectation is that of step 2. The Glicko-2 update then uses the member's own
   ``phi`` and ``sigma``: a member whose rating is uncertain (high RD) moves more, a settled
   member moves less, and each member's volatility responds to the surprise of the result.

Properties (tested): a 1 v 1 "team" game is exactly the two-player update; the winners go
up and the losers down; swapping the teams and the result mirrors every change; when all
players have the same deviation and volatility, the points won by one team equal the
points lost by the other.

A player may sit in several seats of one side (1 v 1 Stolbiki is played as 2 v 2); list
the player once per side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ratings.maths.errors import RatingInputError
from ratings.maths.glicko2 import (
    GLICKO2_SCALE,
    SCALE_CENTRE,
    Glicko2Config,
    Rating,
    capped_on_scale,
    check_score,
    update_one_game_on_scale,
)


def team_composite(members: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``(mu_T, phi_T)`` of a team from its members' ``(mu, phi)`` on the Glicko-2 scale."""
    if not members:
        raise RatingInputError("a team needs at least one player")
    count = len(members)
    mu = math.fsum(mu for mu, _ in members) / count
    phi = math.sqrt(math.fsum(phi * phi for _, phi in members) / count)
    return mu, phi


def update_team_on_scale(
    team: Sequence[tuple[float, float, float]],
    opponents: Sequence[tuple[float, float, float]],
    score: float,
    config: Glicko2Config,
) -> list[tuple[float, float, float]]:
    """New ``(mu, phi, sigma)`` of each member of ``team`` after a game scoring ``score``.

    The config's mode applies to each member's update as in a two-player game (lichess:
    ratings below the floor count as the floor, no step 6, the caps afterwards).
    """
    floor = config.min_mu
    own_mu, _ = team_composite([(max(mu, floor), phi) for mu, phi, _ in team])
    their_mu, their_phi = team_composite([(max(mu, floor), phi) for mu, phi, _ in opponents])
    gap = own_mu - their_mu
    step6 = not config.lichess
    updated = []
    for mu, phi, sigma in team:
        counted = max(mu, floor)
        mu_new, phi_new, sigma_new = update_one_game_on_scale(
            counted, phi, sigma, counted - gap, their_phi, score, config.tau, step6
        )
        updated.append(capped_on_scale(config, mu, mu_new, phi_new, sigma_new))
    return updated


def rate_team_game(
    team_a: Sequence[Rating],
    team_b: Sequence[Rating],
    score_a: float,
    config: Glicko2Config,
) -> tuple[list[Rating], list[Rating]]:
    """The members' new ratings after team A scores ``score_a`` (1, 0.5 or 0) against B.

    Ratings should already include any growth of the deviation for inactivity
    (:func:`ratings.maths.glicko2.inflate_for_inactivity`).
    """
    check_score(score_a)
    scaled_a = [_scaled(member) for member in team_a]
    scaled_b = [_scaled(member) for member in team_b]
    new_a = update_team_on_scale(scaled_a, scaled_b, float(score_a), config)
    new_b = update_team_on_scale(scaled_b, scaled_a, 1.0 - float(score_a), config)
    return [_unscaled(member) for member in new_a], [_unscaled(member) for member in new_b]


def _scaled(rating: Rating) -> tuple[float, float, float]:
    return (
        (rating.rating - SCALE_CENTRE) / GLICKO2_SCALE,
        rating.rd / GLICKO2_SCALE,
        rating.volatility,
    )


def _unscaled(member: tuple[float, float, float]) -> Rating:
    mu, phi, sigma = member
    return Rating(mu * GLICKO2_SCALE + SCALE_CENTRE, phi * GLICKO2_SCALE, sigma)
