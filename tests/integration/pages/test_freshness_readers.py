"""Right after a write commits, no reader serves the older page or list, even with other
readers busy filling and reading the same caches: readers read a tournament page and the
players list without pause while the test renames a player, in turns through the service
and through raw SQL on a connection of its own (another program). A read that starts
after a rename's commit returned must show that name or a later one. The readers are
threads of this process, each with its own database connection, and then also the
processes of a gunicorn server (two workers, each its own caches) on the same database."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from config import list_cache
from players import services as player_services
from players.models import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
RENAMES = 6
NAME = re.compile(r"Renamed v(\d+)")
#: A reader: the status and body of a GET of a path.
Fetch = Callable[[str], tuple[int, str]]


def _dsn() -> str:
    settings = connection.settings_dict
    return (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
            f"user={settings['USER']} dbname={settings['NAME']}")


def _in_process() -> Fetch:
    client = Client()

    def fetch(path: str) -> tuple[int, str]:
        answer = client.get(path)
        return answer.status_code, answer.content.decode()

    return fetch


def _free_port() -> int:
    """A free port of the range this machine's servers may use."""
    for port in range(18900, 19000):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18900-18999")


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[str]:
    """A gunicorn server of two worker processes on the test database: its base URL."""
    settings = connection.settings_dict
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test",
           "DATABASE_URL": (f"postgres://{settings['USER']}@{settings['HOST']}:"
                            f"{settings['PORT'] or 5432}/{settings['NAME']}")}
    log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=5):  # noqa: S310
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError((tmp_path / "gunicorn.log").read_text()) from None
                time.sleep(0.2)  # polling a starting server: there is no event to await
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _over_http(base: str) -> Fetch:
    def fetch(path: str) -> tuple[int, str]:
        with urllib.request.urlopen(base + path, timeout=30) as answer:  # noqa: S310
            return int(answer.status), answer.read().decode()

    return fetch


def _renames_are_never_read_stale(organizer: Any, make_tournament: Callable[..., Any],
                                  fetchers: list[Fetch]) -> None:
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

    def read(fetch: Fetch) -> None:
        try:
            while not stop.is_set():
                with state:
                    known = committed
                for url in urls:
                    status, body = fetch(url)
                    shown = [int(n) for n in NAME.findall(body)]
                    if status != 200 or not shown or max(shown) < known:
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
        return lambda: reads[number] >= 2 * len(fetchers) or bool(failures)

    readers = [threading.Thread(target=read, args=(fetch,)) for fetch in fetchers]
    for thread in readers:
        thread.start()
    try:
        with psycopg.connect(_dsn(), autocommit=True) as other_program:
            for number in range(1, RENAMES + 1):
                with state:  # every reader has the current answers in the caches
                    assert state.wait_for(read_after(committed), timeout=60)
                name = f"Renamed v{number}"
                if number % 2:
                    player = Player.objects.get(pk=player.pk)
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
    assert all(reads[number] >= 2 * len(fetchers) for number in range(RENAMES + 1))


def test_no_reader_thread_serves_an_answer_from_before_a_committed_write(
        organizer: Any, make_tournament: Callable[..., Any]) -> None:
    _renames_are_never_read_stale(organizer, make_tournament,
                                  [_in_process() for _ in range(3)])


def test_no_server_process_serves_an_answer_from_before_a_committed_write(
        organizer: Any, make_tournament: Callable[..., Any], gunicorn: str) -> None:
    _renames_are_never_read_stale(organizer, make_tournament,
                                  [_over_http(gunicorn) for _ in range(3)] + [_in_process()])
