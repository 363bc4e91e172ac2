"""config.list_cache with committed writes (transactional tests): an anonymous list is kept
under the generations of its tables, read in one query per request, and a write moves a
generation once per transaction as it commits (``tournaments.freshness``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import list_cache
from players.models import Player
from tournaments import freshness

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = ["players_club", "players_player"]


@pytest.fixture(autouse=True)
def empty_store() -> Iterator[None]:
    list_cache.clear()
    yield
    list_cache.clear()


def test_a_kept_list_costs_one_query_until_its_tables_change(
        client: Client, club_a: Any, django_assert_num_queries: Any) -> None:
    Player.objects.create(display_name="First", club=club_a)
    first = client.get("/api/players/")
    assert first.status_code == 200
    with django_assert_num_queries(1):  # the generations
        again = client.get("/api/players/")
    assert again.content == first.content and again["Content-Type"] == "application/json"
    assert "X-Frame-Options" in again and "Content-Security-Policy" in again
    Player.objects.create(display_name="Second", club=club_a)
    names = [row["display_name"] for row in client.get("/api/players/").json()["results"]]
    assert "Second" in names


def test_a_transaction_moves_each_generation_once_as_it_commits(club_a: Any) -> None:
    before = freshness.generations(connection, TABLES)
    assert before is not None
    with transaction.atomic():
        for index in range(3):
            Player.objects.create(display_name=f"P{index}", club=club_a)
        Player.objects.filter(club=club_a).update(fide_id="1")
        assert freshness.generations(connection, TABLES) is None  # its own writes
    after = freshness.generations(connection, TABLES)
    assert after == (before[0], before[1] + 1)


def test_a_reader_that_wrote_is_not_answered_from_memory(client: Client, club_a: Any) -> None:
    client.get("/api/players/")
    with transaction.atomic():
        Player.objects.create(display_name="Uncommitted", club=club_a)
        names = [row["display_name"] for row in client.get("/api/players/").json()["results"]]
        assert "Uncommitted" in names
        transaction.set_rollback(True)
    names = [row["display_name"] for row in client.get("/api/players/").json()["results"]]
    assert "Uncommitted" not in names


def test_credentials_are_never_answered_from_memory(client: Client, organizer: Any) -> None:
    client.get("/api/players/")
    client.force_login(organizer)
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/players/")
    assert len(queries) > 1  # the view ran


def test_every_cached_list_reads_counted_tables(settings: Any) -> None:
    for tables in settings.CACHED_LISTS.values():
        assert set(tables) <= set(freshness.GENERATION_TABLES)
        assert freshness.generations(connection, tables) is not None
