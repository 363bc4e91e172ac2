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

import datetime as dt
import math
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import ApplicationError
from games.engines import GAME_FAMILY
from matches.events import GamesChanged
from matches.models import Game, Termination
from matches.selectors import (
    PLAYED_ORDER,
    board_key,
    played_from,
    played_key,
    rated_game_rows,
    tournament_key,
)
from players.models import Club, Player, TeamMembership
from players.permissions import Actor, ensure_can_manage_club
from ratings.maths.bulk import PlayerRatingState, RatedGame, recompute_ratings
from ratings.maths.elo_bulk import EloPlayerState, EloSettings, replay_elo
from ratings.maths.errors import RatingError
from ratings.maths.glicko2 import Glicko2Config
from ratings.models import RATING_FAMILIES, Rating, RatingChange, RatingSystem
from tournaments.events import TournamentRatedChanged
from tournaments.models import Pairing, Tournament

Progress = Callable[[int], object]
"""Called with the number of games just rated (``tqdm.update`` fits)."""

_GLICKO2_KEYS = {
    "initial_rating", "initial_rd", "initial_volatility", "tau", "period_days", "provisional_rd",
}
_ELO_KEYS = {"initial_rating", "k", "provisional_games"}
#: The range of each setting a club may choose (lowest, highest, lowest included): wide
#: enough for any real rating list, narrow enough that the maths stay finite (a tau of
#: 1e308 once made every result entry of its club fail).
_RANGES: dict[str, tuple[float, float, bool]] = {
    "initial_rating": (100.0, 4000.0, True),
    "initial_rd": (45.0, 1000.0, True),
    "initial_volatility": (0.0, 1.0, False),
    "tau": (0.0, 3.0, False),
    "period_days": (0.0, 3650.0, False),
    "provisional_rd": (0.0, 1000.0, False),
    "k": (1, 100, True),
    "provisional_games": (0, 1000, True),
}
_WRITE_BATCH = 5000
_PROGRESS_EVERY = 1000


# -- club settings -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingConfig:
    """The rating system a club uses, with its parameters."""

    system: str = RatingSystem.GLICKO2
    glicko2: Glicko2Config = field(default_factory=Glicko2Config)
    elo: EloSettings = field(default_factory=EloSettings)

    @property
    def initial_rating(self) -> float:
        if self.system == RatingSystem.ELO:
            return self.elo.initial_rating
        return self.glicko2.initial_rating

    def is_provisional(self, rd: float | None, games: int) -> bool:
        if self.system == RatingSystem.ELO:
            return games < self.elo.provisional_games
        return rd is None or rd >= self.glicko2.provisional_rd


def rating_error_message(error: RatingError) -> str:
    """The rating maths' error in the active language (its template translated, then
    filled in)."""
    text = _(error.template)
    return text % error.params if error.params else text


def rating_config_parse(settings: Any) -> RatingConfig:
    """Read and check ``Club.rating_settings``; an :class:`ApplicationError` names the field.

    ``{"system": "glicko2"}`` (the default) accepts the :class:`Glicko2Config` parameters,
    ``{"system": "elo"}`` accepts ``initial_rating``, ``k`` and ``provisional_games``.
    """
    if settings in (None, ""):
        settings = {}
    if not isinstance(settings, Mapping):
        raise ApplicationError(
            _('Rating settings must be a JSON object, for example {"system": "glicko2"}.'),
            field="rating_settings",
        )
    system = settings.get("system", RatingSystem.GLICKO2)
    if system not in RatingSystem.values:
        raise ApplicationError(
            _("Unknown rating system %(system)r; choose one of %(systems)s.")
            % {"system": system, "systems": ", ".join(RatingSystem.values)},
            field="rating_settings.system",
        )
    allowed = _ELO_KEYS if system == RatingSystem.ELO else _GLICKO2_KEYS
    for key in settings:
        if key != "system" and key not in allowed:
            raise ApplicationError(
                _("Unknown %(system)s rating setting %(key)r; the settings are %(known)s.")
                % {"system": system, "key": key, "known": ", ".join(sorted(allowed))},
                field=f"rating_settings.{key}",
            )
    values = {key: value for key, value in settings.items() if key != "system"}
    if system == RatingSystem.ELO:
        return RatingConfig(system=system, elo=_elo_settings(values))
    for key, value in values.items():
        _check_number(key, value, positive=key != "initial_rating")
    try:
        return RatingConfig(system=system, glicko2=Glicko2Config(**values))
    except RatingError as error:
        raise ApplicationError(_("Rating settings: %(problem)s.")
                               % {"problem": rating_error_message(error)},
                               field="rating_settings") from None


def _elo_settings(values: Mapping[str, Any]) -> EloSettings:
    if "initial_rating" in values:
        _check_number("initial_rating", values["initial_rating"], positive=True)
    for key in ("k", "provisional_games"):
        if key not in values:
            continue
        value = values[key]
        if key == "k" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < (key == "k"):
            text = (_("Rating setting %(key)r must be a whole number of 1 or more, not "
                      "%(value)r.") if key == "k" else
                    _("Rating setting %(key)r must be a whole number, 0 or more, not "
                      "%(value)r."))
            raise ApplicationError(
                text % {"key": key, "value": value},
                field=f"rating_settings.{key}",
            )
        _check_range(key, value)
    return EloSettings(**values)


def _check_number(key: str, value: Any, *, positive: bool) -> None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and positive:
        ok = value > 0
    if not ok:
        text = (_("Rating setting %(key)r must be a positive number, not %(value)r.")
                if positive else
                _("Rating setting %(key)r must be a finite number, not %(value)r."))
        raise ApplicationError(
            text % {"key": key, "value": value},
            field=f"rating_settings.{key}",
        )
    _check_range(key, value)


def _check_range(key: str, value: Any) -> None:
    low, high, low_included = _RANGES[key]
    if (value >= low if low_included else value > low) and value <= high:
        return
    text = (_("Rating setting %(key)r must be from %(low)g up to %(high)g, not %(value)r.")
            if low_included else
            _("Rating setting %(key)r must be above %(low)g up to %(high)g, not %(value)r."))
    raise ApplicationError(
        text % {"key": key, "low": low, "high": high, "value": value},
        field=f"rating_settings.{key}",
    )


def club_rating_config(club: Club) -> RatingConfig:
    return rating_config_parse(club.rating_settings)


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
    _lock_pool(club.pk, family)
    if RatingChange.objects.filter(game_id=game.pk).exists():
        return []
    config = club_rating_config(club)
    rows = list(rated_game_rows(game_id=game.pk))
    if not rows:
        return []
    sides = _GameLoader(club.pk).rated_games(rows)[0].sides
    players: set[Any] = {player for side in sides for player in side}
    current = {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update().filter(
            club=club, family=family, player_id__in=players
        )
    }
    out_of_order = any(rating.system != config.system for rating in current.values()) or (
        _latest_key(club, family, players) > played_key(game))
    if out_of_order:
        _recompute_pool(club, family, config, start=played_key(game))
        return list(RatingChange.objects.filter(game_id=game.pk))
    last = {player: rating.last_played_at for player, rating in current.items()}
    rated = _GameLoader(club.pk, last).rated_games(rows)
    starting = {player: _state_of(rating) for player, rating in current.items()}
    changes, finals = _replay(config, rated, starting)
    _save_ratings(club, family, config, finals, current)
    return RatingChange.objects.bulk_create(
        _change_objects(club.pk, family, changes, {game.pk: rated[0].played_at})
    )


def _latest_key(club: Club, family: str, players: set[Any]) -> tuple[Any, ...]:
    """The played-order place of the latest game already rated for any of ``players``."""
    key_fields = [f"game__{name}" for name in PLAYED_ORDER]
    latest = (RatingChange.objects.filter(club=club, family=family, player_id__in=players)
              .order_by(*[f"-{name}" for name in key_fields]).values_list(*key_fields).first())
    return tuple(latest) if latest is not None else ()


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


def _lock_pool(club_id: int, family: str) -> None:
    """Serialize writes to one pool until the transaction ends.

    PostgreSQL takes a transaction-scoped advisory lock; SQLite serializes all writes anyway.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [club_id, zlib.crc32(family.encode()) & 0x7FFFFFFF],
            )


# -- whole pools -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PoolSummary:
    club_id: int
    family: str
    system: str
    games: int
    players: int


def ratings_recompute(
    club: Club | None = None,
    family: str | None = None,
    progress: Progress | None = None,
) -> list[PoolSummary]:
    """Rebuild the ratings of every pool (or of one club, one family) from the games.

    Each pool is rebuilt in its own transaction, under the pool's lock.
    """
    if family is not None and family not in RATING_FAMILIES:
        raise ApplicationError(
            _("Unknown game family %(family)r; choose one of %(families)s.")
            % {"family": family, "families": ", ".join(RATING_FAMILIES)},
            field="family",
        )
    summaries = []
    for club_id, pool_family in sorted(_pools(club, family)):
        pool_club = club if club is not None else Club.objects.get(pk=club_id)
        with transaction.atomic():
            summaries.append(
                _recompute_pool(pool_club, pool_family, club_rating_config(pool_club), progress)
            )
    return summaries


def rating_pool_game_count(club: Club | None = None, family: str | None = None) -> int:
    """How many games a recompute of these pools rates (for a progress bar)."""
    rows = rated_game_rows(club_id=club.pk if club is not None else None,
                           games=_engines_of(family) if family is not None else None)
    return rows.order_by().count()


def rating_recompute_after_correction(game: Game) -> PoolSummary:
    """Replay the pool of ``game`` after its result (or its tournament's rated flag) changed."""
    club = game.pairing.round.tournament.club
    with transaction.atomic():
        return _recompute_pool(club, GAME_FAMILY[game.game], club_rating_config(club),
                               start=board_key(game.pairing))


def _pools(club: Club | None, family: str | None) -> set[tuple[int, str]]:
    """The pools that have rated games or stored ratings (a pool may have lost its games)."""
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


def _recompute_pool(
    club: Club, family: str, config: RatingConfig, progress: Progress | None = None,
    start: Sequence[Any] | None = None,
) -> PoolSummary:
    """Rebuild a pool: all of it, or (``start``, a place in played order) from the first
    affected game on, the earlier history kept as it is."""
    _lock_pool(club.pk, family)
    if start is not None and not Rating.objects.filter(club=club, family=family).exclude(
            system=config.system).exists():
        return _replay_from(club, family, config, start)
    rows = rated_game_rows(club_id=club.pk, games=_engines_of(family))
    rated = _GameLoader(club.pk).rated_games(rows.iterator(chunk_size=10_000))
    played_at = {game.game_id: game.played_at for game in rated}
    changes, finals = _replay(config, _ticking(rated, progress), {})
    RatingChange.objects.filter(club=club, family=family).delete()
    Rating.objects.filter(club=club, family=family).delete()
    _save_ratings(club, family, config, finals, {})
    _insert_history(club.pk, family, changes, played_at)
    return PoolSummary(club.pk, family, config.system, len(rated), len(finals))


def _replay_from(club: Club, family: str, config: RatingConfig,
                 start: Sequence[Any]) -> PoolSummary:
    """Replay the games from ``start`` on: the players they touch (and those whose later
    games were removed) start from their state before ``start``, read from their history;
    everyone else's ratings stay."""
    pool = RatingChange.objects.filter(club=club, family=family)
    later = played_from(start, prefix="game__")
    rows = list(rated_game_rows(club_id=club.pk, games=_engines_of(family), from_key=start))
    sides = _GameLoader(club.pk).rated_games(rows)
    counts = dict(pool.values_list("player_id").annotate(n=Count("id")).order_by())
    current = {rating.player_id: rating
               for rating in Rating.objects.select_for_update().filter(club=club, family=family)}
    affected: set[Any] = {player for game in sides for side in game.sides for player in side}
    affected |= set(pool.filter(later).values_list("player_id", flat=True))
    affected |= {player for player, rating in current.items()  # lost games by cascade
                 if rating.games != counts.get(player, 0)}
    starting = _states_before(config, pool.filter(player_id__in=affected).exclude(later))
    last = {player: state.last_played_at for player, state in starting.items()}
    rated = _GameLoader(club.pk, last).rated_games(rows)
    changes, finals = _replay(config, rated, starting)
    pool.filter(later).delete()
    Rating.objects.filter(club=club, family=family,
                          player_id__in=affected - set(finals)).delete()
    _save_ratings(club, family, config, finals,
                  {player: current[player] for player in finals if player in current})
    _insert_history(club.pk, family, changes, {game.game_id: game.played_at for game in rated})
    return PoolSummary(club.pk, family, config.system, len(rated), len(finals))


def _states_before(config: RatingConfig, changes: Any) -> dict[Any, _State]:
    """Each player's state after their last change in ``changes`` (played order)."""
    states: dict[Any, _State] = {}
    for player, before, after, rd, volatility, moment in changes.order_by(
            *[f"game__{name}" for name in PLAYED_ORDER]).values_list(
            "player_id", "rating_before", "rating_after", "rd_after", "volatility_after",
            "played_at"):
        state = states.get(player)
        if state is None:
            # Elo counts the starting rating in the peak (the 2400 rule); Glicko-2 does not
            peak = before if config.system == RatingSystem.ELO else after
            state = states[player] = _State(after, rd, volatility, 0, moment, peak)
        state.rating, state.rd, state.volatility = after, rd, volatility
        state.games += 1
        state.last_played_at = moment
        state.peak = max(state.peak, after)
    return states


def _ticking(games: Sequence[RatedGame], progress: Progress | None) -> Iterator[RatedGame]:
    done = 0
    for game in games:
        yield game
        done += 1
        if progress is not None and done % _PROGRESS_EVERY == 0:
            progress(_PROGRESS_EVERY)
    if progress is not None and done % _PROGRESS_EVERY:
        progress(done % _PROGRESS_EVERY)


# -- reading games -----------------------------------------------------------------------

def _engines_of(family: str) -> list[str]:
    return [name for name, game_family in GAME_FAMILY.items() if game_family == family]


class _GameLoader:
    """Turns game rows into :class:`RatedGame` s: who played on each side.

    A player entrant is its side. For a team entrant, the players named in the record's
    seats (seat ``i`` plays for side ``i % 2``) when the record names them all, else the
    team's members on the day of the game.
    """

    def __init__(self, club_id: int,
                 last_played: Mapping[Any, dt.datetime | None] | None = None) -> None:
        self.club_id = club_id
        self._members: dict[int, list[tuple[int, dt.date, dt.date | None]]] | None = None
        #: Each player's latest rating moment: a game is rated no earlier than that.
        self._last = {p: m for p, m in (last_played or {}).items() if m is not None}

    def rated_games(self, rows: Iterable[Sequence[Any]]) -> list[RatedGame]:
        rows = list(rows)
        seat_sides = {row[0]: _seat_sides(row[7]) for row in rows if row[7]}
        self._check_seat_players(seat_sides)
        games = []
        for game_id, played_at, winner, a_player, a_team, b_player, b_team, *_rest in rows:
            seats = seat_sides.get(game_id)
            sides = (
                self._side(game_id, played_at, a_player, a_team, seats, 0),
                self._side(game_id, played_at, b_player, b_team, seats, 1),
            )
            games.append(RatedGame(game_id, self._moment(played_at, sides), sides, winner))
        return games

    def _moment(self, played_at: dt.datetime, sides: tuple[tuple[int, ...], ...]) -> Any:
        """When the game counts as played for the rating maths: in played order a game
        is never earlier than its players' previous one (a corrected game keeps its time,
        but two tournaments' rounds may interleave), so time never runs backwards."""
        moment = played_at
        players = [player for side in sides for player in side]
        for player in players:
            last = self._last.get(player)
            if last is not None and last > moment:
                moment = last
        for player in players:
            self._last[player] = moment
        return moment

    def _side(
        self, game_id: int, played_at: dt.datetime, player: int | None, team: int | None,
        seats: tuple[list[int], list[int]] | None, side: int,
    ) -> tuple[int, ...]:
        if player is not None:
            return (player,)
        if seats is not None:
            return tuple(seats[side])
        day = timezone.localdate(played_at)
        members = tuple(
            member
            for member, joined, left in self._memberships().get(team or 0, [])
            if joined <= day and (left is None or left > day)
        )
        if not members:
            raise ApplicationError(
                _("Game %(game)s cannot be rated: team %(team)s had no members on %(day)s "
                  "and the game's record names no players in its seats.")
                % {"game": game_id, "team": team, "day": date_format(day)},
                field="game",
            )
        return members

    def _memberships(self) -> dict[int, list[tuple[int, dt.date, dt.date | None]]]:
        if self._members is None:
            members: dict[int, list[tuple[int, dt.date, dt.date | None]]] = defaultdict(list)
            for team, player, joined, left in TeamMembership.objects.filter(
                team__club_id=self.club_id
            ).values_list("team_id", "player_id", "joined_on", "left_on"):
                members[team].append((player, joined, left))
            self._members = members
        return self._members

    def _check_seat_players(
        self, seat_sides: dict[int, tuple[list[int], list[int]] | None]
    ) -> None:
        named = {player for sides in seat_sides.values() if sides for side in sides
                 for player in side}
        if not named:
            return
        known = set(Player.objects.filter(pk__in=named).values_list("pk", flat=True))
        for game_id, sides in seat_sides.items():
            unknown = sorted({p for side in sides or () for p in side} - known)
            if unknown:
                raise ApplicationError(
                    ngettext("Game %(game)s cannot be rated: its record's seats name an "
                             "unknown player %(players)s.",
                             "Game %(game)s cannot be rated: its record's seats name unknown "
                             "players %(players)s.", len(unknown))
                    % {"game": game_id, "players": ", ".join(map(str, unknown))},
                    field="record",
                )


def _seat_sides(seats: Any) -> tuple[list[int], list[int]] | None:
    """The player ids of each side from a record's seats, or ``None`` if they name none."""
    if not isinstance(seats, list) or len(seats) < 2:
        return None
    sides: tuple[list[int], list[int]] = ([], [])
    for index, seat in enumerate(seats):
        player = _seat_player(seat)
        if player is None:
            return None
        sides[index % 2].append(player)
    return sides


def _seat_player(seat: Any) -> int | None:
    """A seat's player id: an integer, a string of digits or ``{"player": id}``."""
    if isinstance(seat, dict):
        seat = seat.get("player", seat.get("player_id"))
    if isinstance(seat, bool):
        return None
    if isinstance(seat, int):
        return seat
    if isinstance(seat, str) and seat.strip().isascii() and seat.strip().isdigit():
        return int(seat)
    return None


# -- replay ------------------------------------------------------------------------------


@dataclass(slots=True)
class _State:
    rating: float
    rd: float | None
    volatility: float | None
    games: int
    last_played_at: dt.datetime | None
    peak: float


# (player, game, rating_before, rating_after, rd_before, rd_after, volatility_after)
_Change = tuple[Any, Any, float, float, float | None, float | None, float | None]


def _state_of(rating: Rating) -> _State:
    return _State(
        rating.rating, rating.rd, rating.volatility, rating.games, rating.last_played_at,
        rating.peak_rating,
    )


def _replay(
    config: RatingConfig, games: Iterable[RatedGame], starting: Mapping[Any, _State]
) -> tuple[list[_Change], dict[Any, _State]]:
    try:
        if config.system == RatingSystem.ELO:
            return _replay_elo(config.elo, games, starting)
        return _replay_glicko2(config.glicko2, games, starting)
    except RatingError as error:
        raise ApplicationError(_("Ratings cannot be computed: %(problem)s.")
                               % {"problem": rating_error_message(error)},
                               field="game") from None


def _replay_glicko2(
    config: Glicko2Config, games: Iterable[RatedGame], starting: Mapping[Any, _State]
) -> tuple[list[_Change], dict[Any, _State]]:
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
    changes: list[_Change] = []
    append = changes.append
    for player, game, before, after, rd_after, volatility in result.history:
        append((player, game, before, after, last_rd.get(player, initial_rd), rd_after,
                volatility))
        last_rd[player] = rd_after
        if after > peak.get(player, -math.inf):
            peak[player] = after
    finals = {
        player: _State(
            state.rating, state.rd, state.volatility, state.games,
            _as_datetime(state.last_played_at),
            max(peak.get(player, state.rating), state.rating),
        )
        for player, state in result.ratings.items()
    }
    return changes, finals


def _replay_elo(
    settings: EloSettings, games: Iterable[RatedGame], starting: Mapping[Any, _State]
) -> tuple[list[_Change], dict[Any, _State]]:
    start = {
        player: EloPlayerState(state.rating, state.games, _as_datetime(state.last_played_at),
                               state.peak)
        for player, state in starting.items()
    }
    result = replay_elo(games, settings, start)
    changes: list[_Change] = [
        (row.player_id, row.game_id, row.rating_before, row.rating_after, None, None, None)
        for row in result.history
    ]
    finals = {
        player: _State(state.rating, None, None, state.games, state.last_played_at, state.peak)
        for player, state in result.ratings.items()
    }
    return changes, finals


def _as_datetime(moment: dt.date | dt.datetime | None) -> dt.datetime | None:
    if moment is None or isinstance(moment, dt.datetime):
        return moment
    return dt.datetime.combine(moment, dt.time(), tzinfo=dt.UTC)


# -- writing -----------------------------------------------------------------------------


def _save_ratings(
    club: Club, family: str, config: RatingConfig, finals: Mapping[Any, _State],
    existing: Mapping[Any, Rating],
) -> None:
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


def _change_objects(
    club_id: int, family: str, changes: Iterable[_Change], played_at: Mapping[Any, Any]
) -> Iterator[RatingChange]:
    for player, game, before, after, rd_before, rd_after, volatility in changes:
        yield RatingChange(
            player_id=player, game_id=game, club_id=club_id, family=family,
            rating_before=before, rating_after=after, rd_before=rd_before, rd_after=rd_after,
            volatility_after=volatility, played_at=played_at[game],
        )


_HISTORY_COLUMNS = (
    "player_id", "game_id", "club_id", "family", "rating_before", "rating_after", "rd_before",
    "rd_after", "volatility_after", "played_at",
)


def _insert_history(
    club_id: int, family: str, changes: Sequence[_Change], played_at: Mapping[Any, Any]
) -> None:
    """Write a pool's history in batches: COPY on PostgreSQL, ``bulk_create`` elsewhere.

    COPY writes 200,000 rows in about a second where ``bulk_create`` takes ten or more,
    most of it building model instances and adapting parameters.
    """
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create(
            _change_objects(club_id, family, changes, played_at), batch_size=_WRITE_BATCH
        )
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
