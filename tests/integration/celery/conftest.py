"""Real Celery worker processes on a real Redis broker, against the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The test settings' broker (Redis database 15 unless CELERY_BROKER_URL says otherwise).
BROKER = os.environ["CELERY_BROKER_URL"]


class Workers:
    """Starts, finds and kills ``celery worker`` processes for one test."""

    def __init__(self, database: str, log_dir: Path) -> None:
        self.database = database
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen[bytes]] = []

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "DJANGO_SETTINGS_MODULE": "config.settings_test",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.database}",
            "CELERY_BROKER_URL": BROKER,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "BOT_STUCK_CHECK_SECONDS": "1",
            "REMAP_SIGTERM": "SIGQUIT",  # stop() ends a worker within seconds
        })
        return env

    def start(self, count: int = 1, concurrency: int = 1) -> list[subprocess.Popen[bytes]]:
        started = []
        for _ in range(count):
            index = len(self.processes) + 1
            log = open(self.log_dir / f"worker{index}.log", "wb")  # noqa: SIM115
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker",
                 f"--hostname=test{index}@%h", f"--concurrency={concurrency}",
                 "--pool=prefork", "--without-gossip", "--without-mingle",
                 "--loglevel=INFO"],
                cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
            )
            self.processes.append(process)
            started.append(process)
        return started

    def start_beat(self) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / "beat.log", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
             f"--schedule={self.log_dir / 'beat-schedule'}"],
            cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        return process

    @staticmethod
    def children(process: subprocess.Popen[bytes]) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:]
            for path in sorted(self.log_dir.glob("*.log"))
        )


def _purge_broker() -> None:
    """Empty every queue the settings name (and Celery's old default one)."""
    from kombu import Connection

    from config.celery import app

    with Connection(BROKER) as connection:
        for queue in {"celery", *(queue.name for queue in app.conf.task_queues)}:
            connection.default_channel.queue_purge(queue)


@pytest.fixture
def workers(transactional_db: Any, tmp_path: Path, settings: Any) -> Iterator[Workers]:
    from django.db import connection

    from config.celery import app

    if not BROKER.startswith(("redis://", "amqp://")):
        pytest.skip(f"worker tests need a Redis or RabbitMQ broker, not {BROKER}")
    _purge_broker()
    app.conf.task_always_eager = False
    pool = Workers(connection.settings_dict["NAME"], tmp_path)
    try:
        yield pool
    finally:
        pool.stop()
        app.conf.task_always_eager = True
        _purge_broker()


@pytest.fixture
def wait_until() -> Callable[..., Any]:
    def wait(check: Callable[[], Any], timeout: float, what: str, logs: Callable[[], str]) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.25)
        pytest.fail(f"timed out after {timeout} s waiting for {what}\n{logs()}")

    return wait
