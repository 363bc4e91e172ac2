"""Celery tasks: thin wrappers around the leagues services."""

from __future__ import annotations

from celery import shared_task

from leagues import services


@shared_task(name="leagues.lineup_reminders")
def lineup_reminders_task() -> int:
    return services.lineup_reminders_send()
