"""Pairing the next round by the tournament's system (``tournaments.systems``: round robin
from the Berger tables, Swiss by the Dutch system, knockouts from the bracket). One round
at a time, under a lock on the tournament row."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.bounds import MAX_ROUNDS
from core.errors import ApplicationError
from players.permissions import Actor, ensure_can_manage_club
from tournaments import adapters, events
from tournaments.history import EventKind, record
from tournaments.models import (
    ByeKind,
    Entrant,
    FirstColour,
    Outcome,
    Pairing,
    RequestedBye,
    ResultChange,
    Round,
    RoundEntry,
    RoundStatus,
    Status,
    Tournament,
)
from tournaments.pairing.swiss import PairingError
from tournaments.selectors import unpaired_entrants
from tournaments.services.tournaments import clock_text_clean, lock_tournament
from tournaments.systems import PlanError, SwissInput
from tournaments.texts import core_error_message
from tournaments.trf import TrfError


@dataclass
class PlannedPairing:
    entrant_a: Entrant
    entrant_b: Entrant | None
    bye_kind: str = ""
    bracket_match: str = ""
    outcome: str = Outcome.PENDING


@transaction.atomic
def round_pair_next(*, actor: Actor, tournament: Tournament,
                    release: bool | None = None) -> Round:
    """Pair and save the next round; refused while the current round lacks results.

    The round is a draft until :func:`round_release`, unless ``release`` (or, when it is
    None, the tournament's "release pairings at once") publishes it now.

    The tournament row stays locked until the transaction commits, so two organizers
    pairing at the same moment create one round: the second sees it and is refused.
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    ensure_not_league_boards(tournament)
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            _("Rounds are paired while the tournament runs; it is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()},
            field="status",
        )
    rounds = list(tournament.rounds.order_by("number"))
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament).order_by("round__number", "board")
    )
    if rounds:
        current = rounds[-1]
        missing = [p.board for p in pairings
                   if p.round_id == current.pk and p.outcome == Outcome.PENDING]
        if missing:
            boards = ", ".join(str(b) for b in missing[:10]) + ("..." if len(missing) > 10 else "")
            raise ApplicationError(
                ngettext("Round %(round)d still has %(count)d missing result (board "
                         "%(boards)s): record it before pairing round %(next)d.",
                         "Round %(round)d still has %(count)d missing results (boards "
                         "%(boards)s): record them before pairing round %(next)d.",
                         len(missing)) % {
                    "round": current.number, "count": len(missing), "boards": boards,
                    "next": current.number + 1},
                field="round",
            )
    number = len(rounds) + 1
    events.pairing_asked.send(events.PairingAsked(tournament.pk, number))
    first_colour = tournament.first_colour
    entrants = list(tournament.entrants.select_related("player", "team"))
    if rounds:
        ensure_everyone_seated(rounds[-1], _("Round %(round)d cannot be paired") % {
            "round": number}, entrants, pairings)
    state = adapters.system_state(
        tournament, adapters.system_entries(entrants), pairings, len(rounds),
        pairing_input=lambda n: _swiss(tournament, entrants, rounds, pairings, n))
    try:
        plan = tournament.system.plan_round(state, number)
    except PlanError as error:
        raise ApplicationError(core_error_message(error), field="round") from None
    except PairingError as error:
        raise ApplicationError(_("Round %(round)d cannot be paired: %(problem)s") % {
            "round": number, "problem": core_error_message(error)}, field="round") from None
    except TrfError as error:
        problem = error.params.get("problem")  # the pairing core's reason
        reason = problem if isinstance(problem, BaseException) else error
        raise ApplicationError(_("Round %(round)d cannot be paired: %(problem)s") % {
            "round": number, "problem": core_error_message(reason)}, field="round") from None
    by_id = {e.pk: e for e in entrants}
    planned = [PlannedPairing(by_id[p.first], None if p.second is None else by_id[p.second],
                              p.bye_kind, p.bracket_match, p.outcome) for p in plan]
    drawn: dict[str, Any] = {"first_colour_drawn": tournament.first_colour} \
        if tournament.first_colour != first_colour else {}
    return _save_round(tournament, number, planned, actor=actor, release=release, **drawn)


def ensure_not_league_boards(tournament: Tournament) -> None:
    """A league division's board tournament is paired, unpaired and edited by the league
    only (its boards belong to team matches)."""
    if tournament.system.pairs_teams:
        raise ApplicationError(_("This tournament holds a league division's boards: pair it "
                                 "from the league."), field="format")


@dataclass(frozen=True)
class GivenBoard:
    """One board a floor above decided (a league's team match): who moves first in game 1
    (``entrant_a``), the opponent, and the outcome when it is known already."""

    entrant_a: Entrant
    entrant_b: Entrant
    outcome: str = Outcome.PENDING


@transaction.atomic
def round_boards_add(*, actor: Actor, tournament: Tournament, round_number: int,
                     boards: list[GivenBoard]) -> list[Pairing]:
    """Append ``boards`` to round ``round_number`` of a tournament whose system pairs teams
    (a league division's board tournament), with the next board numbers; the round (and
    any earlier one still missing) is made, released at once: a league's boards are public
    as soon as both lineups are in."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if not tournament.system.pairs_teams:
        raise ApplicationError(_("Boards are given by a league only to a division's board "
                                 "tournament."), field="format")
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            _("Rounds are paired while the tournament runs; it is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()}, field="status")
    if isinstance(round_number, bool) or not isinstance(round_number, int) \
            or not 1 <= round_number <= MAX_ROUNDS:
        raise ApplicationError(_("A tournament has at most %(limit)d rounds.")
                               % {"limit": MAX_ROUNDS}, field="round")
    if not boards:
        raise ApplicationError(_("Nobody is left to pair in round %(round)d.")
                               % {"round": round_number}, field="round")
    rounds = {r.number: r for r in tournament.rounds.select_for_update()}
    round_ = rounds.get(round_number)
    seated = set(RoundEntry.objects.filter(round=round_).values_list("entrant_id", flat=True)) \
        if round_ is not None else set()
    ids: list[int] = []
    for given in boards:
        for entrant in (given.entrant_a, given.entrant_b):
            if entrant.tournament_id != tournament.pk:
                raise ApplicationError(_("%(name)s is not entered in this tournament.")
                                       % {"name": entrant.name}, field="boards")
            ids.append(entrant.pk)
        if given.entrant_a.pk == given.entrant_b.pk:
            raise ApplicationError(_("%(name)s cannot play against themselves.")
                                   % {"name": given.entrant_a.name}, field="boards")
        if given.outcome not in Outcome.values or given.outcome == Outcome.BYE:
            raise ApplicationError(_("Unknown outcome %(outcome)r.")
                                   % {"outcome": given.outcome}, field="boards")
    twice = seated.intersection(ids) or {i for i in ids if ids.count(i) > 1}
    if twice:
        name = next(e.name for g in boards for e in (g.entrant_a, g.entrant_b)
                    if e.pk in twice)
        raise ApplicationError(_("%(name)s already has a board in round %(round)d.")
                               % {"name": name, "round": round_number}, field="boards")
    now = timezone.now()
    for number in range(1, round_number + 1):
        if number not in rounds:
            rounds[number] = Round.objects.create(
                tournament=tournament, number=number, status=RoundStatus.PAIRED,
                released_at=now)
            record(tournament, EventKind.ROUND_RELEASED, actor=actor, round_number=number)
            _announce_release(rounds[number])
    round_ = rounds[round_number]
    first = (round_.pairings.aggregate(n=Max("board"))["n"] or 0) + 1
    rows = [Pairing(round=round_, board=board, entrant_a=given.entrant_a,
                    entrant_b=given.entrant_b, outcome=given.outcome)
            for board, given in enumerate(boards, start=first)]
    Pairing.objects.bulk_create(rows)
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, entrant_id=entrant_id, pairing=row)
        for row in rows for entrant_id in (row.entrant_a_id, row.entrant_b_id)
        if entrant_id is not None)
    pending = round_.pairings.filter(outcome=Outcome.PENDING).exists()
    status = RoundStatus.PAIRED if pending else RoundStatus.FINISHED
    if round_.status != status:
        round_.status = status
        round_.save(update_fields=["status"])
    record(tournament, EventKind.ROUND_PAIRED, actor=actor, round_number=round_number,
           boards=len(rows))
    return rows


def _swiss(tournament: Tournament, entrants: list[Entrant], rounds: list[Round],
           pairings: list[Pairing], number: int) -> SwissInput:
    """The Swiss engine's input for round ``number``: the tournament's TRF document, the
    document the corpus checks against bbpPairings (one Swiss path)."""
    requested = {
        bye.entrant_id: bye.kind
        for bye in RequestedBye.objects.filter(entrant__tournament=tournament,
                                               round_number=number)
    }
    requested = {k: v for k, v in requested.items()
                 if any(e.pk == k and e.plays_in(number) for e in entrants)}
    by_round: dict[int, list[Pairing]] = {r.pk: [] for r in rounds}
    for pairing in pairings:
        by_round[pairing.round_id].append(pairing)
    if number == 1 and tournament.first_colour == FirstColour.LOT:
        tournament.first_colour = secrets.choice((FirstColour.WHITE, FirstColour.BLACK))
        tournament.save(update_fields=["first_colour", "updated_at"])
    absent = {e.pk: ByeKind.ZERO for e in entrants if not e.plays_in(number)}
    document = adapters.trf_document(
        tournament, entrants, [by_round[r.pk] for r in rounds],
        forbidden=tournament.forbidden_pairings.values_list("entrant_low_id",
                                                            "entrant_high_id"),
        next_round_byes={**absent, **requested},
    )
    ordered = adapters.pairing_order(entrants)
    entrant_of = dict(enumerate(ordered, start=1))
    return SwissInput(document, {n: entrant.pk for n, entrant in entrant_of.items()},
                      requested=requested,
                      pairable=len(absent) + len(requested) < len(entrants))


@transaction.atomic
def round_create(*, actor: Actor, tournament: Tournament, number: int,
                 planned: list[PlannedPairing], release: bool | None = None) -> Round:
    """Save round ``number`` as given (an import): boards in the order of ``planned``.

    Refused unless it is the tournament's next round; results are recorded afterwards
    (so an import releases its rounds: they were published where they were played).
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    expected = tournament.rounds.count() + 1
    if number != expected:
        raise ApplicationError(_("Round %(round)d cannot come before round %(expected)d.")
                               % {"round": number, "expected": expected}, field="round")
    return _save_round(tournament, number, planned, actor=actor, release=release)


def _save_round(tournament: Tournament, number: int, planned: list[PlannedPairing], *,
                actor: Actor, release: bool | None, **facts: Any) -> Round:
    """Save the planned boards; ``facts`` go on the history's "paired" line."""
    if not planned:
        raise ApplicationError(_("Nobody is left to pair in round %(round)d.")
                               % {"round": number}, field="round")
    decided = all(p.outcome != Outcome.PENDING for p in planned)
    if release is None:
        release = tournament.release_pairings_at_once
    round_ = Round.objects.create(
        tournament=tournament, number=number,
        status=RoundStatus.FINISHED if decided else RoundStatus.PAIRED,
        released_at=timezone.now() if release or decided else None,
    )
    rows = [
        Pairing(round=round_, board=board, entrant_a=p.entrant_a, entrant_b=p.entrant_b,
                bye_kind=p.bye_kind, bracket_match=p.bracket_match, outcome=p.outcome)
        for board, p in enumerate(planned, start=1)
    ]
    Pairing.objects.bulk_create(rows)
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, entrant_id=entrant_id, pairing=row)
        for row in rows
        for entrant_id in (row.entrant_a_id, row.entrant_b_id)
        if entrant_id is not None
    )
    record(tournament, EventKind.ROUND_PAIRED, actor=actor, round_number=number,
           boards=len(rows), **facts)
    if round_.is_released:
        record(tournament, EventKind.ROUND_RELEASED, actor=actor, round_number=number)
        _announce_release(round_)
    return round_


def _announce_release(round_: Round) -> None:
    events.round_released.send(
        events.RoundReleased(round_.tournament_id, round_.pk, round_.number))


@transaction.atomic
def round_release(*, actor: Actor, round_: Round) -> Round:
    """Publish a draft round: its pairings appear on the public pages and in the API, and
    its boards take results."""
    ensure_can_manage_club(actor, round_.tournament.club)
    tournament = lock_tournament(round_.tournament)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.is_released:
        raise ApplicationError(_("Round %(round)d is already released.")
                               % {"round": round_.number}, field="round")
    ensure_everyone_seated(round_, _("Round %(round)d cannot be released") % {
        "round": round_.number})
    round_.released_at = timezone.now()
    round_.save(update_fields=["released_at"])
    record(tournament, EventKind.ROUND_RELEASED, actor=actor, round_number=round_.number)
    _announce_release(round_)
    return round_


def ensure_everyone_seated(round_: Round, doing: str, entrants: list[Entrant] | None = None,
                           pairings: list[Pairing] | None = None) -> None:
    """Refused while a hand edit left someone of ``round_`` without a board (only a system
    whose pairings may be edited can leave anyone out: a knockout's losers rest)."""
    if not round_.tournament.system.pairing_edits:
        return
    left = unpaired_entrants(round_, entrants, pairings)
    if left:
        raise ApplicationError(
            ngettext("%(doing)s: %(names)s has no board in round %(round)d; pair them by "
                     "hand or give a bye.",
                     "%(doing)s: %(names)s have no board in round %(round)d; pair them by "
                     "hand or give a bye.", len(left)) % {
                "doing": doing, "names": ", ".join(e.name for e in left),
                "round": round_.number}, field="round")


def ensure_last_round_unplayed(tournament: Tournament, round_: Round, doing: str) -> None:
    """``round_`` is the tournament's last round, the tournament runs and no board of the
    round has a result: the checks before unpairing or editing it (``doing`` names the
    step in the refusal)."""
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            _("%(doing)s: the tournament is %(status)s.") % {
                "doing": doing, "status": str(tournament.get_status_display()).lower()},
            field="status")
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    if round_.number != last:
        raise ApplicationError(
            _("%(doing)s: only the last round (%(last)s) can change, not round %(round)d.")
            % {"doing": doing, "last": last, "round": round_.number}, field="round")
    results = sorted(ResultChange.objects.filter(pairing__round=round_)
                     .values_list("pairing__board", flat=True).distinct())
    if results:
        raise ApplicationError(
            ngettext("%(doing)s: round %(round)d has a result on board %(boards)s; "
                     "delete it first.",
                     "%(doing)s: round %(round)d has results on boards %(boards)s; "
                     "delete them first.", len(results)) % {
                "doing": doing, "round": round_.number,
                "boards": ", ".join(str(b) for b in results)}, field="round")


@transaction.atomic
def round_unpair(*, actor: Actor, round_: Round) -> int:
    """Delete the last round's pairings and seats (byes too), while it has no result: the
    next pairing makes it again. Returns the number of boards removed. A Swiss's first
    colour, once drawn by lot, stays as drawn."""
    ensure_can_manage_club(actor, round_.tournament.club)
    tournament = lock_tournament(round_.tournament)
    ensure_not_league_boards(tournament)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    ensure_last_round_unplayed(tournament, round_, _("Unpair round %(round)d") % {
        "round": round_.number})
    boards = round_.pairings.count()
    number = round_.number
    round_.delete()
    record(tournament, EventKind.ROUND_UNPAIRED, actor=actor, round_number=number,
           boards=boards)
    return boards


@transaction.atomic
def round_clock_update(
    *, actor: Actor, round_: Round, clock: str | None, time_slot_minutes: int | None
) -> Round:
    """Set a round's clock override and time slot (validated)."""
    ensure_can_manage_club(actor, round_.tournament.club)
    if time_slot_minutes is not None and time_slot_minutes < 1:
        raise ApplicationError(_("The time slot must be at least one minute."),
                               field="time_slot_minutes")
    # the stored values: an admin form may have set the new ones on ``round_`` already
    stored = Round.objects.filter(pk=round_.pk).values("clock", "time_slot_minutes").get()
    before = {"clock": stored["clock"], "slot": stored["time_slot_minutes"]}
    round_.clock = clock_text_clean(clock, field="clock")
    round_.time_slot_minutes = time_slot_minutes
    round_.save(update_fields=["clock", "time_slot_minutes"])
    after = {"clock": round_.clock, "slot": round_.time_slot_minutes}
    if after != before:
        record(round_.tournament, EventKind.ROUND_CLOCK_CHANGED, actor=actor,
               round_number=round_.number, before=before, after=after)
    return round_
