"""The version triggers of ``tournaments.freshness`` (PostgreSQL): one bump per tournament
and statement, whatever the statement writes and however many rows; nothing for a write
that changes nothing; the tournament's own row moves its version itself, never back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


def _version(tournament: Tournament) -> int:
    return int(Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk))


def _sql(statement: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def test_an_entrant_service_write_bumps_once(organizer: Any,
                                             make_tournament: Callable[..., Any],
                                             play_round: Any) -> None:
    """Once the service called ``tournament_changed`` and the trigger bumped as well."""
    swiss = make_tournament("swiss", entrants=6, rounds_planned=4, tiebreaks=[])
    play_round(swiss)
    before = _version(swiss)
    services.entrant_withdraw(actor=organizer, entrant=swiss.entrants.order_by("seed").last())
    assert _version(swiss) == before + 1


def test_one_statement_bumps_each_tournament_once(organizer: Any,
                                                  make_tournament: Callable[..., Any]) -> None:
    first = make_tournament("round_robin", entrants=6)
    second = make_tournament("round_robin", entrants=4)
    for event in (first, second):
        services.round_pair_next(actor=organizer, tournament=event, release=True)
    before = {event.pk: _version(event) for event in (first, second)}
    assert Pairing.objects.filter(round__tournament=first).count() == 3
    Pairing.objects.filter(round__tournament__in=[first, second]).update(outcome="draw")
    assert {event.pk: _version(event) for event in (first, second)} == \
        {pk: version + 1 for pk, version in before.items()}


def test_a_write_that_changes_nothing_leaves_the_version(
        organizer: Any, make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    services.round_pair_next(actor=organizer, tournament=event, release=True)
    before = _version(event)
    _sql("UPDATE tournaments_pairing SET board = board WHERE round_id IN "
         "(SELECT id FROM tournaments_round WHERE tournament_id = %s)", [event.pk])
    _sql("UPDATE tournaments_tournament SET name = name WHERE id = %s", [event.pk])
    assert _version(event) == before


def test_the_tournament_row_moves_its_own_version_never_back(
        make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    stale = Tournament.objects.get(pk=event.pk)
    _sql("UPDATE tournaments_tournament SET name = 'Renamed' WHERE id = %s", [event.pk])
    renamed = _version(event)
    assert renamed == stale.version + 1
    stale.save()  # an old copy saved back: its version is behind
    assert _version(event) == renamed + 1
