"""A safe request (GET, HEAD) whose database connection is cut while it runs is answered
by a second try on a fresh connection, not with a 500.

A PostgreSQL restart ends every connection with "terminating connection due to
administrator command"; so does ``pg_terminate_backend``, which here ends the test's own
connection only (the shared server and everyone else's connections carry on). Before: the
request in flight was a 500 (the restart test under load left those out). Writes are not
retried: a POST whose connection is cut is still an error."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from django.test import Client

from players.models import Club, Player

pytestmark = pytest.mark.django_db(transaction=True)


def _cut_own_connection() -> None:
    """End this thread's database connection from another one, as a restart would."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    settings = connection.settings_dict
    dsn = (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
           f"user={settings['USER']} dbname={settings['NAME']}")
    with psycopg.connect(dsn, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                            [pid]).fetchone():
            other.execute("SELECT pg_sleep(0.01)")


@pytest.mark.parametrize("method", ["get", "head"])
def test_a_safe_request_whose_connection_is_cut_is_tried_again(club_a: Club,
                                                               method: str) -> None:
    Player.objects.create(display_name="Ann", club=club_a)
    client = Client(raise_request_exception=False)
    _cut_own_connection()
    answer = getattr(client, method)("/api/players/")
    assert answer.status_code == 200
    if method == "get":
        assert [row["display_name"] for row in answer.json()["results"]] == ["Ann"]


def test_a_write_whose_connection_is_cut_is_not_tried_again(club_a: Club) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(club_a.organizers.get())
    _cut_own_connection()
    answer = client.post("/api/players/", {"display_name": "Bea", "club": club_a.pk},
                         content_type="application/json")
    assert answer.status_code == 500
    connection.close()  # the test's own connection was the one cut
    assert not Player.objects.filter(display_name="Bea").exists()


def test_an_error_of_the_query_itself_is_no_lost_connection() -> None:
    from django.db import OperationalError, transaction

    from core.db_retry import connection_lost

    with pytest.raises(OperationalError) as timed_out, transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = '10ms'")
        cursor.execute("SELECT pg_sleep(1)")
    assert not connection_lost(timed_out.value)
