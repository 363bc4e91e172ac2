"""The anonymous list cache (``config/list_cache.py``) keeps one answer per host.

Before: the key was the path, query, ``Accept`` and language only, so the absolute
``next``/``previous`` links of the first answer (built from its ``Host`` header, a name
and port the client chose) were served to every later client of that list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings

from config import list_cache
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hosts() -> Iterator[None]:
    with override_settings(ALLOWED_HOSTS=["localhost", "127.0.0.1", "club.example.org"]):
        list_cache.clear()
        yield
    list_cache.clear()


def test_each_host_gets_its_own_links(hosts: None, club_a: Any) -> None:
    Player.objects.bulk_create(Player(display_name=f"P{i:03}", club=club_a) for i in range(60))
    client = Client()
    chosen = client.get("/api/players/", headers={"host": "localhost:18555"})
    assert chosen.json()["next"].startswith("http://localhost:18555/")
    again = client.get("/api/players/", headers={"host": "localhost:18555"})
    assert again.content == chosen.content  # still kept for that host
    other = client.get("/api/players/", headers={"host": "club.example.org"})
    assert other.json()["next"].startswith("http://club.example.org/api/players/?page=2")
    secure = client.get("/api/players/", headers={"host": "club.example.org"}, secure=True)
    assert secure.json()["next"].startswith("https://club.example.org/")
