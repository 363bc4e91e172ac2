"""What freshness costs a cached answer (``tournaments.freshness``): the queries and the
wall time per request of a cached tournament page, its polled results part (a 304) and the
anonymous ``/api/players/`` list, in process (Django's test client, no server), against
the same answers kept in memory with no database check at all (what a LISTEN/NOTIFY
listener gave, at the price of serving the older answer until its notification came).

Run against a migrated scratch database (it builds a 60-player, 5-round Swiss there unless
it exists) with the test settings (DEBUG off, plain static files), e.g.
``DJANGO_SETTINGS_MODULE=config.settings_test
DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch .venv/bin/python
bench/bench_freshness.py``. Wall times include waiting for the database server; the CPU
column is this process's only.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from load_site import build_swiss  # noqa: E402 (this folder)

from pages import selectors  # noqa: E402
from tournaments import freshness  # noqa: E402

REQUESTS = int(os.environ.get("FRESH_REQUESTS", "500"))


def _per_request(client: Client, url: str, **headers: Any) -> tuple[int, float, float]:
    """Queries of one request; the median wall milliseconds of ``REQUESTS`` requests and
    their mean CPU milliseconds in this process (the database server's not counted)."""
    client.get(url, **headers)  # kept
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, **headers)
    assert answer.status_code in (200, 304), (url, answer.status_code)
    count = len(queries)  # now: the next request resets the connection's query log
    times = []
    cpu = time.process_time()
    for _ in range(REQUESTS):
        started = time.perf_counter()
        client.get(url, **headers)
        times.append(time.perf_counter() - started)
    cpu = time.process_time() - cpu
    return count, 1000 * statistics.median(times), 1000 * cpu / REQUESTS


@contextmanager
def _no_database_check() -> Iterator[None]:
    """The page state and the list generations kept in memory after the first read."""
    states: dict[tuple[str, str], Any] = {}
    original_state: Callable[..., Any] = selectors.page_state
    original_generations: Callable[..., Any] = freshness.generations
    kept_generations: dict[tuple[str, ...], Any] = {}

    def kept_state(club: str, slug: str) -> Any:
        if (club, slug) not in states:
            states[(club, slug)] = original_state(club, slug)
        return states[(club, slug)]

    def kept(conn: Any, tables: Any) -> Any:
        key = tuple(tables)
        if key not in kept_generations:
            kept_generations[key] = original_generations(conn, tables)
        return kept_generations[key]

    selectors.page_state = kept_state  # type: ignore[assignment]
    freshness.generations = kept  # type: ignore[assignment]
    try:
        yield
    finally:
        selectors.page_state = original_state  # type: ignore[assignment]
        freshness.generations = original_generations  # type: ignore[assignment]


def main() -> None:
    path = build_swiss(players=60, rounds=5, slug="bench-freshness")
    client = Client(HTTP_HOST="127.0.0.1")
    etag = client.get(path + "results/")["ETag"]
    cases = [("tournament page (cached)", path, {}),
             ("results part poll (304)", path + "results/", {"HTTP_IF_NONE_MATCH": etag}),
             ("/api/players/ (kept)", "/api/players/", {})]
    print(f"{'answer':28} {'queries':>8} {'wall ms':>8} {'CPU ms':>7} | "
          f"{'no check: queries':>17} {'wall ms':>8} {'CPU ms':>7}")
    for name, url, headers in cases:
        checked = _per_request(client, url, **headers)
        with _no_database_check():
            unchecked = _per_request(client, url, **headers)
        print(f"{name:28} {checked[0]:8d} {checked[1]:8.3f} {checked[2]:7.3f} | "
              f"{unchecked[0]:17d} {unchecked[1]:8.3f} {unchecked[2]:7.3f}")


if __name__ == "__main__":
    main()
