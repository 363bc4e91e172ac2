"""Celery tasks: thin wrappers around the playerlinks services."""

from __future__ import annotations

from celery import shared_task

from playerlinks import checkins


@shared_task(name="playerlinks.close_due_check_ins")
def close_due_check_ins_task() -> int:
    return len(checkins.check_in_windows_close_due())
