"""Reads for the games of matches: game lists for the API, and the printable round sheets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from games.engines import game_facts
from games.series.format import MatchFormat, SeriesError
from games.series.roles import game_roles
from matches.models import Game
from tournaments.selectors import round_clock

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
        ))
    return RoundSheet(round_, tournament, game_facts(tournament.game).label,
                      clock, clock_words, described, role, boards)
