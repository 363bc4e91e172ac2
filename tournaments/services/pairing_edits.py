"""Hand edits of the last round's pairings (Swiss), while it has no result: swap two
entrants between boards, swap who moves first on a board, or pair two entrants (or give
one a bye) by hand. :func:`pairing_edit_check` names the Swiss rules an edit breaks
(``tournaments.pairing.edit_rules``) without writing; :func:`pairing_edit` saves it and
logs it in the tournament's history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from players.permissions import Actor, ensure_can_manage_club
from tournaments.history import EventKind, record
from tournaments.models import (
    PLAYED_OUTCOMES,
    ByeKind,
    Entrant,
    Outcome,
    Pairing,
    Round,
    RoundEntry,
    Tournament,
)
from tournaments.pairing.edit_rules import Board, PastRound, broken_rules
from tournaments.selectors import needing_boards
from tournaments.services.rounds import ensure_last_round_unplayed, ensure_not_league_boards
from tournaments.services.tournaments import lock_tournament

SWAP_BOARDS = "swap_boards"
SWAP_FIRST_MOVE = "swap_first_move"
MANUAL = "manual"
ACTIONS = (SWAP_BOARDS, SWAP_FIRST_MOVE, MANUAL)


@dataclass
class Seat:
    """One board as edited: who moves first, the other (None: a bye) and its kind."""

    first: int
    second: int | None
    bye_kind: str = ""

    @property
    def fixed(self) -> bool:
        """A requested (or absent) bye: not the pairing's to move."""
        return self.second is None and self.bye_kind != ByeKind.PAIRING_ALLOCATED


@dataclass
class EditPlan:
    """An edit worked out: the round's boards after it, what changes and what it breaks."""

    action: str
    seats: list[Seat]
    changes: list[dict[str, Any]]
    broken: list[dict[str, Any]]
    unpaired: list[int] = field(default_factory=list)


def label(entrant: Entrant | None) -> str:
    """How the history names an entrant: "<starting number> <name>", "" for a bye."""
    if entrant is None:
        return ""
    return f"{entrant.seed} {entrant.name}" if entrant.seed is not None else entrant.name


def round_seats(round_: Round) -> list[Seat]:
    return [Seat(p.entrant_a_id, p.entrant_b_id, p.bye_kind)
            for p in round_.pairings.order_by("board")]


def to_pair(round_: Round, entrants: Sequence[Entrant], seats: Sequence[Seat]) -> list[int]:
    """The entrants who need a board in the round (:func:`needing_boards`)."""
    return needing_boards(round_.number, entrants,
                          {seat.first for seat in seats if seat.fixed})


def _seat_of(seats: list[Seat], entrant: int) -> int | None:
    for index, seat in enumerate(seats):
        if entrant in (seat.first, seat.second):
            return index
    return None


def _refuse_fixed(seat: Seat, board: int) -> None:
    if seat.fixed:
        raise ApplicationError(_("Board %(board)d is a requested bye: cancel the request "
                                 "instead.") % {"board": board}, field="board")


def _edited(action: str, seats: list[Seat], board: int | None,
            entrants: Sequence[int], names: dict[int, str]) -> list[Seat]:
    seats = [Seat(s.first, s.second, s.bye_kind) for s in seats]
    if action == SWAP_FIRST_MOVE:
        if board is None or not 1 <= board <= len(seats):
            raise ApplicationError(_("Choose a board of the round."), field="board")
        seat = seats[board - 1]
        if seat.second is None:
            raise ApplicationError(_("Board %(board)d is a bye: nobody moves second.")
                                   % {"board": board}, field="board")
        seat.first, seat.second = seat.second, seat.first
        return seats
    if len(set(entrants)) != len(entrants) or any(e not in names for e in entrants):
        raise ApplicationError(_("Choose different entrants of the tournament."),
                               field="entrants")
    if action == SWAP_BOARDS:
        if len(entrants) != 2:
            raise ApplicationError(_("Choose the two entrants to swap."), field="entrants")
        x, y = entrants
        at_x, at_y = _seat_of(seats, x), _seat_of(seats, y)
        if at_x is None or at_y is None or at_x == at_y:
            raise ApplicationError(_("Choose two entrants on different boards."),
                                   field="entrants")
        for index in (at_x, at_y):
            _refuse_fixed(seats[index], index + 1)
        for seat in (seats[at_x], seats[at_y]):
            seat.first = {x: y, y: x}.get(seat.first, seat.first)
            if seat.second is not None:
                seat.second = {x: y, y: x}.get(seat.second, seat.second)
        return seats
    if action != MANUAL:
        raise ApplicationError(_("Unknown edit %(action)r.") % {"action": action},
                               field="action")
    if len(entrants) not in (1, 2):
        raise ApplicationError(_("Choose two entrants to pair, or one to give a bye."),
                               field="entrants")
    dissolved = sorted({i for e in entrants if (i := _seat_of(seats, e)) is not None})
    for index in dissolved:
        _refuse_fixed(seats[index], index + 1)
    new = Seat(entrants[0], entrants[1] if len(entrants) == 2 else None,
               "" if len(entrants) == 2 else ByeKind.PAIRING_ALLOCATED)
    where = dissolved[0] if dissolved else None
    kept = [seat for index, seat in enumerate(seats) if index not in dissolved]
    if where is None or new.second is None:
        return _byes_last([*kept, new])
    position = sum(1 for index in range(where) if index not in dissolved)
    return _byes_last([*kept[:position], new, *kept[position:]])


def _byes_last(seats: list[Seat]) -> list[Seat]:
    return ([s for s in seats if s.second is not None]
            + [s for s in seats if s.second is None and not s.fixed]
            + [s for s in seats if s.fixed])


def _earlier(tournament: Tournament, round_: Round) -> list[PastRound]:
    by_round: dict[int, tuple[list[tuple[int, int]], set[int]]] = {}
    pairings = Pairing.objects.filter(round__tournament=tournament,
                                      round__number__lt=round_.number)
    for p in pairings.values_list("round__number", "entrant_a_id", "entrant_b_id",
                                  "bye_kind", "outcome"):
        number, first, second, bye_kind, outcome = p
        boards, byes = by_round.setdefault(number, ([], set()))
        if second is not None and outcome in PLAYED_OUTCOMES:
            boards.append((first, second))
        elif second is None and bye_kind == ByeKind.PAIRING_ALLOCATED:
            byes.add(first)
    return [PastRound(tuple(boards), frozenset(byes))
            for _, (boards, byes) in sorted(by_round.items())]


def _plan(tournament: Tournament, round_: Round, action: str, board: int | None,
          entrants: Sequence[int]) -> EditPlan:
    ensure_not_league_boards(tournament)
    if not tournament.system.pairing_edits:
        raise ApplicationError(
            _("%(system)s: the pairings follow the system's schedule; unpair the round "
              "and pair it again instead of editing it.") % {"system": _(tournament.system.label)},
            field="action")
    ensure_last_round_unplayed(tournament, round_, _("Edit round %(round)d") % {
        "round": round_.number})
    people = {e.pk: e for e in tournament.entrants.select_related("player", "team")}
    names = {pk: e.name for pk, e in people.items()}
    before = round_seats(round_)
    after = _edited(action, before, board, list(entrants), names)
    needed = to_pair(round_, list(people.values()), after)
    broken = broken_rules(
        _earlier(tournament, round_),
        [Board(s.first, s.second) for s in after if not s.fixed], needed,
        tournament.forbidden_pairings.values_list("entrant_low_id", "entrant_high_id"))
    changes = []
    for number in range(1, max(len(before), len(after)) + 1):
        was = before[number - 1] if number <= len(before) else None
        now = after[number - 1] if number <= len(after) else None
        pair_was = _labels(was, people)
        pair_now = _labels(now, people)
        if pair_was != pair_now:
            changes.append({"board": number, "before": pair_was, "after": pair_now})
    seated = {e for s in after for e in (s.first, s.second) if e is not None}
    return EditPlan(action, after, changes,
                    [{"rule": item.rule, "names": [names[e] for e in item.entrants]}
                     for item in broken],
                    [e for e in needed if e not in seated])


def _labels(seat: Seat | None, people: dict[int, Entrant]) -> list[str]:
    if seat is None:
        return ["", ""]
    return [label(people[seat.first]),
            label(people[seat.second]) if seat.second is not None else ""]


def pairing_edit_check(*, round_: Round, action: str, board: int | None = None,
                       entrants: Sequence[int] = ()) -> EditPlan:
    """The edit worked out (boards after it, changes, rules broken); nothing is written."""
    return _plan(round_.tournament, round_, action, board, entrants)


@transaction.atomic
def pairing_edit(*, actor: Actor, round_: Round, action: str, board: int | None = None,
                 entrants: Sequence[int] = ()) -> EditPlan:
    """Save an edit of the last round's boards (renumbered: played boards first, byes
    last) and log it with what it broke. The director has seen :func:`pairing_edit_check`."""
    ensure_can_manage_club(actor, round_.tournament.club)
    tournament = lock_tournament(round_.tournament)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    plan = _plan(tournament, round_, action, board, entrants)
    if not plan.changes:
        raise ApplicationError(_("This edit changes nothing."), field="action")
    round_.pairings.all().delete()  # their seats go with them; no result exists yet
    rows = Pairing.objects.bulk_create(
        Pairing(round=round_, board=number, entrant_a_id=seat.first,
                entrant_b_id=seat.second, bye_kind=seat.bye_kind,
                outcome=Outcome.PENDING if seat.second is not None else Outcome.BYE)
        for number, seat in enumerate(plan.seats, start=1))
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, entrant_id=entrant, pairing=row)
        for row in rows for entrant in (row.entrant_a_id, row.entrant_b_id)
        if entrant is not None)
    record(tournament, EventKind.PAIRING_EDITED, actor=actor, round_number=round_.number,
           action=action, changes=plan.changes, broken=plan.broken)
    return plan
