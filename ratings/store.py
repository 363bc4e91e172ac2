"""The database side of a pool replay: its lock, the states it starts from, and the writes
of its ratings and history (COPY on PostgreSQL)."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from matches.selectors import PLAYED_ORDER
from players.models import Club
from ratings.models import Rating, RatingChange, RatingSystem
from ratings.replay import Change, PoolState
from ratings.settings import RatingConfig

_WRITE_BATCH = 5000
_HISTORY_COLUMNS = (
    "player_id", "game_id", "club_id", "family", "rating_before", "rating_after", "rd_before",
    "rd_after", "volatility_after", "played_at",
)


def pool_lock(club_id: int, family: str) -> None:
    """Serialize writes to one pool until the transaction ends.

    PostgreSQL takes a transaction-scoped advisory lock; SQLite serializes all writes anyway.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [club_id, zlib.crc32(family.encode()) & 0x7FFFFFFF],
            )


def latest_rated_key(club: Club, family: str, players: set[Any]) -> tuple[Any, ...]:
    """The played-order place of the latest game already rated for any of ``players``."""
    key_fields = [f"game__{name}" for name in PLAYED_ORDER]
    latest = (RatingChange.objects.filter(club=club, family=family, player_id__in=players)
              .order_by(*[f"-{name}" for name in key_fields]).values_list(*key_fields).first())
    return tuple(latest) if latest is not None else ()


def states_before(config: RatingConfig,
                  changes: QuerySet[RatingChange]) -> dict[Any, PoolState]:
    """Each player's state after their last change in ``changes`` (played order)."""
    states: dict[Any, PoolState] = {}
    for player, before, after, rd, volatility, moment in changes.order_by(
            *[f"game__{name}" for name in PLAYED_ORDER]).values_list(
            "player_id", "rating_before", "rating_after", "rd_after", "volatility_after",
            "played_at"):
        state = states.get(player)
        if state is None:
            # Elo counts the starting rating in the peak (the 2400 rule); Glicko-2 does not
            peak = before if config.system == RatingSystem.ELO else after
            state = states[player] = PoolState(after, rd, volatility, 0, moment, peak)
        state.rating, state.rd, state.volatility = after, rd, volatility
        state.games += 1
        state.last_played_at = moment
        state.peak = max(state.peak, after)
    return states


def ratings_save(
    club: Club, family: str, config: RatingConfig, finals: Mapping[Any, PoolState],
    existing: Mapping[Any, Rating],
) -> None:
    """Write the players' final states: ``existing`` rows updated, the others created."""
    new: list[Rating] = []
    changed: list[Rating] = []
    for player, state in finals.items():
        rating = existing.get(player) or Rating(player_id=player, club=club, family=family)
        rating.system = config.system
        rating.rating = state.rating
        rating.rd = state.rd
        rating.volatility = state.volatility
        rating.games = state.games
        rating.last_played_at = state.last_played_at
        rating.peak_rating = state.peak
        rating.is_provisional = config.is_provisional(state.rd, state.games)
        (changed if rating.pk else new).append(rating)
    Rating.objects.bulk_create(new, batch_size=_WRITE_BATCH)
    Rating.objects.bulk_update(
        changed,
        ["system", "rating", "rd", "volatility", "games", "last_played_at", "peak_rating",
         "is_provisional"],
    )


def changes_create(club_id: int, family: str, changes: Iterable[Change],
                   played_at: Mapping[Any, Any]) -> list[RatingChange]:
    """Save a few rating changes (one game's) as model instances."""
    return RatingChange.objects.bulk_create(
        _change_objects(club_id, family, changes, played_at), batch_size=_WRITE_BATCH)


def history_insert(
    club_id: int, family: str, changes: Sequence[Change], played_at: Mapping[Any, Any]
) -> None:
    """Write a pool's history in batches: COPY on PostgreSQL, ``bulk_create`` elsewhere.

    COPY writes 200,000 rows in about a second where ``bulk_create`` takes ten or more,
    most of it building model instances and adapting parameters.
    """
    if connection.vendor != "postgresql":
        changes_create(club_id, family, changes, played_at)
        return
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(column) for column in _HISTORY_COLUMNS)
    with connection.cursor() as cursor:
        raw_cursor: Any = cursor.cursor
        with raw_cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            write = copy.write_row
            for player, game, before, after, rd_before, rd_after, volatility in changes:
                write((player, game, club_id, family, before, after, rd_before, rd_after,
                       volatility, played_at[game]))


def _change_objects(
    club_id: int, family: str, changes: Iterable[Change], played_at: Mapping[Any, Any]
) -> Iterator[RatingChange]:
    for player, game, before, after, rd_before, rd_after, volatility in changes:
        yield RatingChange(
            player_id=player, game_id=game, club_id=club_id, family=family,
            rating_before=before, rating_after=after, rd_before=rd_before, rd_after=rd_after,
            volatility_after=volatility, played_at=played_at[game],
        )
