"""Players' reports under load: 200 phones polling every 5 s while 60 reports a minute
arrive, on gunicorn (2 sync workers) over PostgreSQL, on loopback.

The data: a 200-player Swiss (single games) built through the services, round 1 released,
a private link per player. Each of the 200 phones is a thread that opens its page every
``REPORTS_POLL`` (5) seconds, a new connection each time (as a phone on a venue's Wi-Fi
would): as my page's script does, it asks for the page's live part
(``/p/<token>/live/``) with the ETag it holds (a 304 while nothing changed).
Meanwhile ``REPORTS_PER_MINUTE`` (60) reports arrive, evenly spaced,
each one a phone's GET of its form (for the CSRF token) and then its POST; most boards'
two sides agree, one in ten disagree. ``REPORTS_SECONDS`` (90) of load after a warm-up of
10 s. Printed: p50/p95/p99 and count of each kind of request (my page's poll, the report
page a reporting phone opens, the report's POST), the failures, and the workers' CPU
time per request. The cache is Redis (``REPORTS_CACHE_URL``), as in production, so both
workers share the submission budgets.

Needs PostgreSQL and Redis (``make services``). Creates and drops the database
``BENCH_REPORTS_DATABASE`` (``bench_reports``); ``BENCH_REPORTS_KEEP=1`` keeps it.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling, as mypy names it

from bench_load import (  # noqa: E402
    cpu_seconds,
    psql_admin,
    psql_admin_create,
    start_server,
    stop_server,
    worker_pids,
)

ROOT = Path(__file__).resolve().parents[1]
DATABASE = os.environ.get("BENCH_REPORTS_DATABASE", "bench_reports")
CACHE = os.environ.get("REPORTS_CACHE_URL", "redis://127.0.0.1:6379/3")
BROKER = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/3")
PHONES = int(os.environ.get("REPORTS_PHONES", "200"))
POLL = float(os.environ.get("REPORTS_POLL", "5"))
PER_MINUTE = float(os.environ.get("REPORTS_PER_MINUTE", "60"))
SECONDS = float(os.environ.get("REPORTS_SECONDS", "90"))
WARM_UP = 10.0
KEEP = os.environ.get("BENCH_REPORTS_KEEP", "") not in ("", "0")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def build(players: int = PHONES) -> str:
    """The event (run inside ``manage.py shell``): JSON of the round page's path and, per
    phone, its token, its board's pairing id and its side."""
    from django.contrib.auth import get_user_model

    from playerlinks import services as links
    from playerlinks.models import EntrantLink
    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user(
        f"bench-reports-{secrets.token_hex(4)}", is_staff=True)
    club = Club.objects.create(name=f"Bench reports {secrets.token_hex(3)}",
                               slug=f"bench-reports-{secrets.token_hex(3)}")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Reports night", game="kugamai", format="swiss",
        match_format="single", rounds_planned=5, release_pairings_at_once=True)
    people = Player.objects.bulk_create(
        Player(display_name=f"Phone {index + 1:03d}", club=club) for index in range(players))
    for index, player in enumerate(people):
        services.entrant_register(actor=user, tournament=tournament, player=player,
                                  rating=2000 - index)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    links.links_issue_missing(actor=user, tournament=tournament)
    sides = {}
    for pairing in round_.pairings.all():
        sides[pairing.entrant_a_id] = (pairing.pk, 0, pairing.entrant_b_id is None)
        if pairing.entrant_b_id is not None:
            sides[pairing.entrant_b_id] = (pairing.pk, 1, False)
    phones = []
    for link in EntrantLink.objects.filter(entrant__tournament=tournament):
        pairing_id, side, bye = sides[link.entrant_id]
        phones.append({"token": links.link_token(link), "pairing": pairing_id, "side": side,
                       "bye": bye})
    return json.dumps({"round": f"/tournaments/{club.slug}/{tournament.slug}/rounds/1/",
                       "phones": phones})


def environment(static_root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("BENCH_REPORTS_SECRET", secrets.token_urlsafe(50)),
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": BROKER,
        "CACHE_URL": CACHE,
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            check=True, capture_output=True, text=True, timeout=1800)
    return result.stdout


class Load:
    def __init__(self, base: str) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.origin = base
        self.times: dict[str, list[float]] = {"my page poll": [], "report page": [],
                                              "report POST": []}
        self.failures: dict[str, int] = {key: 0 for key in self.times}
        self.lock = threading.Lock()
        self.measuring = False
        self.stop = threading.Event()

    def request(self, kind: str, method: str, path: str, body: str = "",
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body or None, headers=headers or {})
            answer = connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
            status, head = answer.status, {k.lower(): v for k, v in answer.getheaders()}
        except OSError:
            status, head, text = 0, {}, ""
        finally:
            connection.close()
        elapsed = time.perf_counter() - started
        expected = (302,) if method == "POST" else (200, 304)
        if self.measuring:
            with self.lock:
                self.times[kind].append(elapsed)
                if status not in expected:
                    self.failures[kind] += 1
        return status, head, text

    def phone(self, number: int, token: str, round_path: str) -> None:
        time.sleep(random.uniform(0, POLL))  # phones do not poll in step
        etag = ""
        while not self.stop.is_set():
            began = time.monotonic()
            # what my page's script does: its live part, asked with the ETag it holds
            _status, head, _text = self.request(
                "my page poll", "GET", f"/p/{token}/live/",
                headers={"If-None-Match": etag} if etag else None)
            etag = head.get("etag", etag)
            self.stop.wait(max(0.0, POLL - (time.monotonic() - began)))

    def report(self, phone: dict[str, Any], wins_a: int, wins_b: int) -> None:
        path = f"/p/{phone['token']}/report/"
        _status, head, text = self.request("report page", "GET", path)
        found = CSRF.search(text)
        cookie = re.search(r"csrftoken=([^;]+)", head.get("set-cookie", ""))
        if found is None or cookie is None:
            with self.lock:
                self.failures["report POST"] += 1
            return
        body = urllib.parse.urlencode({
            "csrfmiddlewaretoken": found.group(1), "pairing": phone["pairing"],
            "kind": "score", "wins_a": wins_a, "wins_b": wins_b})
        self.request("report POST", "POST", path, body, {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie.group(1)}", "Origin": self.origin})

    def reporters(self, phones: list[dict[str, Any]]) -> None:
        queue = [p for p in phones if not p["bye"]]
        random.shuffle(queue)
        interval = 60.0 / PER_MINUTE
        verdicts: dict[int, tuple[int, int]] = {}
        next_at = time.monotonic()
        for phone in queue:
            if self.stop.is_set():
                return
            self.stop.wait(max(0.0, next_at - time.monotonic()))
            next_at += interval
            agreed = verdicts.setdefault(phone["pairing"], random.choice([(1, 0), (0, 1)]))
            claim = agreed if random.random() > 0.1 else (agreed[1], agreed[0])
            threading.Thread(target=self.report, args=(phone, *claim), daemon=True).start()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    env = environment(work / "static")
    if not KEEP:
        psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql_admin_create(DATABASE)
    subprocess.run([sys.executable, "-c", f"import redis; redis.Redis.from_url({CACHE!r})"
                    ".flushdb()"], check=False)
    server = None
    try:
        print("migrating, collecting static files, building a 200-player Swiss ...",
              flush=True)
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "collectstatic", "--noinput", "-v0")
        data = json.loads(manage(env, "shell", "-c", "from bench.bench_reports import build; "
                                 "print(build())").strip().splitlines()[-1])
        server, base = start_server(env, work / "gunicorn.log")
        pids = worker_pids(server.pid)
        load = Load(base)
        phones = data["phones"]
        threads = [threading.Thread(target=load.phone, args=(n, p["token"], data["round"]),
                                    daemon=True) for n, p in enumerate(phones)]
        for thread in threads:
            thread.start()
        print(f"gunicorn 2 sync workers on {base}; {len(phones)} phones polling every "
              f"{POLL:g} s, {PER_MINUTE:g} reports a minute; warm-up {WARM_UP:g} s, then "
              f"{SECONDS:g} s measured; load average {os.getloadavg()[0]:.1f}", flush=True)
        time.sleep(WARM_UP)
        load.measuring = True
        cpu_before = cpu_seconds(pids)
        client_before = time.process_time()
        reporter = threading.Thread(target=load.reporters, args=(phones,), daemon=True)
        reporter.start()
        time.sleep(SECONDS)
        load.measuring = False
        cpu = cpu_seconds(pids) - cpu_before
        client_cpu = time.process_time() - client_before
        load.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        total = sum(len(v) for v in load.times.values())
        print(f"{'request':<14} {'count':>6} {'per s':>6} {'p50 ms':>7} {'p95 ms':>7} "
              f"{'p99 ms':>7} {'failed':>6}")
        for kind, values in load.times.items():
            if not values:
                continue
            print(f"{kind:<14} {len(values):>6} {len(values) / SECONDS:>6.1f} "
                  f"{statistics.median(values) * 1000:>7.0f} {percentile(values, .95):>7.0f} "
                  f"{percentile(values, .99):>7.0f} {load.failures[kind]:>6}")
        print(f"workers' CPU: {cpu:.1f} s for {total} requests ({cpu / max(total, 1) * 1000:.1f}"
              f" ms a request); this client's CPU {client_cpu:.1f} s; load average after "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(manage(env, "shell", "-c", "from reporting.models import ResultReport; "
                     "from tournaments.models import Pairing; "
                     "print('reports stored:', ResultReport.objects.count(), "
                     "'; boards recorded:', Pairing.objects.exclude(outcome='pending').count())"
                     ).strip())
    finally:
        if server is not None:
            stop_server(server)
        if not KEEP:
            psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


if __name__ == "__main__":
    main()
