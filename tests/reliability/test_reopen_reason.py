"""Reopening a finished tournament from the admin's dashboard.

Before: a NUL character in the reason was a 500 after the reopen had committed (the
history entry, written after the service, is where PostgreSQL refused it): the
tournament ran again with no history entry saying why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from games.series.format import MatchScore
from matches.services.results import match_result_record
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_event: Any, organizer: Any) -> Tournament:
    tournament = make_event("round_robin", entrants=2, match_format="single")
    pairing = services.round_pair_next(actor=organizer, tournament=tournament,
                                       release=True).pairings.get()
    match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                        score=MatchScore(1, 0))
    return services.tournament_finish(actor=organizer, tournament=tournament)


def _reopen(organizer: Any, tournament: Tournament, reason: str) -> Any:
    client = Client(raise_request_exception=False)
    client.force_login(organizer)
    return client.post(f"/admin/tournaments/tournament/{tournament.pk}/dashboard/",
                       {"action": "reopen", "reason": reason}, follow=True)


def test_a_nul_in_the_reason_is_refused_and_nothing_changes(organizer: Any,
                                                            finished: Tournament) -> None:
    answer = _reopen(organizer, finished, "board 1\x00 reversed")
    assert answer.status_code == 200
    assert "NUL" in answer.content.decode()
    finished.refresh_from_db()
    assert finished.status == "finished"
    assert not LogEntry.objects.filter(object_id=str(finished.pk)).exists()


def test_a_reopen_is_in_the_history(organizer: Any, finished: Tournament) -> None:
    assert _reopen(organizer, finished, " board 1 reversed ").status_code == 200
    finished.refresh_from_db()
    assert finished.status == "running"
    assert LogEntry.objects.get(object_id=str(finished.pk)).change_message == (
        "Reopened: board 1 reversed")


def test_the_service_refuses_a_nul_before_writing(organizer: Any,
                                                  finished: Tournament) -> None:
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError) as refused:
        services.tournament_reopen(actor=organizer, tournament=finished, reason="a\x00b")
    assert refused.value.field == "reason"
    finished.refresh_from_db()
    assert finished.status == "finished"
