"""Replay a pool's rated games with the club's rating system, from the players' states.

No database access: the store (:mod:`ratings.store`) loads the games and states and
writes what :func:`replay` returns.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from matches.rated_games import RatedGame
from ratings.maths import bulk
from ratings.maths.bulk import PlayerRatingState, recompute_ratings
from ratings.maths.elo_bulk import EloPlayerState, EloSettings, replay_elo
from ratings.maths.errors import RatingError
from ratings.maths.glicko2 import Glicko2Config
from ratings.models import Rating, RatingSystem
from ratings.settings import RatingConfig, rating_error_message

Progress = Callable[[int], object]
"""Called with the number of games just rated (``tqdm.update`` fits)."""

_PROGRESS_EVERY = 1000


@dataclass(slots=True)
class PoolState:
    """A player's rating in a pool (``rd`` and ``volatility``: Glicko-2 only)."""

    rating: float
    rd: float | None
    volatility: float | None
    games: int
    last_played_at: dt.datetime | None
    peak: float


#: One rating change: (player, game, rating_before, rating_after, rd_before, rd_after,
#: volatility_after), a plain tuple: a full replay makes hundreds of thousands of them.
Change = tuple[Any, Any, float, float, float | None, float | None, float | None]


def state_of(rating: Rating) -> PoolState:
    return PoolState(
        rating.rating, rating.rd, rating.volatility, rating.games, rating.last_played_at,
        rating.peak_rating,
    )


def in_played_time(games: Iterable[RatedGame],
                   last_played: Mapping[Any, dt.datetime | None] | None = None,
                   ) -> list[bulk.RatedGame]:
    """The games as the rating maths take them, each at the moment it counts as played.

    In played order a game is never earlier than its players' previous one (a corrected
    game keeps its time, but two tournaments' rounds may interleave), so time never runs
    backwards; ``last_played`` holds each player's latest rating moment before these games.
    """
    last = {player: moment for player, moment in (last_played or {}).items()
            if moment is not None}
    timed = []
    for game in games:
        moment = game.played_at
        players = [player for side in game.sides for player in side]
        for player in players:
            previous = last.get(player)
            if previous is not None and previous > moment:
                moment = previous
        for player in players:
            last[player] = moment
        timed.append(bulk.RatedGame(game.game_id, moment, game.sides, game.winner))
    return timed


def ticking(games: Sequence[bulk.RatedGame],
            progress: Progress | None) -> Iterator[bulk.RatedGame]:
    """``games``, calling ``progress`` every thousand games and at the end."""
    done = 0
    for game in games:
        yield game
        done += 1
        if progress is not None and done % _PROGRESS_EVERY == 0:
            progress(_PROGRESS_EVERY)
    if progress is not None and done % _PROGRESS_EVERY:
        progress(done % _PROGRESS_EVERY)


def replay(
    config: RatingConfig, games: Iterable[bulk.RatedGame], starting: Mapping[Any, PoolState]
) -> tuple[list[Change], dict[Any, PoolState]]:
    """Rate ``games`` in order from the ``starting`` states (new players start at the
    club's initial rating): the changes made and each player's final state."""
    try:
        if config.system == RatingSystem.ELO:
            return _replay_elo(config.elo, games, starting)
        return _replay_glicko2(config.glicko2, games, starting)
    except RatingError as error:
        raise ApplicationError(_("Ratings cannot be computed: %(problem)s.")
                               % {"problem": rating_error_message(error)},
                               field="game") from None


def _replay_glicko2(
    config: Glicko2Config, games: Iterable[bulk.RatedGame], starting: Mapping[Any, PoolState]
) -> tuple[list[Change], dict[Any, PoolState]]:
    start = {
        player: PlayerRatingState(
            state.rating,
            state.rd if state.rd is not None else config.initial_rd,
            state.volatility if state.volatility is not None else config.initial_volatility,
            state.games,
            state.last_played_at,
        )
        for player, state in starting.items()
    }
    result = recompute_ratings(games, config, start)
    last_rd = {player: min(state.rd, config.initial_rd) for player, state in start.items()}
    peak = {player: state.peak for player, state in starting.items()}
    initial_rd = config.initial_rd
    changes: list[Change] = []
    append = changes.append
    for player, game, before, after, rd_after, volatility in result.history:
        append((player, game, before, after, last_rd.get(player, initial_rd), rd_after,
                volatility))
        last_rd[player] = rd_after
        if after > peak.get(player, -math.inf):
            peak[player] = after
    finals = {
        player: PoolState(
            state.rating, state.rd, state.volatility, state.games,
            _as_datetime(state.last_played_at),
            max(peak.get(player, state.rating), state.rating),
        )
        for player, state in result.ratings.items()
    }
    return changes, finals


def _replay_elo(
    settings: EloSettings, games: Iterable[bulk.RatedGame], starting: Mapping[Any, PoolState]
) -> tuple[list[Change], dict[Any, PoolState]]:
    start = {
        player: EloPlayerState(state.rating, state.games, _as_datetime(state.last_played_at),
                               state.peak)
        for player, state in starting.items()
    }
    result = replay_elo(games, settings, start)
    changes: list[Change] = [
        (row.player_id, row.game_id, row.rating_before, row.rating_after, None, None, None)
        for row in result.history
    ]
    finals = {
        player: PoolState(state.rating, None, None, state.games, state.last_played_at,
                          state.peak)
        for player, state in result.ratings.items()
    }
    return changes, finals


def _as_datetime(moment: dt.date | dt.datetime | None) -> dt.datetime | None:
    if moment is None or isinstance(moment, dt.datetime):
        return moment
    return dt.datetime.combine(moment, dt.time(), tzinfo=dt.UTC)
