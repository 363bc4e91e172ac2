"""Recompute Glicko-2 ratings over a whole history of rated games, fast.

``manage.py recompute_ratings`` feeds every rated game, oldest first, to
:func:`recompute_ratings` and stores the history rows and final ratings it returns. The rules
are those of :mod:`ratings.maths.glicko2` under the config's mode (each game its own
rating period, deviation growth with inactivity, the mode's caps) and, for team games,
:mod:`ratings.maths.teams`.

Everything runs on the Glicko-2 scale in plain floats; only the output is converted back.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from games.i18n import N_
from ratings.maths.errors import RatingInputError
from ratings.maths.glicko2 import (
    GLICKO2_SCALE,
    SCALE_CENTRE,
    Glicko2Config,
    update_one_game_on_scale,
)
from ratings.maths.teams import update_team_on_scale

_SECONDS_PER_DAY = 86400.0


class RatedGame(NamedTuple):
    """One rated game: its id, when it was played, the players of each side, the winner.

    ``sides`` holds two sequences of player ids (one id each in a two-player game);
    ``winner`` is 0, 1, or ``None`` for a draw, as in ``engine.result(state)["winner"]``.
    """

    game_id: Hashable
    played_at: date | datetime
    sides: tuple[Sequence[Hashable], Sequence[Hashable]]
    winner: int | None


class HistoryRow(NamedTuple):
    """One player's rating change in one game."""

    player_id: Hashable
    game_id: Hashable
    rating_before: float
    rating_after: float
    rd_after: float
    volatility_after: float


@dataclass(slots=True)
class PlayerRatingState:
    """A player's rating after the last game seen (or a starting point for a recompute)."""

    rating: float
    rd: float
    volatility: float
    games: int = 0
    last_played_at: date | datetime | None = None


@dataclass(slots=True)
class RecomputeResult:
    history: list[HistoryRow] = field(default_factory=list)
    ratings: dict[Hashable, PlayerRatingState] = field(default_factory=dict)


def day_number(moment: date | datetime) -> float:
    """Days since 0001-01-01 as a float (aware datetimes are taken in UTC)."""
    if isinstance(moment, datetime):
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        seconds = moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 1e6
        return moment.toordinal() + seconds / _SECONDS_PER_DAY
    if isinstance(moment, date):
        return float(moment.toordinal())
    raise RatingInputError(f"a game's date must be a date or datetime, not {moment!r}")


def recompute_ratings(
    games: Iterable[RatedGame],
    config: Glicko2Config | None = None,
    starting_ratings: Mapping[Any, PlayerRatingState] | None = None,
) -> RecomputeResult:
    """Rate ``games`` in the order given; return history rows and the final ratings.

    Players absent from ``starting_ratings`` start at the configured initial rating.
    Games must come in order of ``played_at``; a game dated before a player's previous
    game raises :class:`RatingInputError`.
    """
    config = config or Glicko2Config()
    tau = config.tau
    max_phi = config.max_phi
    min_phi = config.min_phi
    min_mu = config.min_mu
    step6 = not config.lichess
    periods_per_day = config.periods_per_day
    scale = GLICKO2_SCALE
    sqrt = math.sqrt
    update = update_one_game_on_scale
    # The mode's caps (glicko2.capped_on_scale), inlined: this loop runs once per rating.
    lichess = config.lichess
    max_step = config.max_change / scale
    max_sigma = config.max_volatility

    # Per player: [mu, phi, sigma, last day number or None, games, last played_at]
    states: dict[Hashable, list[Any]] = {}
    for player_id, start in (starting_ratings or {}).items():
        last = start.last_played_at
        states[player_id] = [
            (start.rating - SCALE_CENTRE) / scale,
            max(min(start.rd / scale, max_phi), min_phi),
            start.volatility,
            None if last is None else day_number(last),
            start.games,
            last,
        ]
    new_mu = (config.initial_rating - SCALE_CENTRE) / scale
    new_sigma = config.initial_volatility

    history: list[HistoryRow] = []
    append = history.append
    for game in games:
        game_id, played_at, sides, winner = game
        today = day_number(played_at)
        side_a, side_b = _checked_sides(game_id, sides)
        if winner is None:
            score_a = 0.5
        elif winner == 0:
            score_a = 1.0
        elif winner == 1:
            score_a = 0.0
        else:
            raise RatingInputError(
                N_("game %(game)s: winner must be 0, 1 or None (a draw), not %(winner)r"),
                game=game_id, winner=winner)

        entries = []
        for player_id in (*side_a, *side_b):
            state = states.get(player_id)
            if state is None:
                state = [new_mu, max_phi, new_sigma, None, 0, None]
                states[player_id] = state
            elif state[3] is not None:
                days = today - state[3]
                if days < 0:
                    raise RatingInputError(
                        N_("game %(game)s is dated before the previous game of player "
                           "%(player)s; give the games in order of date"),
                        game=game_id, player=player_id)
                phi, sigma = state[1], state[2]
                phi = min(sqrt(phi * phi + days * periods_per_day * sigma * sigma), max_phi)
                state[1] = phi if phi > min_phi else min_phi
            entries.append(state)

        if len(side_a) == 1 and len(side_b) == 1:
            state_a, state_b = entries
            mu_a, phi_a, sigma_a = state_a[0], state_a[1], state_a[2]
            mu_b, phi_b, sigma_b = state_b[0], state_b[1], state_b[2]
            counted_a = mu_a if mu_a > min_mu else min_mu
            counted_b = mu_b if mu_b > min_mu else min_mu
            results = [
                update(counted_a, phi_a, sigma_a, counted_b, phi_b, score_a, tau, step6),
                update(counted_b, phi_b, sigma_b, counted_a, phi_a, 1.0 - score_a, tau, step6),
            ]
        else:
            team_a = [(s[0], s[1], s[2]) for s in entries[: len(side_a)]]
            team_b = [(s[0], s[1], s[2]) for s in entries[len(side_a) :]]
            results = update_team_on_scale(
                team_a, team_b, score_a, config
            ) + update_team_on_scale(team_b, team_a, 1.0 - score_a, config)

        for player_id, state, (mu, phi, sigma) in zip(
            (*side_a, *side_b), entries, results, strict=True
        ):
            if phi > max_phi:
                phi = max_phi
            if lichess:
                low, high = state[0] - max_step, state[0] + max_step
                mu = low if mu < low else high if mu > high else mu
                if mu < min_mu:
                    mu = min_mu
                if phi < min_phi:
                    phi = min_phi
                if sigma > max_sigma:
                    sigma = max_sigma
            rating_before = state[0] * scale + SCALE_CENTRE
            state[0] = mu
            state[1] = phi
            state[2] = sigma
            state[3] = today
            state[4] += 1
            state[5] = played_at
            append(
                HistoryRow(
                    player_id, game_id, rating_before, mu * scale + SCALE_CENTRE, phi * scale, sigma
                )
            )

    ratings = {
        player_id: PlayerRatingState(
            state[0] * scale + SCALE_CENTRE, state[1] * scale, state[2], state[4], state[5]
        )
        for player_id, state in states.items()
    }
    return RecomputeResult(history, ratings)


def _checked_sides(
    game_id: Hashable, sides: Sequence[Sequence[Hashable]]
) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...]]:
    """The two sides with repeated seats of one player merged; rejects impossible sides."""
    if len(sides) != 2:
        raise RatingInputError(f"game {game_id}: a rated game has two sides, not {len(sides)}")
    side_a = tuple(dict.fromkeys(sides[0]))
    side_b = tuple(dict.fromkeys(sides[1]))
    if not side_a or not side_b:
        raise RatingInputError(f"game {game_id}: each side needs at least one player")
    if len(side_a) == 1 and len(side_b) == 1:
        if side_a[0] == side_b[0]:
            raise RatingInputError(f"game {game_id}: player {side_a[0]} is on both sides")
    elif set(side_a) & set(side_b):
        both = ", ".join(str(player) for player in set(side_a) & set(side_b))
        raise RatingInputError(f"game {game_id}: player(s) {both} on both sides")
    return side_a, side_b
