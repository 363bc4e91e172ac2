"""Reads for ratings: lists, leaderboards, a player's history and rating at a date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from games.engines import GAME_FAMILY
from matches.rated_games import rated_game_rows
from matches.selectors import PLAYED_ORDER
from players.models import Club, Player
from ratings.models import RATING_FAMILIES, Rating, RatingChange

#: Rating changes in the order their games were played.
HISTORY_ORDER = tuple(f"game__{name}" for name in PLAYED_ORDER)


def rating_list() -> QuerySet[Rating]:
    return Rating.objects.select_related("player", "club")


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    player_id: int
    display_name: str
    is_bot: bool
    rating: float
    rd: float | None
    games: int
    provisional: bool
    last_played_at: dt.datetime | None


def leaderboard(
    club: Club, family: str, *, include_provisional: bool = True
) -> list[LeaderboardEntry]:
    """The pool's players by rating, best first, in one query.

    Equal ratings share a rank (1, 2, 2, 4). Provisional ratings are marked (Glicko-2: a
    deviation of at least the club's ``provisional_rd``, 110 by default; Elo: fewer games
    than ``provisional_games``) and bots are flagged; they are ranked like everyone else.
    """
    check_family(family)
    ratings = (
        Rating.objects.filter(club=club, family=family)
        .select_related("player")
        .order_by("-rating", "player__display_name", "player_id")
    )
    if not include_provisional:
        ratings = ratings.filter(is_provisional=False)
    entries: list[LeaderboardEntry] = []
    rank = 0
    previous: float | None = None
    for position, rating in enumerate(ratings, start=1):
        if rating.rating != previous:
            rank, previous = position, rating.rating
        entries.append(
            LeaderboardEntry(
                rank=rank, player_id=rating.player_id, display_name=rating.player.display_name,
                is_bot=rating.player.is_bot, rating=rating.rating, rd=rating.rd,
                games=rating.games, provisional=rating.is_provisional,
                last_played_at=rating.last_played_at,
            )
        )
    return entries


def rating_history(
    player: Player | int, family: str | None = None, club: Club | int | None = None
) -> QuerySet[RatingChange]:
    """A player's rating changes in the order the games were played (round, board, game
    number: the order ratings replay them in), with the game's tournament."""
    if family is not None:
        check_family(family)
    changes = RatingChange.objects.filter(player=player)
    if family is not None:
        changes = changes.filter(family=family)
    if club is not None:
        changes = changes.filter(club=club)
    return changes.annotate(
        tournament_id=F("game__pairing__round__tournament_id"),
        tournament_name=F("game__pairing__round__tournament__name"),
        game_name=F("game__game"),
        order_recorded=F("game__order_recorded"),
    ).order_by(*HISTORY_ORDER)


@dataclass(frozen=True, slots=True)
class RatingSnapshot:
    """A player's rating after their last rated game up to some moment."""

    rating: float
    rd: float | None
    volatility: float | None
    games: int
    played_at: dt.datetime
    """When the last counted game was played."""


def rating_on(
    player: Player, family: str, when: dt.date | dt.datetime, club: Club | None = None
) -> RatingSnapshot | None:
    """The player's rating in a family at a date (the end of that day) or moment.

    ``club`` defaults to the player's own club; ``None`` if no rated game came before.
    Deviations are as after the last game (no growth for the inactivity since).
    """
    check_family(family)
    if isinstance(when, dt.datetime):
        until = when if timezone.is_aware(when) else timezone.make_aware(when)
        changes = RatingChange.objects.filter(played_at__lte=until)
    else:
        next_day = dt.datetime.combine(when + dt.timedelta(days=1), dt.time())
        changes = RatingChange.objects.filter(played_at__lt=timezone.make_aware(next_day))
    changes = changes.filter(player=player, family=family)
    club_id = club.pk if club is not None else player.club_id
    if club_id is not None:
        changes = changes.filter(club_id=club_id)
    pool_changes = changes.order_by(*HISTORY_ORDER)
    last = pool_changes.values_list(
        "rating_after", "rd_after", "volatility_after", "played_at"
    ).last()
    if last is None:
        return None
    return RatingSnapshot(last[0], last[1], last[2], pool_changes.count(), last[3])


def check_family(family: str) -> None:
    if family not in RATING_FAMILIES:
        raise ApplicationError(
            _("Unknown game family %(family)r; choose one of %(families)s.")
            % {"family": family, "families": ", ".join(RATING_FAMILIES)},
            field="family",
        )


def entry_ratings(club_id: int, game: str, player_ids: Sequence[int]) -> dict[int, int]:
    """The players' current ratings (rounded) in the club's pool of ``game``'s family, for
    seeding a tournament; players without a rating there are left out (one query)."""
    family = GAME_FAMILY[game]
    rows = Rating.objects.filter(club_id=club_id, family=family, player_id__in=list(player_ids))
    return {player_id: round(rating) for player_id, rating in rows.values_list("player_id",
                                                                               "rating")}


def engines_of(family: str) -> list[str]:
    """The engines whose games rate in ``family``'s pools (all Kazambi forms share one)."""
    return [name for name, game_family in GAME_FAMILY.items() if game_family == family]


def rating_pools(club: Club | None, family: str | None) -> set[tuple[int, str]]:
    """The pools (club id, family) that have rated games or stored ratings (a pool may have
    lost its games)."""
    games = rated_game_rows(club_id=club.pk if club is not None else None)
    ratings = Rating.objects.all()
    if club is not None:
        ratings = ratings.filter(club=club)
    pools = {
        (club_id, GAME_FAMILY[name])
        for club_id, name in games.values_list("pairing__round__tournament__club_id", "game")
        .order_by()
        .distinct()
    }
    pools |= set(ratings.values_list("club_id", "family").order_by().distinct())
    return {pool for pool in pools if family is None or pool[1] == family}


def rating_pool_game_count(club: Club | None = None, family: str | None = None) -> int:
    """How many games a recompute of these pools rates (for a progress bar)."""
    rows = rated_game_rows(club_id=club.pk if club is not None else None,
                           games=engines_of(family) if family is not None else None)
    return rows.order_by().count()
