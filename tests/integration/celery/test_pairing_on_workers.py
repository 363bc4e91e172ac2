"""A Swiss round paired by a real Celery worker from the admin's request."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import PairingJob
from tournaments.services.pairing_jobs import pairing_job_request

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_worker_pairs_the_round_of_a_queued_job(make_event: Any, organizer: Any,
                                                  workers: Any, wait_until: Any) -> None:
    workers.start(1, concurrency=1)
    tournament = make_event("swiss", entrants=12, rounds_planned=4)
    job = pairing_job_request(actor=organizer, tournament=tournament)
    assert job.status == "queued"

    def finished() -> PairingJob | None:
        job.refresh_from_db()
        return job if job.status in ("done", "failed") else None

    wait_until(finished, 60, "the pairing job", workers.logs)
    assert (job.status, job.error) == ("done", ""), workers.logs()
    assert job.started_at is not None and job.finished_at is not None
    assert tournament.rounds.get(number=1).pairings.count() == 6
