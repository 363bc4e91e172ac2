"""Load on loopback: gunicorn (2 sync workers) on 127.0.0.1 against a scratch PostgreSQL
database, and wrk.

The data: the demo (``load_demo``) and a 200-player, 9-round Swiss built through the
services (``bench/load_site.py``). The server runs the service's settings with one more
URL, ``/bench/minimal``: a Django view returning a fixed JSON body through the same
middleware, the floor every other URL is compared with.

First, the **page weight** of a results night: a second Swiss of the same size whose round 9
is half entered; each tab of its pages (the overview with the standings and the round in
play, the results part the open page polls, the round's tab, the round-by-round tab) with
its raw and gzipped bytes and the CPU time of the first answer after a result is entered
through the service (``bench.load_site.page_weights``).

Every request says ``Accept-Encoding: gzip``, as browsers do. Two phases against the same
server:

* **alone**: each URL by itself, ``LOAD_CONNECTIONS`` (4) connections for
  ``LOAD_SECONDS`` (5) seconds, the URLs in turn, ``LOAD_ROUNDS`` (2) rounds; the median
  round is shown. Requests/s, p50 and p95, the gunicorn workers' CPU time per request
  (steadier than requests/s when other work shares the machine) and each URL's ratio to
  the minimal view, by requests/s and by CPU time.
* **mixed**: every URL at once, 2 connections each, ``LOAD_SECONDS`` x 2. Sync workers
  take the queued connections in turn, so under this closed-loop load all URLs get about
  the same requests/s whatever their cost: the total is the figure to read.

Then the **analysis flood**, against a server of its own configured as production is:
the cache in Redis (``BENCH_LOAD_CACHE_URL``, emptied first), shared by the workers as the
analysis budgets need, and ``NUM_PROXIES=1``. The Swiss standings page,
``LOAD_CONNECTIONS`` connections for ``LOAD_SECONDS``, quiet and then while
``POST /api/analysis/`` comes from ``LOAD_FLOOD_ADDRESSES`` (4) client addresses
(``X-Forwarded-For``), ``LOAD_FLOOD_CONNECTIONS`` (2) at a time from each, each address
sending ``LOAD_FLOOD_RATE`` (5) requests a second, five times what ``ANALYSIS_THROTTLE``
lets through, refused or not (0: each connection sends again as soon as it is answered):
a Kazambi 12x12 opening at the most iterations, every request with a seed of its own, so
no kept answer helps; new addresses in each of ``LOAD_FLOOD_ROUNDS`` (6) rounds, short
and in turn so that the other work of a shared machine weighs on both sides alike. Each
round's p99s, the median ones and their ratio, the analyses answered and refused, and the
workers' CPU time over the flood (:class:`Flood`). ``BENCH_LOAD_PHASES``
(``weight,alone,mixed,flood``) picks the phases.

Needs PostgreSQL and Redis (``make services``) and wrk (``apt-get install wrk``). Creates
and drops the database ``BENCH_LOAD_DATABASE`` (``bench_load``); ``BENCH_LOAD_KEEP=1`` keeps
it for the next run.
"""

from __future__ import annotations

import collections
import http.client
import itertools
import json
import math
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATABASE = os.environ.get("BENCH_LOAD_DATABASE", "bench_load")
BROKER = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/12")
SECONDS = int(os.environ.get("LOAD_SECONDS", "5"))
CONNECTIONS = int(os.environ.get("LOAD_CONNECTIONS", "4"))
ROUNDS = int(os.environ.get("LOAD_ROUNDS", "2"))
# Keep the database between runs (building the Swiss takes a while): migrate and reuse.
KEEP = os.environ.get("BENCH_LOAD_KEEP", "") not in ("", "0")
WORKERS = 2
TICK = os.sysconf("SC_CLK_TCK")
PHASES = set(os.environ.get("BENCH_LOAD_PHASES", "weight,alone,mixed,flood").split(","))
FLOOD_CACHE = os.environ.get("BENCH_LOAD_CACHE_URL", "redis://127.0.0.1:6379/13")
FLOOD_ADDRESSES = int(os.environ.get("LOAD_FLOOD_ADDRESSES", "4"))
FLOOD_CONNECTIONS = int(os.environ.get("LOAD_FLOOD_CONNECTIONS", "2"))
FLOOD_RATE = float(os.environ.get("LOAD_FLOOD_RATE", "5"))
FLOOD_ROUNDS = int(os.environ.get("LOAD_FLOOD_ROUNDS", "6"))
#: The flood starts this long before the measurement and ends this long after it.
FLOOD_MARGIN = 2
# wrk reports percentiles through a Lua hook; it prints them after its own summary.
REPORT_LUA = """
done = function(summary, latency, requests)
  io.write(string.format("P50_US=%d\\nP95_US=%d\\nP99_US=%d\\nREQUESTS=%d\\nNON2XX=%d\\n"
    .. "ERRORS=%d\\n", latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout))
end
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def psql_admin(statement: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as connection:
        connection.execute(statement)


def psql_admin_create(name: str) -> bool:
    """Create the database unless it exists; whether it was created."""
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              [name]).fetchone() is not None:
            return False
        connection.execute(f"CREATE DATABASE {name}")
        return True


def server_environment(static_root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.load_settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": BROKER,
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
    }


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            check=True, capture_output=True, text=True, timeout=1800)
    return result.stdout


def build_swiss(env: dict[str, str], live: bool = False) -> str:
    code = ("from bench.load_site import build_swiss; "
            f"print(build_swiss(slug={'bench-swiss-live' if live else 'bench-swiss'!r}, "
            f"live={live}))")
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def page_weights(env: dict[str, str], path: str) -> list[dict[str, Any]]:
    """The live Swiss's tabs: bytes raw and gzipped, CPU of the first answer after a result
    (``bench.load_site.page_weights``, in a process of its own; each request reads the
    tournament's version)."""
    code = ("import json; from bench.load_site import page_weights; "
            f"print(json.dumps(page_weights({path!r})))")
    rows: list[dict[str, Any]] = json.loads(
        manage(env, "shell", "-c", code).strip().splitlines()[-1])
    return rows


def wait_until_up(base: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:  # noqa: S310
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server at {base} did not come up in {timeout} s")


def worker_pids(master: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the processes so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def parse(output: str) -> dict[str, float]:
    values = dict(re.findall(r"^([A-Z0-9_]+)=(\d+)$", output, re.M))
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    return {"rps": float(rate.group(1)) if rate else 0.0,
            **{key: float(value) for key, value in values.items()}}


def wrk_command(wrk: str, script: Path, url: str, connections: int, seconds: int) -> list[str]:
    return [wrk, "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
            "-H", "Accept-Encoding: gzip", "-s", str(script), url]


def check_answers(results: dict[str, dict[str, float]], log: Path) -> None:
    bad = {name: f for name, f in results.items() if f.get("NON2XX") or f.get("ERRORS")}
    if bad:
        raise SystemExit(f"failed answers: {bad}\n{log.read_text()}")


def alone(wrk: str, script: Path, base: str, urls: dict[str, str],
          workers: list[int]) -> dict[str, dict[str, float]]:
    """Each URL by itself, in turn, ``ROUNDS`` times: the median round's figures."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in urls}
    for _ in range(ROUNDS):
        for name, path in urls.items():
            before = cpu_seconds(workers)
            out = subprocess.run(wrk_command(wrk, script, base + path, CONNECTIONS, SECONDS),
                                 capture_output=True, text=True, timeout=SECONDS + 60).stdout
            figures = parse(out)
            figures["cpu_ms"] = (1000 * (cpu_seconds(workers) - before)
                                 / max(figures.get("REQUESTS", 0), 1))
            runs[name].append(figures)
    chosen = {}
    for name, each in runs.items():
        ordered = sorted(each, key=lambda f: f["rps"])
        median = dict(ordered[len(ordered) // 2])
        median["cpu_ms"] = statistics.median(f["cpu_ms"] for f in each)
        median["NON2XX"] = sum(f.get("NON2XX", 0) for f in each)
        median["ERRORS"] = sum(f.get("ERRORS", 0) for f in each)
        chosen[name] = median
    return chosen


def mixed(wrk: str, script: Path, base: str,
          urls: dict[str, str]) -> dict[str, dict[str, float]]:
    runs = {
        name: subprocess.Popen(wrk_command(wrk, script, base + path, 2, 2 * SECONDS),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for name, path in urls.items()
    }
    return {name: parse(run.communicate(timeout=2 * SECONDS + 60)[0])
            for name, run in runs.items()}


def start_server(env: dict[str, str], log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn with ``WORKERS`` sync workers on a free port; the process and its URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(log_path, "wb")  # noqa: SIM115 (the server's output; closed with it)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    log.close()
    wait_until_up(base)
    return server, base


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    server.wait(timeout=30)


def flood_body(env: dict[str, str]) -> str:
    """The flood's request body but its seed: a Kazambi 12x12 opening at the most
    iterations, ending in ``"seed": ``."""
    code = ("import json; from analysis.services import MAX_POSITION_ITERATIONS as most; "
            "from games.engines import get_engine; engine = get_engine('kazambi'); "
            "state = engine.to_dict(engine.new_game(seed=1, rows=12, cols=12)); "
            "print(json.dumps({'state': state, 'iterations': most}))")
    body = manage(env, "shell", "-c", code).strip().splitlines()[-1]
    return body[:-1] + ', "seed": '


class Flood:
    """``POST /api/analysis/`` from ``FLOOD_ADDRESSES`` client addresses (``X-Forwarded-For``
    behind ``NUM_PROXIES=1``; new ones in each ``network``, as an attacker with many would
    use), ``FLOOD_CONNECTIONS`` at a time from each, every request with a seed of its own;
    each address sends ``FLOOD_RATE`` requests a second, or as fast as it is answered when
    that is slower (or when the rate is 0), refused or not.

    A connection is opened when its request is ready, as a client does: a sync worker
    that accepted a connection waits for its request, so a connection opened early and
    written late (wrk's ``delay()``) would hold a worker by itself."""

    def __init__(self, base: str, head: str, seconds: float, network: int) -> None:
        address = urllib.parse.urlsplit(base)
        self.host, self.port = str(address.hostname), int(address.port or 80)
        self.head, self.deadline = head, time.monotonic() + seconds
        self.seeds = itertools.count(secrets.randbelow(10**12) * 10**6)
        self.counts: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()
        interval = FLOOD_CONNECTIONS / FLOOD_RATE if FLOOD_RATE > 0 else 0.0
        self.threads = [
            threading.Thread(target=self.send, args=(f"10.{network}.0.{number + 1}", interval,
                                                     connection * interval / FLOOD_CONNECTIONS))
            for number in range(FLOOD_ADDRESSES) for connection in range(FLOOD_CONNECTIONS)
        ]
        for thread in self.threads:
            thread.start()

    def send(self, address: str, interval: float, offset: float) -> None:
        due = time.monotonic() + offset
        while True:
            time.sleep(max(0.0, due - time.monotonic()))
            if time.monotonic() >= self.deadline:
                return
            body = f"{self.head}{next(self.seeds)}}}"
            connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                connection.request("POST", "/api/analysis/", body=body, headers={
                    "Content-Type": "application/json", "X-Forwarded-For": address})
                status = connection.getresponse().status
                outcome = {200: "answered", 429: "refused"}.get(status, f"HTTP {status}")
            except OSError as error:
                outcome = type(error).__name__
            finally:
                connection.close()
            with self.lock:
                self.counts[outcome] += 1
            due = max(due + interval, time.monotonic() if interval else 0.0)

    def join(self) -> collections.Counter[str]:
        for thread in self.threads:
            thread.join()
        return self.counts


def p99_ms(figures: dict[str, float]) -> float:
    """The p99 in ms; infinite when no request was answered at all (each one waited
    longer than the run, which wrk then counts neither as answered nor as timed out)."""
    return figures["P99_US"] / 1000 if figures.get("REQUESTS") else math.inf


def flood(wrk: str, work: Path, env: dict[str, str], standings: str) -> None:
    """The standings page's p99 quiet and under the analysis flood, ``FLOOD_ROUNDS`` times."""
    flood_env = {**env, "NUM_PROXIES": "1", "CACHE_URL": FLOOD_CACHE}
    manage(flood_env, "shell", "-c", "from django.core.cache import cache; cache.clear()")
    head = flood_body(flood_env)
    log_path = work / "gunicorn-flood.log"
    server, base = start_server(flood_env, log_path)
    try:
        for _ in range(8):  # warm up each worker's caches and pool
            urllib.request.urlopen(base + standings, timeout=60).read()  # noqa: S310
        workers = worker_pids(server.pid)
        report = work / "report.lua"
        seconds = SECONDS
        load_before = os.getloadavg()[0]
        rate = f"{FLOOD_RATE:g} requests/s each" if FLOOD_RATE > 0 else "no pause"
        print(f"\nanalysis flood: the Swiss standings page, {CONNECTIONS} connections, "
              f"{seconds} s, quiet, then while POST /api/analysis/ (a Kazambi 12x12 opening "
              f"at the most iterations, a new seed each) comes from {FLOOD_ADDRESSES} "
              f"addresses, {FLOOD_CONNECTIONS} connections and {rate}; Redis cache, "
              f"NUM_PROXIES=1; load average {load_before:.1f}", flush=True)
        print(f"{'round':<6} {'quiet req/s':>11} {'p99 ms':>7} {'flood req/s':>11} "
              f"{'p99 ms':>7} {'ratio':>6} {'answered':>9} {'refused':>8} {'other':>6} "
              f"{'worker CPU s':>13}")
        quiet_p99, flood_p99 = [], []
        for number in range(1, FLOOD_ROUNDS + 1):
            quiet = parse(subprocess.run(
                wrk_command(wrk, report, base + standings, CONNECTIONS, seconds),
                capture_output=True, text=True, timeout=seconds + 60).stdout)
            cpu_before = cpu_seconds(workers)
            attack = Flood(base, head, seconds + 2 * FLOOD_MARGIN, number)
            time.sleep(FLOOD_MARGIN)
            loaded = parse(subprocess.run(
                wrk_command(wrk, report, base + standings, CONNECTIONS, seconds),
                capture_output=True, text=True, timeout=seconds + 60).stdout)
            counts = attack.join()
            cpu = cpu_seconds(workers) - cpu_before
            quiet_p99.append(p99_ms(quiet))
            flood_p99.append(p99_ms(loaded))
            other = sum(counts.values()) - counts["answered"] - counts["refused"]
            print(f"{number:<6} {quiet['rps']:>11.1f} {quiet_p99[-1]:>7.1f} "
                  f"{loaded['rps']:>11.1f} {flood_p99[-1]:>7.1f} "
                  f"{flood_p99[-1] / max(quiet_p99[-1], 0.001):>6.2f} "
                  f"{counts['answered']:>9} {counts['refused']:>8} {other:>6} "
                  f"{cpu:>13.1f}", flush=True)
            if other:
                print(f"       other answers to the flood: {dict(counts)}")
            if loaded.get("NON2XX") or loaded.get("ERRORS") or not loaded.get("REQUESTS"):
                print(f"       the standings under the flood: {loaded.get('REQUESTS', 0):.0f} "
                      f"answered, {loaded.get('NON2XX', 0):.0f} not 2xx, "
                      f"{loaded.get('ERRORS', 0):.0f} errors and time-outs")
            check_answers({"quiet": quiet}, log_path)
        quiet_median, flood_median = statistics.median(quiet_p99), statistics.median(flood_p99)
        print(f"median p99: quiet {quiet_median:.1f} ms, under the flood {flood_median:.1f} ms, "
              f"ratio {flood_median / max(quiet_median, 0.001):.2f}; load average "
              f"{os.getloadavg()[0]:.1f} (was {load_before:.1f})")
    finally:
        stop_server(server)


def steady(wrk: str, script: Path, work: Path, env: dict[str, str], swiss: str) -> None:
    """The alone and mixed phases."""
    log_path = work / "gunicorn.log"
    server, base = start_server(env, log_path)
    try:
        urls = {
            "minimal view": "/bench/minimal",
            "Swiss standings page": swiss,
            "API tournaments": "/api/tournaments/",
            "API players": "/api/players/",
            "healthz": "/healthz",
        }
        for path in urls.values():  # warm up each worker's caches and pool
            for _ in range(4):
                urllib.request.urlopen(base + path, timeout=60).read()  # noqa: S310
        workers = worker_pids(server.pid)
        assert len(workers) == WORKERS, workers
        load_before = os.getloadavg()[0]
        print(f"gunicorn {WORKERS} sync workers on {base}; load average {load_before:.1f} "
              f"on {os.cpu_count()} cores", flush=True)
        if "alone" in PHASES:
            print(f"\nalone: each URL by itself, {CONNECTIONS} connections, {SECONDS} s, "
                  f"median of {ROUNDS} rounds", flush=True)
            solo = alone(wrk, script, base, urls, workers)
            floor = solo["minimal view"]
            print(f"{'URL':<22} {'path':<42} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
                  f"{'CPU ms':>7} {'ratio':>6} {'CPU ratio':>9}")
            for name, f in solo.items():
                print(f"{name:<22} {urls[name]:<42} {f['rps']:>7.1f} "
                      f"{f.get('P50_US', 0) / 1000:>7.1f} {f.get('P95_US', 0) / 1000:>7.1f} "
                      f"{f['cpu_ms']:>7.2f} {f['rps'] / max(floor['rps'], 0.1):>6.2f} "
                      f"{floor['cpu_ms'] / max(f['cpu_ms'], 0.001):>9.2f}")
            check_answers(solo, log_path)
        if "mixed" in PHASES:
            print(f"\nmixed: every URL at once, 2 connections each, {2 * SECONDS} s",
                  flush=True)
            together = mixed(wrk, script, base, urls)
            print(f"{'URL':<22} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}")
            for name, f in together.items():
                print(f"{name:<22} {f['rps']:>8.1f} {f.get('P50_US', 0) / 1000:>8.1f} "
                      f"{f.get('P95_US', 0) / 1000:>8.1f}")
            print(f"total {sum(f['rps'] for f in together.values()):.1f} requests/s; load "
                  f"average {os.getloadavg()[0]:.1f} (was {load_before:.1f})")
            check_answers(together, log_path)
    finally:
        stop_server(server)


def main() -> None:
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    env = server_environment(work / "static")
    if not KEEP:
        psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    fresh = psql_admin_create(DATABASE)
    try:
        print("migrating, loading the demo, collecting static files ...", flush=True)
        manage(env, "migrate", "--noinput", "-v0")
        if fresh:
            manage(env, "load_demo")
        manage(env, "collectstatic", "--noinput", "-v0")
        started = time.monotonic()
        swiss = build_swiss(env)
        live = build_swiss(env, live=True)
        print(f"two 200-player 9-round Swisses built through the services in "
              f"{time.monotonic() - started:.0f} s: {swiss} (finished) and {live} (round 9 "
              f"half entered)", flush=True)
        if "weight" in PHASES:
            print(f"\npage weight: the live Swiss's tabs, first answer after a result (median "
                  f"of 5; load average {os.getloadavg()[0]:.1f})", flush=True)
            print(f"{'page':<42} {'raw bytes':>10} {'gzip bytes':>10} {'CPU ms':>7}")
            for row in page_weights(env, live):
                print(f"{row['page']:<42} {row['raw']:>10,} {row['gzip']:>10,} "
                      f"{row['cpu_ms']:>7.0f}")
        script = work / "report.lua"
        script.write_text(REPORT_LUA)
        if PHASES & {"alone", "mixed"}:
            steady(wrk, script, work, env, swiss)
        if "flood" in PHASES:
            flood(wrk, work, env, swiss)
    finally:
        if not KEEP:
            psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
