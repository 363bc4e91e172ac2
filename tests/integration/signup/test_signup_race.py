"""Two people racing for the last place (threads, two database connections): one gets
it, the other is waitlisted; the cap holds.

The test holds the tournament's row lock until both sign-ups are seen waiting on it, as
tests/integration/tournaments/test_concurrency.py does."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from django.db import connection

from signup import services
from signup.models import SignUp
from tournaments.models import Tournament


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
        assert time.monotonic() < deadline, "the sign-ups never queued behind the lock"
        watcher.execute("SELECT pg_sleep(0.01)")


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_for_the_last_place(open_event: Any) -> None:
    tournament = open_event(cap=3)
    for name in ("First", "Second"):
        services.sign_up(tournament=tournament, name=name)
    started = threading.Barrier(3)
    backends: list[int] = []
    errors: list[BaseException] = []

    def sign_up(name: str) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends.append(cursor.fetchone()[0])
            started.wait()
            services.sign_up(tournament=tournament, name=name)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in ("Racer A", "Racer B")]
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
    assert errors == []
    statuses = sorted(SignUp.objects.filter(name__startswith="Racer")
                      .values_list("status", flat=True))
    assert statuses == ["accepted", "waitlisted"]
    assert tournament.entrants.count() == 3
