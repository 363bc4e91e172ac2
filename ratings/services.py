"""Writes for ratings: rate a recorded game, rebuild pools from the game history.

A rating pool is a club and a game family (``games.engines.GAME_FAMILY``): the club of the
tournament a game belongs to chooses the rating system (``Club.rating_settings``), and all
Kazambi forms share one pool. Only games of rated tournaments count, and not forfeits (a
game lost by forfeit was not played; a time forfeit was, and counts).

Two paths write ratings, and they agree exactly:

* :func:`rating_apply_game`, called by the games service right after a game is recorded,
  inside its transaction, rates that one game from the players' current ratings.
* :func:`ratings_recompute` replays a pool's whole history in ``(played_at, id)`` order with
  the pure bulk function and rewrites the pool (used after a corrected result, a change of
  the club's settings, and by ``manage.py recompute_ratings``).

Both take a per-pool lock, so a game is rated once even when two requests race; the unique
constraint on ``RatingChange(player, game)`` backs this up in the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count

from games.engines import GAME_FAMILY
from matches.events import GamesChanged
from matches.models import Game, Termination
from matches.rated_games import rated_games
from matches.selectors import board_key, played_from, played_key, tournament_key
from players.models import Club
from players.permissions import Actor, ensure_can_manage_club
from ratings.models import Rating, RatingChange
from ratings.replay import Progress, in_played_time, replay, state_of, ticking
from ratings.selectors import check_family, engines_of, rating_pools
from ratings.settings import RatingConfig, club_rating_config, rating_config_parse
from ratings.store import (
    changes_create,
    history_insert,
    latest_rated_key,
    pool_lock,
    ratings_save,
    states_before,
)
from tournaments.events import TournamentRatedChanged
from tournaments.models import Pairing, Tournament


@dataclass(frozen=True, slots=True)
class PoolSummary:
    club_id: int
    family: str
    system: str
    games: int
    players: int


@transaction.atomic
def club_rating_settings_update(
    *, actor: Actor, club: Club, rating_settings: dict[str, Any]
) -> Club:
    """Check and save a club's rating settings, then rebuild its pools under the new rules."""
    ensure_can_manage_club(actor, club)
    rating_config_parse(rating_settings)
    club.rating_settings = rating_settings
    club.full_clean()
    club.save(update_fields=["rating_settings"])
    ratings_recompute(club=club)
    return club


# -- one game ----------------------------------------------------------------------------


@transaction.atomic
def rating_apply_game(game: Game) -> list[RatingChange]:
    """Rate a just-recorded game; return the rating changes it made.

    Idempotent: a game already rated (or not rated at all: an unrated tournament, a
    forfeit) changes nothing and returns ``[]``. A game dated before a player's latest rated
    game, or a pool still kept under another rating system, makes the whole pool replay.
    A corrected result needs :func:`rating_recompute_after_correction` instead.
    """
    pool = _game_pool(game)
    if pool is None:
        return []
    club, family = pool
    pool_lock(club.pk, family)
    if RatingChange.objects.filter(game_id=game.pk).exists():
        return []
    config = club_rating_config(club)
    found = rated_games(club_id=club.pk, game_id=game.pk)
    if not found:
        return []
    players: set[Any] = {player for side in found[0].sides for player in side}
    current = {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update().filter(
            club=club, family=family, player_id__in=players
        )
    }
    out_of_order = any(rating.system != config.system for rating in current.values()) or (
        latest_rated_key(club, family, players) > played_key(game))
    if out_of_order:
        _recompute_pool(club, family, config, start=played_key(game))
        return list(RatingChange.objects.filter(game_id=game.pk))
    timed = in_played_time(
        found, {player: rating.last_played_at for player, rating in current.items()})
    starting = {player: state_of(rating) for player, rating in current.items()}
    changes, finals = replay(config, timed, starting)
    ratings_save(club, family, config, finals, current)
    return changes_create(club.pk, family, changes, {game.pk: timed[0].played_at})


def on_tournament_rated_changed(event: TournamentRatedChanged) -> None:
    """A tournament's games start or stop counting: replay its pool."""
    tournament = Tournament.objects.select_related("club").get(pk=event.tournament_id)
    start = tournament_key(tournament)
    if start is None:
        return
    with transaction.atomic():
        _recompute_pool(tournament.club, GAME_FAMILY[tournament.game],
                        club_rating_config(tournament.club), start=start)


def on_games_changed(event: GamesChanged) -> None:
    """Keep the rating pools in step with the games (connected in ``RatingsConfig.ready``):
    new games at the end are rated one by one; a correction replays the pool in played
    order, so a corrected round-1 game is rated before round 2 again."""
    tournament = Tournament.objects.select_related("club").get(pk=event.tournament_id)
    if not tournament.rated:
        return
    if event.corrected:
        pairing = Pairing.objects.select_related("round").get(pk=event.pairing_id)
        with transaction.atomic():
            config = club_rating_config(tournament.club)
            _recompute_pool(tournament.club, GAME_FAMILY[tournament.game], config,
                            start=board_key(pairing))
        return
    for game in Game.objects.filter(pk__in=event.added).select_related(
            "pairing__round__tournament__club").order_by("number"):
        rating_apply_game(game)


def _game_pool(game: Game) -> tuple[Club, str] | None:
    """The pool a game rates in, or ``None`` if it is not rated."""
    tournament = game.pairing.round.tournament
    if not tournament.rated or game.termination == Termination.FORFEIT:
        return None
    if game.pairing.entrant_b_id is None:
        return None
    return tournament.club, GAME_FAMILY[game.game]


# -- whole pools -------------------------------------------------------------------------


def ratings_recompute(
    club: Club | None = None,
    family: str | None = None,
    progress: Progress | None = None,
) -> list[PoolSummary]:
    """Rebuild the ratings of every pool (or of one club, one family) from the games.

    Each pool is rebuilt in its own transaction, under the pool's lock.
    """
    if family is not None:
        check_family(family)
    summaries = []
    for club_id, pool_family in sorted(rating_pools(club, family)):
        pool_club = club if club is not None else Club.objects.get(pk=club_id)
        with transaction.atomic():
            summaries.append(
                _recompute_pool(pool_club, pool_family, club_rating_config(pool_club), progress)
            )
    return summaries


def rating_recompute_after_correction(game: Game) -> PoolSummary:
    """Replay the pool of ``game`` after its result (or its tournament's rated flag) changed."""
    club = game.pairing.round.tournament.club
    with transaction.atomic():
        return _recompute_pool(club, GAME_FAMILY[game.game], club_rating_config(club),
                               start=board_key(game.pairing))


def _recompute_pool(
    club: Club, family: str, config: RatingConfig, progress: Progress | None = None,
    start: Sequence[Any] | None = None,
) -> PoolSummary:
    """Rebuild a pool: all of it, or (``start``, a place in played order) from the first
    affected game on, the earlier history kept as it is."""
    pool_lock(club.pk, family)
    if start is not None and not Rating.objects.filter(club=club, family=family).exclude(
            system=config.system).exists():
        return _replay_from(club, family, config, start)
    rated = in_played_time(rated_games(club_id=club.pk, games=engines_of(family)))
    played_at = {game.game_id: game.played_at for game in rated}
    changes, finals = replay(config, ticking(rated, progress), {})
    RatingChange.objects.filter(club=club, family=family).delete()
    Rating.objects.filter(club=club, family=family).delete()
    ratings_save(club, family, config, finals, {})
    history_insert(club.pk, family, changes, played_at)
    return PoolSummary(club.pk, family, config.system, len(rated), len(finals))


def _replay_from(club: Club, family: str, config: RatingConfig,
                 start: Sequence[Any]) -> PoolSummary:
    """Replay the games from ``start`` on: the players they touch (and those whose later
    games were removed) start from their state before ``start``, read from their history;
    everyone else's ratings stay."""
    pool = RatingChange.objects.filter(club=club, family=family)
    later = played_from(start, prefix="game__")
    games = rated_games(club_id=club.pk, games=engines_of(family), from_key=start)
    counts = dict(pool.values_list("player_id").annotate(n=Count("id")).order_by())
    current = {rating.player_id: rating
               for rating in Rating.objects.select_for_update().filter(club=club, family=family)}
    affected: set[Any] = {player for game in games for side in game.sides for player in side}
    affected |= set(pool.filter(later).values_list("player_id", flat=True))
    affected |= {player for player, rating in current.items()  # lost games by cascade
                 if rating.games != counts.get(player, 0)}
    starting = states_before(config, pool.filter(player_id__in=affected).exclude(later))
    rated = in_played_time(games, {player: state.last_played_at
                                   for player, state in starting.items()})
    changes, finals = replay(config, rated, starting)
    pool.filter(later).delete()
    Rating.objects.filter(club=club, family=family,
                          player_id__in=affected - set(finals)).delete()
    ratings_save(club, family, config, finals,
                 {player: current[player] for player in finals if player in current})
    history_insert(club.pk, family, changes, {game.game_id: game.played_at for game in rated})
    return PoolSummary(club.pk, family, config.system, len(rated), len(finals))
