"""Reads for ratings: the games that count, in played order, with who played each side.

A player entrant is its side. For a team entrant, the players named in the record's seats
(seat ``i`` plays for side ``i % 2``, side 0's seats first: docs/rules/records.md) when
the record names them all, else the team's members on the day of the game.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from matches.models import Game, Termination
from matches.selectors import PLAYED_ORDER, played_from
from players.models import Player, TeamMembership

Side = tuple[int, ...]
Members = dict[int, list[tuple[int, dt.date, dt.date | None]]]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game that counts for ratings: the players of side 0 (entrant A) and side 1
    (entrant B), and the winning side (``None``: a draw)."""

    game_id: int
    played_at: dt.datetime
    sides: tuple[Side, Side]
    winner: int | None


def rated_game_rows(*, club_id: int | None = None, games: Sequence[str] | None = None,
                    game_id: int | None = None,
                    from_key: Sequence[Any] | None = None) -> QuerySet[Game]:
    """The games that count for ratings (rated tournaments, two sides, not forfeited), in
    played order (a game of a typed match score counts in its stored order)."""
    rows = Game.objects.filter(
        pairing__round__tournament__rated=True, pairing__entrant_b__isnull=False
    ).exclude(termination=Termination.FORFEIT)
    if club_id is not None:
        rows = rows.filter(pairing__round__tournament__club_id=club_id)
    if games is not None:
        rows = rows.filter(game__in=list(games))
    if game_id is not None:
        rows = rows.filter(pk=game_id)
    if from_key is not None:
        rows = rows.filter(played_from(from_key))
    return rows.order_by(*PLAYED_ORDER)


def rated_games(*, club_id: int, games: Sequence[str] | None = None,
                game_id: int | None = None,
                from_key: Sequence[Any] | None = None) -> list[RatedGame]:
    """The club's :func:`rated_game_rows` with their sides resolved.

    An :class:`ApplicationError` names a game whose record's seats name an unknown player,
    or whose team had no members on the day and whose record names no players."""
    rows = rated_game_rows(club_id=club_id, games=games, game_id=game_id, from_key=from_key)
    fields = ("id", "played_at", "winner_side", "pairing__entrant_a__player_id",
              "pairing__entrant_a__team_id", "pairing__entrant_b__player_id",
              "pairing__entrant_b__team_id", "record__seats")
    values = list(rows.values_list(*fields).iterator(chunk_size=10_000))
    seat_sides = {row[0]: seat_sides_of(row[7]) for row in values if row[7]}
    _check_seat_players(seat_sides)
    members: Members | None = None
    resolved = []
    for game, played_at, winner, a_player, a_team, b_player, b_team, _seats in values:
        seats = seat_sides.get(game)
        sides: list[Side] = []
        for side, (player, team) in enumerate(((a_player, a_team), (b_player, b_team))):
            if player is not None:
                sides.append((player,))
            elif seats is not None:
                sides.append(seats[side])
            else:
                if members is None:
                    members = _memberships(club_id)
                sides.append(_members_on(members, game, team, played_at))
        resolved.append(RatedGame(game, played_at, (sides[0], sides[1]), winner))
    return resolved


def seat_sides_of(seats: Any) -> tuple[Side, Side] | None:
    """The player ids of each side from a record's seats, or ``None`` if they name none.

    >>> seat_sides_of([3, "4", {"player": 5}, {"player_id": 6}])
    ((3, 5), (4, 6))
    >>> seat_sides_of([3, "Ann"]) is None
    True
    """
    if not isinstance(seats, list) or len(seats) < 2:
        return None
    sides: tuple[list[int], list[int]] = ([], [])
    for index, seat in enumerate(seats):
        player = _seat_player(seat)
        if player is None:
            return None
        sides[index % 2].append(player)
    return tuple(sides[0]), tuple(sides[1])


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


def _check_seat_players(seat_sides: dict[int, tuple[Side, Side] | None]) -> None:
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


def _memberships(club_id: int) -> Members:
    members: Members = defaultdict(list)
    for team, player, joined, left in TeamMembership.objects.filter(
        team__club_id=club_id
    ).values_list("team_id", "player_id", "joined_on", "left_on"):
        members[team].append((player, joined, left))
    return members


def _members_on(members: Members, game_id: int, team: int | None,
                played_at: dt.datetime) -> Side:
    day = timezone.localdate(played_at)
    side = tuple(
        member for member, joined, left in members.get(team or 0, [])
        if joined <= day and (left is None or left > day)
    )
    if not side:
        raise ApplicationError(
            _("Game %(game)s cannot be rated: team %(team)s had no members on %(day)s "
              "and the game's record names no players in its seats.")
            % {"game": game_id, "team": team, "day": date_format(day)},
            field="game",
        )
    return side
