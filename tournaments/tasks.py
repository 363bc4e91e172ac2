"""Celery task: a thin wrapper over :func:`tournaments.services.pairing_jobs.pairing_job_run`.

Acknowledged late: a copy whose worker died goes back to the queue and pairs the round
unless it was saved already.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.services import pairing_jobs


@shared_task(name="tournaments.pair_round", acks_late=True, reject_on_worker_lost=True)
def pair_round_task(job_id: int) -> str:
    return pairing_jobs.pairing_job_run(job_id)
