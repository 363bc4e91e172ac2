"""Right after a write commits, no reader serves the older page or list, even with other
readers busy filling and reading the same caches: reader threads, each with its own
database connection, read a tournament page and the players list without pause while the
test renames a player, in turns through the service and through raw SQL on a connection
of its own (another program). A read that starts after a rename's commit returned must
show that name or a later one."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from config import list_cache
from players import services as player_services

pytestmark = pytest.mark.django_db(transaction=True)

READERS = 3
RENAMES = 6
NAME = re.compile(r"Renamed v(\d+)")


def _dsn() -> str:
    settings = connection.settings_dict
    return (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
            f"user={settings['USER']} dbname={settings['NAME']}")


def test_no_reader_serves_an_answer_from_before_a_committed_write(
        organizer: Any, make_tournament: Callable[..., Any]) -> None:
    cache.clear()
    list_cache.clear()
    event = make_tournament("round_robin", entrants=4)
    player = event.entrants.select_related("player").order_by("seed").first().player
    player_services.player_update(actor=organizer, player=player, display_name="Renamed v0")
    urls = [f"/tournaments/{event.club.slug}/{event.slug}/", "/api/players/"]

    state = threading.Condition()
    committed = 0  # the last rename whose commit has returned
    reads: Counter[int] = Counter()  # reads started after rename n committed, per n
    stale: list[tuple[str, int, int]] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        client = Client()
        try:
            while not stop.is_set():
                with state:
                    known = committed
                for url in urls:
                    answer = client.get(url)
                    shown = [int(n) for n in NAME.findall(answer.content.decode())]
                    if answer.status_code != 200 or not shown or max(shown) < known:
                        stale.append((url, known, max(shown, default=-1)))
                with state:
                    reads[known] += 1
                    state.notify_all()
        except BaseException as error:  # reported to the test
            failures.append(error)
        finally:
            connection.close()

    def read_after(number: int) -> Callable[[], bool]:
        """Every reader (twice over) has read since rename ``number`` committed."""
        return lambda: reads[number] >= 2 * READERS or bool(failures)

    readers = [threading.Thread(target=read) for _ in range(READERS)]
    for thread in readers:
        thread.start()
    try:
        with psycopg.connect(_dsn(), autocommit=True) as other_program:
            for number in range(1, RENAMES + 1):
                with state:  # every reader has the current answers in the caches
                    assert state.wait_for(read_after(committed), timeout=60)
                name = f"Renamed v{number}"
                if number % 2:
                    player.refresh_from_db()
                    player_services.player_update(actor=organizer, player=player,
                                                  display_name=name)
                else:
                    other_program.execute(
                        "UPDATE players_player SET display_name = %s WHERE id = %s",
                        [name, player.pk])
                with state:
                    committed = number
            with state:
                assert state.wait_for(read_after(RENAMES), timeout=60)
    finally:
        stop.set()
        for thread in readers:
            thread.join(timeout=60)
    assert not failures, failures
    assert not stale, stale[:5]
    assert all(reads[number] >= 2 * READERS for number in range(RENAMES + 1))
