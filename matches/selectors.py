"""Reads for the games of matches: game lists for the API, and the printable round sheets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext

from core.engine_messages import game_label, translated
from games.series.format import MatchFormat, SeriesError
from games.series.roles import game_roles
from matches.models import Game
from matches.progress import MatchProgress, match_progress
from players.permissions import can_manage_club
from tournaments.models import Outcome, Pairing, Tournament
from tournaments.selectors import (
    games_can_be_drawn,
    pairing_list,
    points_before_rounds,
    round_clock,
    stored_match_format,
)
from tournaments.texts import format_text

#: Boxes on a result slip for a first-to-N match without a cap (rarely all used).
UNCAPPED_SLIP_GAMES = 9


#: The order games were played in: their round (by when it was paired), board, number.
#: Ratings replay games in this order, never in the order rows were saved.
PLAYED_ORDER = ("pairing__round__created_at", "pairing__round_id", "pairing__board", "number")


def played_from(key: Sequence[Any], prefix: str = "") -> Q:
    """Games at or after ``key`` in :data:`PLAYED_ORDER` (``prefix`` reaches the game from
    another model, e.g. ``"game__"``)."""
    names = [prefix + name for name in PLAYED_ORDER]
    condition = Q(**{f"{names[-1]}__gte": key[-1]})
    for name, value in zip(reversed(names[:-1]), reversed(key[:-1]), strict=True):
        condition = Q(**{f"{name}__gt": value}) | (Q(**{name: value}) & condition)
    return condition


def played_key(game: Game) -> tuple[Any, ...]:
    """A game's place in :data:`PLAYED_ORDER` (its pairing and round loaded)."""
    round_ = game.pairing.round
    return (round_.created_at, round_.pk, game.pairing.board, game.number)


def board_key(pairing: Pairing) -> tuple[Any, ...]:
    """Where a board's games begin in :data:`PLAYED_ORDER`."""
    return (pairing.round.created_at, pairing.round_id, pairing.board, 0)


def tournament_key(tournament: Tournament) -> tuple[Any, ...] | None:
    """Where a tournament's games begin in :data:`PLAYED_ORDER` (None: no round yet)."""
    first = tournament.rounds.order_by("created_at", "id").first()
    return None if first is None else (first.created_at, first.pk, 0, 0)


def pairings_with_games(*, viewer: Any = None) -> QuerySet[Pairing]:
    """Boards with names, tournament and their games' winners (for :func:`pairing_progress`):
    those of released rounds, and the drafts' boards of the clubs ``viewer`` organizes."""
    return pairing_list(viewer=viewer).prefetch_related(Prefetch(
        "games", queryset=Game.objects.only("id", "pairing_id", "number", "winner_side")
        .order_by("number")))


def pairing_progress(pairing: Pairing) -> MatchProgress | None:
    """A pending match's games so far and next step; None once it has its result (or for a
    bye). Reads the pairing's games (prefetch them: :func:`pairings_with_games`)."""
    if pairing.outcome != Outcome.PENDING or pairing.entrant_b_id is None:
        return None
    tournament = pairing.round.tournament
    return match_progress(stored_match_format(tournament),
                          [game.winner_side for game in pairing.games.all()],
                          knockout=tournament.system.needs_winner)


def game_list() -> QuerySet[Game]:
    return Game.objects.select_related("pairing__round__tournament").order_by(
        "pairing__round__tournament_id", "pairing__round__number", "pairing__board", "number")


def games_filtered(*, tournament: int | None = None, pairing: int | None = None,
                   player: int | None = None) -> QuerySet[Game]:
    games = game_list()
    if tournament is not None:
        games = games.filter(pairing__round__tournament_id=tournament)
    if pairing is not None:
        games = games.filter(pairing_id=pairing)
    if player is not None:
        games = games.filter(
            Q(pairing__entrant_a__player_id=player) | Q(pairing__entrant_b__player_id=player)
            | Q(pairing__entrant_a__team__memberships__player_id=player)
            | Q(pairing__entrant_b__team__memberships__player_id=player)
        ).distinct()
    return games


@dataclass(frozen=True)
class SheetBoard:
    board: int
    entrant_a: str
    entrant_b: str | None
    bye: str
    #: "A moves first in game 1" or "A holds the low doubles in game 1"
    first_role: str
    first_name: str
    outcome: str
    game_numbers: list[int]
    #: Each side's points when the round began ("1½"; "" in a knockout).
    points_a: str = ""
    points_b: str = ""


def points_text(value: float | None) -> str:
    """``1.5`` -> ``1½``, ``2.0`` -> ``2``, None -> ``""``."""
    if value is None:
        return ""
    whole, half = int(value), value - int(value)
    if half == 0:
        return str(whole)
    if half == 0.5:
        return f"{whole or ''}½"
    return f"{value:g}"


@dataclass(frozen=True)
class RoundSheet:
    round: Any
    tournament: Any
    game_label: str
    clock: str
    clock_words: str
    match_format: str
    role_name: str
    boards: list[SheetBoard]
    #: Can a game be drawn (the game's facts)? The slips explain draws only then.
    draws_possible: bool = True


def _readable_clock(text: str) -> bool:
    from games.clocks.control import format_clock_text
    from games.clocks.errors import ClockError

    try:
        format_clock_text(text)
    except ClockError:
        return False
    return True


def round_sheet(round_: Any) -> RoundSheet:
    """Everything the pairing sheet and the result slips of ``round_`` print."""
    from games.clocks.errors import ClockError
    from games.clocks.setting import parse_setting

    tournament = round_.tournament
    try:
        match_format = stored_match_format(tournament)
        described = format_text(match_format)
        longest = match_format.max_games_needed() or UNCAPPED_SLIP_GAMES
    except SeriesError:
        match_format, described, longest = MatchFormat(), gettext("a single game"), 1
    roles = game_roles(tournament.game, 0, duplicate=match_format.duplicate)
    role = translated(roles.role_label)
    clock = round_clock(round_)
    try:
        clock_words = parse_setting(clock).describe() if clock else gettext("no clock set")
    except ClockError:  # periods, odds or per-game settings: shown as written
        clock_words = clock if _readable_clock(clock) else gettext("unreadable clock setting")
    before = points_before_rounds(tournament)

    def points(entrant_id: int | None) -> str:
        known = before.get(entrant_id) if entrant_id is not None else None
        index = round_.number - 1
        return points_text(known[index]) if known is not None and index < len(known) else ""

    boards = []
    pairings = round_.pairings.select_related(
        "entrant_a__player", "entrant_a__team", "entrant_b__player", "entrant_b__team"
    ).order_by("board")
    for pairing in pairings:
        name_a = pairing.entrant_a.name
        name_b = pairing.entrant_b.name if pairing.entrant_b_id else None
        first = name_a if roles.first_side == 0 else (name_b or name_a)
        boards.append(SheetBoard(
            board=pairing.board, entrant_a=name_a, entrant_b=name_b,
            bye=pairing.get_bye_kind_display() if not pairing.entrant_b_id else "",
            first_role=role, first_name=first,
            outcome="" if pairing.outcome == "pending" else pairing.get_outcome_display(),
            game_numbers=list(range(1, longest + 1)),
            points_a=points(pairing.entrant_a_id), points_b=points(pairing.entrant_b_id),
        ))
    return RoundSheet(round_, tournament, game_label(tournament.game),
                      clock, clock_words, described, role, boards,
                      draws_possible=games_can_be_drawn(tournament))


def record_for_reader(game: Game, user: Any) -> dict[str, Any] | None:
    """``game``'s record as ``user`` may read it: a bot's info lines (its own words, which
    may say anything) only for the organizers of the tournament's club and site
    administrators; everyone else gets the moves without them."""
    record = game.record
    if not isinstance(record, dict) or "info" not in record:
        return record
    if getattr(user, "is_authenticated", False) and can_manage_club(
            user, game.pairing.round.tournament.club):
        return record
    return {key: value for key, value in record.items() if key != "info"}
