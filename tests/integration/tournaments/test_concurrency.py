"""Two organizers pairing at once create one round (threads, two database connections).

The test holds the tournament's row lock itself until both organizers' transactions are
seen waiting on it in PostgreSQL, then lets go: they are bound to meet at the lock."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from django.db import connection

from core.errors import ApplicationError
from tournaments import services
from tournaments.models import Pairing, Round, Tournament


def _dsn() -> str:
    settings = connection.settings_dict
    return (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
            f"user={settings['USER']} dbname={settings['NAME']}")


def _await_blocked(watcher: psycopg.Connection[Any], backends: list[int]) -> None:
    """Return once every backend waits on a lock another one holds."""
    deadline = time.monotonic() + 30
    query = ("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s) "
             "AND cardinality(pg_blocking_pids(pid)) > 0")
    while watcher.execute(query, [backends]).fetchone() != (len(backends),):
        assert time.monotonic() < deadline, "the organizers never queued behind the lock"
        watcher.execute("SELECT pg_sleep(0.01)")


@pytest.mark.django_db(transaction=True)
def test_concurrent_pairing_creates_one_round(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=6)
    started = threading.Barrier(3)
    outcomes: list[str] = []
    backends: list[int] = []

    def pair() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends.append(cursor.fetchone()[0])
            started.wait()
            services.round_pair_next(actor=organizer, tournament=tournament, release=True)
            outcomes.append("paired")
        except ApplicationError as error:
            outcomes.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    with psycopg.connect(_dsn()) as holder, psycopg.connect(_dsn(), autocommit=True) as watcher:
        holder.execute(f"SELECT 1 FROM {Tournament._meta.db_table} WHERE id = %s FOR UPDATE",
                       [tournament.pk])
        for thread in threads:
            thread.start()
        started.wait()
        _await_blocked(watcher, backends)
        holder.commit()
    for thread in threads:
        thread.join(timeout=30)
    assert len(set(backends)) == 2, "each thread must use its own database connection"
    assert sorted(outcomes)[1] == "paired"
    assert "Round 1 still has 3 missing results" in sorted(outcomes)[0]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Pairing.objects.filter(round__tournament=tournament).count() == 3
