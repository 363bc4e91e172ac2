"""The pool's check (config/db_pool.py): a quiet idle connection is lent without a round
trip, a connection the server ended is caught and replaced."""

from __future__ import annotations

import socket
import time
from typing import Any

import psycopg
import pytest
from django.db import connection

from config.db_pool import check_connection, socket_has_news


def test_socket_news_is_data_or_a_hang_up() -> None:
    ours, theirs = socket.socketpair()
    try:
        assert not socket_has_news(ours.fileno())
        theirs.send(b"x")
        assert socket_has_news(ours.fileno())
        ours.recv(1)
        assert not socket_has_news(ours.fileno())
        theirs.close()
        assert socket_has_news(ours.fileno())
    finally:
        ours.close()


def _dsn() -> str:
    settings = connection.settings_dict
    return (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
            f"user={settings['USER']} dbname={settings['NAME']}")


def _wait_for_news(conn: psycopg.Connection[Any]) -> None:
    deadline = time.monotonic() + 10
    while not socket_has_news(conn.pgconn.socket) and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
def test_the_check_passes_a_live_connection_and_refuses_an_ended_one() -> None:
    with psycopg.connect(_dsn(), autocommit=True) as victim, \
            psycopg.connect(_dsn(), autocommit=True) as admin:
        check_connection(victim)  # quiet and healthy
        pid = victim.info.backend_pid
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        _wait_for_news(victim)
        with pytest.raises(psycopg.OperationalError):
            check_connection(victim)


@pytest.mark.django_db(transaction=True)
def test_requests_survive_the_server_ending_every_pooled_connection(client: Any) -> None:
    assert getattr(connection, "pool", None) is not None, "the test settings use the pool"
    for _ in range(3):
        assert client.get("/healthz").status_code == 200
    connection.close()  # our own connection goes back to the pool too
    with psycopg.connect(_dsn(), autocommit=True) as admin:
        ended = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    assert ended, "the pool had connections open"
    time.sleep(0.2)  # the termination notices reach the pooled sockets
    for _ in range(5):
        assert client.get("/healthz").json()["database"] == {"ok": True}
