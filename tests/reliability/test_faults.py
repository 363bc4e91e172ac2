"""Faults under load: the database and the broker restart, the service carries on.

Both tests use private servers (see ``private_services``) so that restarting them does not
disturb other test runs on the machine, and stop them in a ``finally``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.private_services import (
    ROOT,
    PrivatePostgres,
    PrivateRedis,
    free_port,
    wait_for_port,
)

pytestmark = pytest.mark.slow


@dataclass
class Answer:
    started: float
    path: str
    status: int
    seconds: float


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:  # noqa: S310 (loopback)
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0  # no answer at all


class Load:
    """A client thread that asks ``paths`` in turn until stopped (bounded by ``limit``)."""

    def __init__(self, base: str, paths: list[str], limit: float = 120.0) -> None:
        self.base, self.paths, self.limit = base, paths, limit
        self.answers: list[Answer] = []
        self._answered = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        deadline = time.monotonic() + self.limit
        index = 0
        while not self._stop.is_set() and time.monotonic() < deadline:
            path = self.paths[index % len(self.paths)]
            started = time.monotonic()
            status = get(self.base + path)
            with self._answered:
                self.answers.append(Answer(started, path, status, time.monotonic() - started))
                self._answered.notify_all()
            index += 1
            time.sleep(0.02)

    def await_answers(self, count: int, *, after: float = 0.0, timeout: float = 60.0) -> None:
        """Return once ``count`` requests started after ``after`` have their answer (or
        ``timeout`` seconds have passed: the caller's assertions say what was missing)."""
        with self._answered:
            self._answered.wait_for(
                lambda: sum(a.started > after for a in self.answers) >= count, timeout)

    def __enter__(self) -> Load:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=60)


def children(pid: int) -> set[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return {int(p) for p in out.stdout.split()}


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    server = PrivatePostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


def test_postgres_restart_under_load_the_same_server_recovers(
    private_postgres: PrivatePostgres, tmp_path: Path
) -> None:
    private_postgres.create_database("fault")
    private_postgres.migrate("fault")
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test",
           "DATABASE_URL": private_postgres.url("fault"), "DATABASE_POOL_TIMEOUT": "5"}
    log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "2", "--timeout", "60"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_port(port, 30)
        deadline = time.monotonic() + 30
        while (len(children(server.pid)) < 2 or get(base + "/healthz") != 200) \
                and time.monotonic() < deadline:
            time.sleep(0.2)
        workers_before = children(server.pid)
        assert len(workers_before) == 2, (tmp_path / "gunicorn.log").read_text()
        with Load(base, ["/healthz", "/api/players/", "/api/tournaments/"]) as load:
            load.await_answers(10)
            restart_started = time.monotonic()
            private_postgres.restart()
            restarted = time.monotonic()
            load.await_answers(10, after=restarted + 0.5)
        before = [a for a in load.answers if a.started < restart_started]
        after = [a for a in load.answers if a.started > restarted + 0.5]
        during = [a for a in load.answers if restart_started <= a.started <= restarted + 0.5]
        summary = (f"{len(before)} before ({sorted({a.status for a in before})}), "
                   f"{len(during)} during "
                   f"({sorted({a.status for a in during})}), {len(after)} after; "
                   f"restart took {restarted - restart_started:.1f} s; slowest answer after "
                   f"it {max((a.seconds for a in after), default=0):.1f} s")
        assert before and all(a.status == 200 for a in before), summary
        assert len(after) >= 10, summary
        failed_after = [a for a in after if a.status != 200]
        assert not failed_after, f"{summary}; failures after the restart: {failed_after}"
        assert server.poll() is None, "the server process died"
        assert children(server.pid) == workers_before, "gunicorn replaced its workers"
        print(summary)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


# -- the broker ----------------------------------------------------------------------------


class CeleryProcesses:
    def __init__(self, broker: str, database: str, folder: Path) -> None:
        self.folder = folder
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test",
                    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
                    "CELERY_BROKER_URL": broker, "CELERY_TASK_ALWAYS_EAGER": "false",
                    "BOT_STUCK_CHECK_SECONDS": "1"}
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 (kept for the process)
        process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args],
                                   cwd=ROOT, env=self.env, stdout=log,
                                   stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                         for path in sorted(self.folder.glob("*.log")))


@pytest.fixture
def private_broker(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private Redis, and this process's Celery app publishing to it."""
    from config.celery import app

    redis = PrivateRedis(tmp_path / "redis")
    saved = (app.conf.broker_url, app.conf.task_always_eager)

    def reset_pools() -> None:
        app._pool = None
        if "amqp" in app.__dict__:
            app.amqp._producer_pool = None

    environment = os.environ.get("CELERY_BROKER_URL")
    try:
        redis.start()
        app.conf.broker_url, app.conf.task_always_eager = redis.url(), False
        # Celery reads CELERY_BROKER_URL from the environment before its configuration:
        # without this, this process published to the suite's broker, not the private one
        os.environ["CELERY_BROKER_URL"] = redis.url()
        reset_pools()
        yield redis
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        if environment is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = environment
        reset_pools()
        redis.stop()


@pytest.mark.django_db(transaction=True)
def test_broker_restart_during_a_bot_tournament_it_still_finishes(
    private_broker: PrivateRedis, make_event: Any, organizer: Any, tmp_path: Path
) -> None:
    from django.db import connection

    from botruns import services as bot_tournaments
    from botruns.models import BotGameTask
    from matches.models import Game
    from tournaments.models import Outcome, Pairing

    celery = CeleryProcesses(private_broker.url(), connection.settings_dict["NAME"],
                             tmp_path / "celery")
    celery.folder.mkdir()
    try:
        worker_args = ("worker", "--hostname=fault@%h", "--concurrency=2", "--pool=prefork",
                       "--without-gossip", "--without-mingle", "--loglevel=INFO")
        worker = celery.start("worker", *worker_args)
        beat = celery.start("beat", "beat", "--loglevel=INFO",
                            f"--schedule={celery.folder / 'beat-schedule'}")
        tournament = make_event(format="swiss", entrants=8, bots="random", rounds_planned=3,
                                match_format={"kind": "best_of", "games": 3})
        run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                                   seed=5, game_timeout_seconds=6)

        def games() -> int:
            return Game.objects.filter(pairing__round__tournament=tournament).count()

        deadline = time.monotonic() + 90
        while games() < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert games() >= 3, "no games before the restart\n" + celery.logs()
        private_broker.shutdown_nosave()
        time.sleep(3)
        private_broker.start()
        deadline = time.monotonic() + 180
        restarts = 0
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status != "running":
                break
            if worker.poll() is not None:
                # kombu 5.7 can die restoring an unacknowledged message while the broker is
                # down ("Unrecoverable error: ... 'hostname'"); the deploy units restart a
                # worker that exits (Restart=on-failure, restart: unless-stopped), as this does.
                restarts += 1
                worker = celery.start(f"worker-{restarts + 1}", *worker_args)
            time.sleep(0.5)
        run.refresh_from_db()
        assert run.status == "finished", f"{run.status}: {run.message}\n{celery.logs()}"
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        assert not Pairing.objects.filter(round__tournament=tournament,
                                          outcome=Outcome.PENDING).exists()
        tasks = BotGameTask.objects.filter(run=run)
        assert tasks.filter(done_at=None).count() == 0
        assert games() == tasks.count()  # exactly one game per task: none lost, none twice
        assert worker.poll() is None and beat.poll() is None, "a process died\n" + celery.logs()
        print(f"{games()} games, {sum(t.attempts - 1 for t in tasks)} re-sends after the restart, "
              f"{restarts} worker restarts")
    finally:
        celery.stop()
