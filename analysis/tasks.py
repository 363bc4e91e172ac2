"""Celery task: a thin wrapper over :func:`analysis.services.game_analysis_run`."""

from __future__ import annotations

from celery import shared_task

from analysis import services


@shared_task(name="analysis.analyse_game", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=3600, time_limit=3700)
def analyse_game_task(analysis_id: int) -> str:
    return services.game_analysis_run(analysis_id)
