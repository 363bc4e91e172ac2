"""Celery tasks: thin wrappers around the notices services.

Sending is acknowledged late and re-queued if its worker dies; the claim in
``notice_send`` makes a second copy a no-op, so a message is sent at most once (a worker
killed while talking to the mail server leaves its row "being sent" for the admin).
SMTP errors retry with a doubling back-off.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from notices import services


@shared_task(name="notices.notify_round", acks_late=True, reject_on_worker_lost=True)
def notify_round_task(round_id: int) -> int:
    return len(services.notify_round_released(round_id))


@shared_task(name="notices.send", bind=True, acks_late=True, reject_on_worker_lost=True,
             max_retries=None)
def send_notice_task(self: Any, notice_id: int) -> str:
    try:
        return services.notice_send(notice_id)
    except services.SendFailed as error:
        if self.request.retries >= settings.NOTICE_RETRIES:
            services.notice_give_up(notice_id)
            return "gave_up"
        raise self.retry(countdown=settings.NOTICE_RETRY_SECONDS * 2 ** self.request.retries,
                         exc=error) from None


@shared_task(name="notices.mark_lost")
def mark_lost_notices_task() -> int:
    return services.notices_mark_lost(older_than_seconds=settings.NOTICE_LOST_SECONDS)
