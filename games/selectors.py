"""Reads for the games of matches: game lists for the API, and the printable round sheets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from games.clock_services import GAME_LABELS, round_clock
from games.models import Game
from games.series.format import MatchFormat, SeriesError
from games.series.roles import game_roles
from tournaments.selectors import points_before_rounds

#: Boxes on a result slip for a first-to-N match without a cap (rarely all used).
UNCAPPED_SLIP_GAMES = 9


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


def round_sheet(round_: Any) -> RoundSheet:
    """Everything the pairing sheet and the result slips of ``round_`` print."""
    from games.clocks.errors import ClockError
    from games.clocks.setting import parse_setting

    tournament = round_.tournament
    try:
        match_format = MatchFormat.from_dict(tournament.match_format or {})
        described = match_format.describe()
        longest = match_format.max_games_needed() or UNCAPPED_SLIP_GAMES
    except SeriesError:
        match_format, described, longest = MatchFormat(), "a single game", 1
    roles = game_roles(tournament.game, 0, duplicate=match_format.duplicate)
    role = roles.role_name
    clock = round_clock(round_)
    try:
        clock_words = parse_setting(clock).describe() if clock else "no clock set"
    except ClockError:
        clock_words = "unreadable clock setting"
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
            first_role=role, first_name=first, outcome=pairing.get_outcome_display(),
            game_numbers=list(range(1, longest + 1)),
            points_a=points(pairing.entrant_a_id), points_b=points(pairing.entrant_b_id),
        ))
    return RoundSheet(round_, tournament, GAME_LABELS.get(tournament.game, tournament.game),
                      clock, clock_words, described, role, boards)
