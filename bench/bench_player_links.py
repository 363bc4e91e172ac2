"""What a player's phone costs (issue 35): the queries and wall time of my page
(``/p/<token>/``), its polled live part unchanged (a 304) and changed (200), a link lookup
(hit and miss), and the director's sheet of link cards (a QR code per player), on a
60-player Swiss after 5 rounds with the last round in progress.

Run against a migrated scratch database with the test settings, e.g.
``DJANGO_SETTINGS_MODULE=config.settings_test
DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch .venv/bin/python
bench/bench_player_links.py``. Wall times include waiting for the database server.
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from load_site import build_swiss  # noqa: E402 (this folder)

from playerlinks import selectors, services  # noqa: E402
from playerlinks.lookup import link_from_token, link_token  # noqa: E402
from playerlinks.models import EntrantLink  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

REQUESTS = int(os.environ.get("LINK_REQUESTS", "200"))


def _timed(call: Callable[[], Any], times: int = REQUESTS) -> tuple[int, float]:
    """Queries of one call and the median wall milliseconds of ``times`` calls."""
    call()
    count = [0]

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        call()
    walls = []
    for _ in range(times):
        start = time.perf_counter()
        call()
        walls.append((time.perf_counter() - start) * 1000)
    return count[0], statistics.median(walls)


def main() -> None:
    build_swiss(players=60, rounds=5, slug="bench-links", live=True)
    tournament = Tournament.objects.select_related("club").get(slug="bench-links")
    organizer = tournament.club.organizers.get()
    services.links_issue_missing(actor=organizer, tournament=tournament)
    link = EntrantLink.objects.live().filter(entrant__tournament=tournament).order_by(
        "entrant__seed").first()
    assert link is not None
    token = link_token(link)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    etag = client.get(f"/p/{token}/live/")["ETag"]

    def page() -> None:
        assert client.get(f"/p/{token}/").status_code == 200

    def unchanged() -> None:
        assert client.get(f"/p/{token}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304

    def changed() -> None:
        assert client.get(f"/p/{token}/live/").status_code == 200

    def hit() -> None:
        assert link_from_token(token) is not None

    miss_token = secrets.token_urlsafe(24)[:32]

    def miss() -> None:
        assert link_from_token(miss_token) is None

    def cards() -> None:
        assert len(selectors.link_cards(tournament, "https://club.example")) == 60

    print(f"{'answer':34} {'queries':>8} {'wall ms':>8}")
    for name, call, times in (("my page (200)", page, REQUESTS),
                              ("live part unchanged (304)", unchanged, REQUESTS),
                              ("live part changed (200)", changed, REQUESTS),
                              ("link lookup, hit", hit, REQUESTS),
                              ("link lookup, miss", miss, REQUESTS),
                              ("60 link cards with QR codes", cards, 5)):
        count, wall = _timed(call, times)
        print(f"{name:34} {count:8d} {wall:8.2f}")


if __name__ == "__main__":
    main()
