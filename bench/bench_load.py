"""Load on loopback: gunicorn (2 workers) on 127.0.0.1 against a scratch PostgreSQL
database with the demo data, and wrk against four URLs at once.

The URLs: the public standings page of the demo round robin, the API tournament and player
lists, and ``/healthz``. One wrk process per URL runs at the same time (2 connections each,
``LOAD_SECONDS`` seconds, 10 by default), so the figures are for a server under the mixed
load of all four. Prints requests/s, p50 and p95 latency and non-2xx answers per URL.

Needs PostgreSQL and Redis (``make services``) and wrk (``apt-get install wrk``). Creates
and drops the database ``bench_load``.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATABASE = "bench_load"
SECONDS = int(os.environ.get("LOAD_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("LOAD_CONNECTIONS", "2"))
# wrk reports percentiles through a Lua hook; it prints them after its own summary.
REPORT_LUA = """
done = function(summary, latency, requests)
  io.write(string.format("P50_US=%d\\nP95_US=%d\\nREQUESTS=%d\\nNON2XX=%d\\nERRORS=%d\\n",
    latency:percentile(50), latency:percentile(95), summary.requests,
    summary.errors.status, summary.errors.connect + summary.errors.read +
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


def server_environment(static_root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12",
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
    }


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            check=True, capture_output=True, text=True, timeout=600)
    return result.stdout


def standings_path(env: dict[str, str]) -> str:
    code = ("from tournaments.models import Tournament; "
            "t = Tournament.objects.filter(status='finished').select_related('club')"
            ".order_by('id').first() or Tournament.objects.select_related('club').first(); "
            "print(f'/tournaments/{t.club.slug}/{t.slug}/')")
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


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


def parse(output: str) -> dict[str, float]:
    values = dict(re.findall(r"^(P50_US|P95_US|REQUESTS|NON2XX|ERRORS)=(\d+)$", output, re.M))
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    return {"rps": float(rate.group(1)) if rate else 0.0,
            **{key: float(value) for key, value in values.items()}}


def main() -> None:
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    env = server_environment(work / "static")
    psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql_admin(f"CREATE DATABASE {DATABASE}")
    server = None
    try:
        print("migrating, loading the demo, collecting static files ...", flush=True)
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "load_demo")
        manage(env, "collectstatic", "--noinput", "-v0")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = open(work / "gunicorn.log", "wb")  # noqa: SIM115 (closed with the server)
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
             f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        wait_until_up(base)
        urls = {
            "standings page": standings_path(env),
            "API tournaments": "/api/tournaments/",
            "API players": "/api/players/",
            "healthz": "/healthz",
        }
        for path in urls.values():  # warm up each worker's caches and pool
            for _ in range(4):
                urllib.request.urlopen(base + path, timeout=30).read()  # noqa: S310
        script = work / "report.lua"
        script.write_text(REPORT_LUA)
        print(f"wrk: {len(urls)} URLs at once, {CONNECTIONS} connections each, "
              f"{SECONDS} s; gunicorn 2 sync workers on {base}", flush=True)
        runs = {
            name: subprocess.Popen(
                [wrk, "-t1", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--timeout", "10s",
                 "-s", str(script), base + path],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )
            for name, path in urls.items()
        }
        results = {name: parse(run.communicate(timeout=SECONDS + 60)[0])
                   for name, run in runs.items()}
        print(f"{'URL':<18} {'path':<50} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
              f"{'non-2xx':>8} {'errors':>7}")
        for name, figures in results.items():
            print(f"{name:<18} {urls[name]:<50} {figures['rps']:>8.1f} "
                  f"{figures.get('P50_US', 0) / 1000:>8.1f} "
                  f"{figures.get('P95_US', 0) / 1000:>8.1f} "
                  f"{figures.get('NON2XX', 0):>8.0f} {figures.get('ERRORS', 0):>7.0f}")
        total = sum(figures["rps"] for figures in results.values())
        print(f"total {total:.1f} requests/s")
        bad = {name: f for name, f in results.items() if f.get("NON2XX") or f.get("ERRORS")}
        if bad:
            raise SystemExit(f"failed answers: {bad}\n{(work / 'gunicorn.log').read_text()}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        psql_admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
