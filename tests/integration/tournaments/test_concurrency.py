"""Two organizers pairing at once create one round (threads, two database connections)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection

from config.errors import ApplicationError
from tournaments import services
from tournaments.models import Pairing, Round
from tournaments.systems import RoundRobin


@pytest.mark.django_db(transaction=True)
def test_concurrent_pairing_creates_one_round(make_tournament: Any, organizer: Any,
                                              monkeypatch: Any) -> None:
    tournament = make_tournament("round_robin", entrants=6)
    slow = RoundRobin.plan_round

    def slow_round_robin(*args: Any) -> Any:
        time.sleep(0.3)  # hold the lock long enough for the other thread to queue behind it
        return slow(*args)

    monkeypatch.setattr(RoundRobin, "plan_round", slow_round_robin)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []
    backends: list[int] = []

    def pair() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends.append(cursor.fetchone()[0])
            barrier.wait()
            services.round_pair_next(actor=organizer, tournament=tournament)
            outcomes.append("paired")
        except ApplicationError as error:
            outcomes.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(set(backends)) == 2, "each thread must use its own database connection"
    assert sorted(outcomes)[1] == "paired"
    assert "Round 1 still has 3 missing results" in sorted(outcomes)[0]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Pairing.objects.filter(round__tournament=tournament).count() == 3
