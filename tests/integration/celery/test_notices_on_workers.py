"""A round's notices sent by real Celery workers to a real SMTP server: a worker process
killed while it talks to the mail server does not make anyone get their message twice."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from notices.models import Notice, NoticeStatus
from tests.smtp_server import SmtpServer
from tournaments import services as tournament_services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_killed_worker_does_not_send_twice(
    make_event: Any, organizer: Any, workers: Any, wait_until: Any,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    with SmtpServer() as server:
        inbox = server.inbox
        inbox.hold_seconds = 30.0  # the first message is held: its worker is killed then
        monkeypatch.setenv("EMAIL_HOST", "127.0.0.1")
        monkeypatch.setenv("EMAIL_PORT", str(server.port))
        [worker] = workers.start(1, concurrency=1)
        tournament = make_event(entrants=6)
        for entrant in tournament.entrants.select_related("player"):
            entrant.player.email = f"p{entrant.player.pk}@example.org"
            entrant.player.save(update_fields=["email"])
        tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                            release=True)
        wait_until(lambda: inbox.arrived.is_set(), 60, "the first message", workers.logs)
        [first] = inbox.messages
        inbox.hold_seconds = 0.0
        children = workers.children(worker)
        assert children, workers.logs()
        for pid in children:
            os.kill(pid, signal.SIGKILL)  # mid-send: the server has the message, no 250 yet

        def settled() -> bool:
            statuses = list(Notice.objects.values_list("status", flat=True))
            return len(statuses) == 6 and statuses.count(NoticeStatus.SENT) == 5
        wait_until(settled, 90, "the other five notices", workers.logs)
        time.sleep(3)  # a duplicate would arrive by now (the re-delivered task ran)
        recipients = sorted(r for m in inbox.messages for r in m.recipients)
        assert len(recipients) == 6 and len(set(recipients)) == 6, recipients
        lost = Notice.objects.get(email=first.recipients[0])
        assert lost.status == NoticeStatus.SENDING  # left for the admin, never sent again
        from notices.services import notices_mark_lost

        assert notices_mark_lost(older_than_seconds=0) == 1
        lost.refresh_from_db()
        assert lost.status == NoticeStatus.UNKNOWN
        assert "WorkerLostError" in workers.logs() or "SIGKILL" in workers.logs()
