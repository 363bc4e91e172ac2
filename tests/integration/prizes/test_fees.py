"""Entry fees: due from the tournament's fee at registration, payments, totals, the
check-in sheet's selector, and refusals that write nothing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError
from tests.worlds import people, tournament_of
from tournaments import services
from tournaments.history import EventKind, describe
from tournaments.models import Entrant, TournamentEvent
from tournaments.prize_lists import fee_sheet, fee_totals
from tournaments.services.prizes import (
    entrant_fee_update,
    entrants_paid_in_full,
    prize_settings_update,
)

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club_a: Any, organizer: Any) -> Any:
    tournament = tournament_of(organizer, club_a, [], name="Fee cup")
    tournament = prize_settings_update(actor=organizer, tournament=tournament,
                                       entry_fee="15.50", currency="kes")
    for index, player in enumerate(people(club_a, ["Zed", "Amy", "Bob"])):
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=2000 - index)
    return tournament


def test_registration_owes_the_entry_fee_and_payments_add_up(event: Any,
                                                             organizer: Any) -> None:
    assert event.currency == "KES"
    entrants = {e.name: e for e in event.entrants.all()}
    assert {e.fee_due for e in entrants.values()} == {D("15.50")}
    entrant_fee_update(actor=organizer, entrant=entrants["Amy"], paid="10")
    entrant_fee_update(actor=organizer, entrant=entrants["Bob"], due="0", paid="0")
    totals = fee_totals(event)
    assert (totals.due, totals.paid, totals.outstanding) == (D("31.00"), D(10), D("21.00"))
    assert (totals.entrants, totals.unpaid) == (3, 2)
    assert entrants_paid_in_full(actor=organizer, tournament=event,
                                 entrants=[entrants["Amy"].pk, entrants["Zed"].pk]) == 2
    sheet = fee_sheet(event)
    assert sheet.currency == "KES"
    assert [(row.name, row.due, row.paid, row.outstanding) for row in sheet.rows] == [
        ("Amy", D("15.50"), D("15.50"), D(0)), ("Bob", D(0), D(0), D(0)),
        ("Zed", D("15.50"), D("15.50"), D(0))]
    assert (sheet.totals.due, sheet.totals.paid, sheet.totals.outstanding) == (
        D(31), D(31), D(0))
    lines = [describe(e) for e in TournamentEvent.objects.filter(
        tournament=event, kind=EventKind.FEE_PAID).order_by("id")]
    assert lines[0] == "Amy: entry fee paid 10.00 of 15.50 KES (was 0.00)."
    assert len(lines) == 4


def test_seeds_order_the_sheet_once_started(event: Any, organizer: Any) -> None:
    services.tournament_start(actor=organizer, tournament=event)
    assert [row.name for row in fee_sheet(event).rows] == ["Zed", "Amy", "Bob"]
    assert [row.seed for row in fee_sheet(event).rows] == [1, 2, 3]


@pytest.mark.parametrize("fields", [
    {"paid": -1}, {"paid": "-0.01"}, {"due": "1e9"}, {"paid": "10.005"}, {"paid": "ten"},
    {"paid": "5\x00"}, {"paid": "Infinity"}, {"due": True}, {"paid": "9" * 400},
])
def test_bad_amounts_are_refused_with_nothing_written(event: Any, organizer: Any,
                                                      fields: dict[str, Any]) -> None:
    entrant = event.entrants.first()
    before = TournamentEvent.objects.count()
    with pytest.raises(ApplicationError) as error:
        entrant_fee_update(actor=organizer, entrant=entrant, **fields)
    assert error.value.field in ("fee_due", "fee_paid")
    entrant.refresh_from_db()
    assert (entrant.fee_due, entrant.fee_paid) == (D("15.50"), D(0))
    assert TournamentEvent.objects.count() == before


def test_other_clubs_and_other_tournaments_are_refused(event: Any, organizer: Any,
                                                       club_b: Any) -> None:
    entrant = event.entrants.first()
    with pytest.raises(PermissionDenied):
        entrant_fee_update(actor=club_b.organizers.get(), entrant=entrant, paid=1)
    with pytest.raises(PermissionDenied):
        entrants_paid_in_full(actor=club_b.organizers.get(), tournament=event,
                              entrants=[entrant.pk])
    other = tournament_of(organizer, event.club, people(event.club, ["Elsewhere"]),
                          name="Other cup")
    stranger = other.entrants.get()
    with pytest.raises(ApplicationError):
        entrants_paid_in_full(actor=organizer, tournament=event,
                              entrants=[entrant.pk, stranger.pk])
    with pytest.raises(ApplicationError):
        entrants_paid_in_full(actor=organizer, tournament=event, entrants=[entrant.pk] * 10_001)
    assert set(Entrant.objects.values_list("fee_paid", flat=True)) == {D(0)}
