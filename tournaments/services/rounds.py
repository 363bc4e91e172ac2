"""Pairing the next round: round robin from the Berger tables, Swiss by the Dutch system,
knockouts from the bracket. One round at a time, under a lock on the tournament row."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import ApplicationError
from players.permissions import Actor, ensure_can_manage_club
from tournaments import adapters
from tournaments.cache import tournament_changed
from tournaments.models import (
    ByeKind,
    Entrant,
    FirstColour,
    Format,
    Outcome,
    Pairing,
    RequestedBye,
    Round,
    RoundEntry,
    RoundStatus,
    Status,
    Tournament,
)
from tournaments.services.tournaments import clock_text_clean, lock_tournament
from tournaments.texts import core_error_message


@dataclass
class PlannedPairing:
    entrant_a: Entrant
    entrant_b: Entrant | None
    bye_kind: str = ""
    bracket_match: str = ""
    outcome: str = Outcome.PENDING


@transaction.atomic
def round_pair_next(*, actor: Actor, tournament: Tournament) -> Round:
    """Pair and save the next round; refused while the current round lacks results.

    The tournament row stays locked until the transaction commits, so two organizers
    pairing at the same moment create one round: the second sees it and is refused.
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
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
    entrants = list(tournament.entrants.select_related("player", "team"))
    if tournament.is_round_robin:
        planned = _round_robin(tournament, entrants, number)
    elif tournament.is_knockout:
        planned = _knockout(tournament, entrants, pairings, number)
    else:
        planned = _swiss(tournament, entrants, rounds, pairings, number)
    return _save_round(tournament, number, planned)


def _forfeit_if_absent(planned: PlannedPairing, number: int) -> PlannedPairing:
    """In fixed schedules a withdrawn entrant's match is a forfeit, decided at once."""
    if planned.entrant_b is None:
        return planned
    a_plays = planned.entrant_a.plays_in(number)
    b_plays = planned.entrant_b.plays_in(number)
    if a_plays and not b_plays:
        planned.outcome = Outcome.A_FORFEIT_WIN
    elif b_plays and not a_plays:
        planned.outcome = Outcome.B_FORFEIT_WIN
    elif not a_plays and not b_plays:
        planned.outcome = Outcome.DOUBLE_FORFEIT
    return planned


def _round_robin(tournament: Tournament, entrants: list[Entrant], number: int) -> list[
        PlannedPairing]:
    from tournaments.pairing.round_robin import BYE, berger_rounds

    by_seed = {e.seed: e for e in entrants if e.seed is not None}
    schedule = berger_rounds(len(by_seed), double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
    if number > len(schedule):
        raise ApplicationError(
            ngettext("All %(count)d rounds of the round robin are paired: finish the "
                     "tournament.",
                     "All %(count)d rounds of the round robin are paired: finish the "
                     "tournament.", len(schedule)) % {"count": len(schedule)},
            field="round",
        )
    planned = []
    for first, second in schedule[number - 1]:
        if second == BYE or first == BYE:
            entrant = by_seed[first or second]
            planned.append(PlannedPairing(entrant, None, ByeKind.PAIRING_ALLOCATED,
                                          outcome=Outcome.BYE))
        else:
            planned.append(_forfeit_if_absent(
                PlannedPairing(by_seed[first], by_seed[second]), number))
    # byes last, as boards go
    return sorted(planned, key=lambda p: p.entrant_b is None)


def _knockout(tournament: Tournament, entrants: list[Entrant], pairings: list[Pairing],
              number: int) -> list[PlannedPairing]:
    from tournaments.pairing.knockout import BYE

    seeded = [e for e in entrants if e.seed is not None]
    by_seed = {e.seed: e for e in seeded}
    seed_of = {e.pk: int(e.seed) for e in seeded if e.seed is not None}
    bracket = adapters.bracket_of(tournament, len(seeded), pairings, seed_of)
    playable = bracket.playable()
    if not playable:
        raise ApplicationError(_("The bracket is complete: finish the tournament."),
                               field="round")
    planned = []
    for match in playable:
        first, second = match.entrants
        if first in (None, BYE) or second in (None, BYE):
            continue  # the bracket decides byes by itself
        planned.append(_forfeit_if_absent(
            PlannedPairing(by_seed[first], by_seed[second], bracket_match=match.id), number))
    return planned


def _swiss(tournament: Tournament, entrants: list[Entrant], rounds: list[Round],
           pairings: list[Pairing], number: int) -> list[PlannedPairing]:
    """The Swiss round through the tournament's TRF document and the pairing the corpus
    checks against bbpPairings (``tournaments.trf.pair_document``): one Swiss path."""
    from tournaments.trf import TrfError, pair_document

    total = tournament.rounds_planned or 0
    if number > total:
        raise ApplicationError(
            ngettext("All %(count)d planned rounds are paired: finish the tournament or plan "
                     "more rounds.",
                     "All %(count)d planned rounds are paired: finish the tournament or plan "
                     "more rounds.", total) % {"count": total},
            field="round",
        )
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
    number_of = {entrant.pk: n for n, entrant in entrant_of.items()}
    pairs: list[tuple[int, int]] = []
    if len(absent) + len(requested) < len(entrants):
        try:
            pairs = pair_document(document)
        except TrfError as error:
            problem = error.params.get("problem")  # the pairing core's reason
            reason = problem if isinstance(problem, BaseException) else error
            raise ApplicationError(_("Round %(round)d cannot be paired: %(problem)s") % {
                "round": number, "problem": core_error_message(reason)}, field="round") from None
    planned = []
    for first, second in pairs:
        if second == 0:
            planned.append(PlannedPairing(entrant_of[first], None, ByeKind.PAIRING_ALLOCATED,
                                          outcome=Outcome.BYE))
        else:
            planned.append(PlannedPairing(entrant_of[first], entrant_of[second]))
    by_id = {e.pk: e for e in entrants}
    for entrant_id, kind in sorted(requested.items(), key=lambda item: number_of[item[0]]):
        planned.append(PlannedPairing(by_id[entrant_id], None, kind, outcome=Outcome.BYE))
    return planned


@transaction.atomic
def round_create(*, actor: Actor, tournament: Tournament, number: int,
                 planned: list[PlannedPairing]) -> Round:
    """Save round ``number`` as given (an import): boards in the order of ``planned``.

    Refused unless it is the tournament's next round; results are recorded afterwards.
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    expected = tournament.rounds.count() + 1
    if number != expected:
        raise ApplicationError(_("Round %(round)d cannot come before round %(expected)d.")
                               % {"round": number, "expected": expected}, field="round")
    return _save_round(tournament, number, planned)


def _save_round(tournament: Tournament, number: int, planned: list[PlannedPairing]) -> Round:
    if not planned:
        raise ApplicationError(_("Nobody is left to pair in round %(round)d.")
                               % {"round": number}, field="round")
    decided = all(p.outcome != Outcome.PENDING for p in planned)
    round_ = Round.objects.create(
        tournament=tournament, number=number,
        status=RoundStatus.FINISHED if decided else RoundStatus.PAIRED,
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
    tournament_changed(tournament.pk)
    return round_


@transaction.atomic
def round_clock_update(
    *, actor: Actor, round_: Round, clock: str | None, time_slot_minutes: int | None
) -> Round:
    """Set a round's clock override and time slot (validated)."""
    ensure_can_manage_club(actor, round_.tournament.club)
    if time_slot_minutes is not None and time_slot_minutes < 1:
        raise ApplicationError(_("The time slot must be at least one minute."),
                               field="time_slot_minutes")
    round_.clock = clock_text_clean(clock, field="clock")
    round_.time_slot_minutes = time_slot_minutes
    round_.save(update_fields=["clock", "time_slot_minutes"])
    return round_
