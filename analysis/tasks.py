"""Celery task: a thin wrapper over :func:`analysis.services.game_analysis_run`.

Routed to the ``analysis`` queue (``CELERY_TASK_ROUTES``). An analysis whose club already
runs its share waits: the task asks again after ``ANALYSIS_WAIT_SECONDS`` instead of
holding a worker process.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from analysis import services

#: Celery's limits over the per-game cap, which ends the analysis itself in time.
SOFT_LIMIT = settings.ANALYSIS_GAME_SECONDS + services.TASK_GRACE_SECONDS
HARD_LIMIT = SOFT_LIMIT + 30


@shared_task(name="analysis.analyse_game", bind=True, acks_late=True,
             reject_on_worker_lost=True, max_retries=None, soft_time_limit=SOFT_LIMIT,
             time_limit=HARD_LIMIT)
def analyse_game_task(self: Any, analysis_id: int) -> str:
    status = services.game_analysis_run(analysis_id)
    if status == "waiting" and not self.request.is_eager:  # eager: it would ask at once
        raise self.retry(countdown=settings.ANALYSIS_WAIT_SECONDS)
    return status
