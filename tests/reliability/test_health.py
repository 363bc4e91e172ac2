"""``/healthz`` is public: a status per check, never the driver's error text; the broker
check is cached for a few seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.private_services import ROOT, PrivateRedis, free_port

pytestmark = pytest.mark.django_db

PROBE = """
import json, django, logging, io
django.setup()
stream = io.StringIO()
logging.getLogger().addHandler(logging.StreamHandler(stream))
from django.test import Client
answer = Client().get("/healthz", HTTP_HOST="localhost")
print(json.dumps({"status": answer.status_code, "body": answer.content.decode(),
                  "log": stream.getvalue()}))
"""


def test_a_healthy_service_says_ok_and_nothing_else(client: Any) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": {"ok": True}, "broker": {"ok": True}}


def test_failures_show_a_status_only_and_log_the_details() -> None:
    """A real failure of both checks: nothing listens on these ports."""
    db_port, broker_port = free_port(), free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test",
           "DATABASE_URL": f"postgres://secretrole:pw@127.0.0.1:{db_port}/secretdb",
           "DATABASE_POOL": "false",
           "CELERY_BROKER_URL": f"redis://127.0.0.1:{broker_port}/0"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    assert json.loads(answer["body"]) == {"status": "fail", "database": {"ok": False},
                                          "broker": {"ok": False}}
    for secret in ("secretrole", "secretdb", str(db_port), str(broker_port), "refused"):
        assert secret not in answer["body"]
    assert "database check failed" in answer["log"] and str(db_port) in answer["log"]
    assert "broker check failed" in answer["log"]


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path / "redis")
    try:
        server.start()
        yield server
    finally:
        server.stop()


def connections_received(redis: PrivateRedis) -> int:
    """Connections the server has accepted so far, not counting this question."""
    out = subprocess.run(["redis-cli", "-p", str(redis.port), "info", "stats"],
                         capture_output=True, text=True, timeout=20).stdout
    line = next(row for row in out.splitlines() if row.startswith("total_connections_received"))
    return int(line.split(":")[1]) - 1


def test_the_broker_check_is_cached_for_a_few_seconds(client: Any, settings: Any,
                                                       private_redis: PrivateRedis) -> None:
    from config.celery import app

    settings.HEALTH_BROKER_CACHE_SECONDS = 1.5
    # the raw setting (None: it follows broker_url); restoring the property's value would
    # pin every later publish of this process to today's broker
    saved = app.conf.get("broker_write_url")
    app.conf.broker_write_url = private_redis.url()
    try:
        start = connections_received(private_redis)
        for _ in range(5):
            assert client.get("/healthz").status_code == 200
        after_burst = connections_received(private_redis) - 1  # minus the first question
        time.sleep(1.6)
        assert client.get("/healthz").status_code == 200
        after_wait = connections_received(private_redis) - 2
    finally:
        app.conf.broker_write_url = saved
    assert after_burst - start == 1, "five checks in a burst opened more than one connection"
    assert after_wait - start == 2, "the cached result did not expire"
