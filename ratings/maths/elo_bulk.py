"""Replay FIDE Elo over a history of rated games, each game its own rating period.

The Elo counterpart of :func:`ratings.maths.bulk.recompute_ratings`: the ratings service
feeds it the games of a pool in the order they were played and stores what it returns.
Each change is rounded per game (FIDE's rule for a one-game period). A team game rates
every member as in a game between the two teams' mean ratings, with the member's own K.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time
from typing import Any, NamedTuple

from games.i18n import N_
from ratings.maths import elo
from ratings.maths.bulk import RatedGame
from ratings.maths.errors import RatingError


@dataclass(frozen=True, slots=True)
class EloSettings:
    """A club's Elo parameters. ``k`` fixes K for everyone; ``None`` follows FIDE 8.3.3."""

    initial_rating: float = 1500.0
    k: int | None = None
    provisional_games: int = 5
    """A rating is provisional until it rests on this many games (FIDE publishes after 5)."""


@dataclass(slots=True)
class EloPlayerState:
    """A player's Elo after the last game seen (or where a replay starts from)."""

    rating: float
    games: int = 0
    last_played_at: datetime | None = None
    peak: float = -math.inf


class EloHistoryRow(NamedTuple):
    player_id: Hashable
    game_id: Hashable
    rating_before: float
    rating_after: float


@dataclass(slots=True)
class EloReplay:
    history: list[EloHistoryRow] = field(default_factory=list)
    ratings: dict[Hashable, EloPlayerState] = field(default_factory=dict)


def as_datetime(moment: date | datetime) -> datetime:
    """A game's moment as a datetime (a plain date is taken at midnight UTC)."""
    if isinstance(moment, datetime):
        return moment
    return datetime.combine(moment, time(), tzinfo=UTC)


def replay_elo(
    games: Iterable[RatedGame],
    settings: EloSettings,
    starting: Mapping[Any, EloPlayerState] | None = None,
) -> EloReplay:
    """Rate ``games`` in the order given, from ``starting`` (new players start at the
    settings' initial rating). A game dated before a player's previous one is refused."""
    states = {player: replace(state) for player, state in (starting or {}).items()}
    history: list[EloHistoryRow] = []
    for game in games:
        side_a, side_b = (tuple(dict.fromkeys(side)) for side in game.sides)
        if not side_a or not side_b or set(side_a) & set(side_b):
            raise RatingError(N_("game %(game)s: the two sides must be distinct players"),
                              game=game.game_id)
        if game.winner not in (0, 1, None):
            raise RatingError(N_("game %(game)s: winner must be 0, 1 or None"), game=game.game_id)
        played_at = as_datetime(game.played_at)
        members: list[tuple[Hashable, EloPlayerState]] = []
        for player in (*side_a, *side_b):
            state = states.get(player)
            if state is None:
                initial = settings.initial_rating
                state = states[player] = EloPlayerState(initial, peak=initial)
            elif state.last_played_at is not None and state.last_played_at > played_at:
                raise RatingError(
                    N_("game %(game)s is dated before the previous game of player "
                       "%(player)s; give the games in order of date"),
                    game=game.game_id, player=player)
            members.append((player, state))
        mean_a = math.fsum(state.rating for _, state in members[: len(side_a)]) / len(side_a)
        mean_b = math.fsum(state.rating for _, state in members[len(side_a) :]) / len(side_b)
        score_a = 0.5 if game.winner is None else 1.0 - game.winner
        for index, (player, state) in enumerate(members):
            on_a = index < len(side_a)
            own, other = (mean_a, mean_b) if on_a else (mean_b, mean_a)
            score = score_a if on_a else 1.0 - score_a
            k = settings.k or elo.k_factor(
                rating=state.rating, games_played=state.games,
                has_reached_2400=state.peak >= elo.SENIOR_RATING,
            )
            change = elo.rating_change_for_period(own, [(other, score)], k).change
            before = state.rating
            state.rating = before + change
            state.games += 1
            state.last_played_at = played_at
            state.peak = max(state.peak, state.rating)
            history.append(EloHistoryRow(player, game.game_id, before, state.rating))
    return EloReplay(history, states)
