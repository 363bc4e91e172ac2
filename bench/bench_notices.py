"""A 30-player round's release sent through a real SMTP server (aiosmtpd, started here).

Two ways, the same round:

1. in one process (Celery eager): the release, each player's message planned, rendered in
   their language and sent over SMTP;
2. one Celery worker process over Redis: from the release's commit until the server has
   the 30th message and every notice is marked sent.

The target (issue 39): 30 players' release sent in under 60 s. Needs PostgreSQL and Redis
on this machine (``make services``); uses a scratch database ``bench_notices`` that it
creates and drops, and Redis database 14 (``BENCH_BROKER`` to change it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATABASE = "bench_notices"
BROKER = os.environ.get("BENCH_BROKER", "redis://127.0.0.1:6379/14")
PLAYERS = 30
os.environ.update({
    "DJANGO_SETTINGS_MODULE": "config.settings_test",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    "CELERY_BROKER_URL": BROKER,
    "CELERY_TASK_ALWAYS_EAGER": "true",
})


def _database(create: bool) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        if create:
            c.execute(f"CREATE DATABASE {DATABASE}")


def main() -> None:
    import logging

    from tests.smtp_server import SmtpServer

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per command

    _database(create=True)
    server = SmtpServer().__enter__()
    os.environ.update({"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(server.port)})
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from kombu import Connection

    from config.celery import app
    from notices.models import Notice, NoticePreference, NoticeStatus
    from players.models import Club, Player
    from tournaments import services

    call_command("migrate", verbosity=0)
    admin = get_user_model().objects.create_superuser("bench", "", "bench")
    club = Club.objects.create(name="Bench", slug="bench")
    people = Player.objects.bulk_create(
        Player(display_name=f"Player {i:02d}", club=club, email=f"p{i:02d}@example.org")
        for i in range(PLAYERS))
    NoticePreference.objects.bulk_create(  # a third read Russian
        NoticePreference(player=p, language="ru") for p in people[::3])

    def event(name: str):  # type: ignore[no-untyped-def]
        t = services.tournament_create(actor=admin, club=club, name=name, game="kugamai",
                                       format="swiss", rounds_planned=5,
                                       release_pairings_at_once=True)
        for index, player in enumerate(people):
            services.entrant_register(actor=admin, tournament=t, player=player,
                                      rating=2000 - index)
        return services.tournament_start(actor=admin, tournament=t)

    def sent(name: str) -> int:
        return Notice.objects.filter(tournament__name=name, status=NoticeStatus.SENT).count()

    # 1. one process
    eager = event("Eager")
    started = time.perf_counter()
    services.round_pair_next(actor=admin, tournament=eager)
    eager_seconds = time.perf_counter() - started
    assert sent("Eager") == PLAYERS and server.inbox.count() == PLAYERS, sent("Eager")

    # 2. a worker process over Redis
    app.conf.task_always_eager = False
    with Connection(BROKER) as connection:
        for queue in ("celery", "notifications"):
            connection.default_channel.queue_purge(queue)
    connections.close_all()
    env = dict(os.environ, CELERY_TASK_ALWAYS_EAGER="false")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2",
         "--hostname=benchnotices@%h", "--without-gossip", "--without-mingle",
         "--loglevel=WARNING"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        time.sleep(4)  # the worker connects before the clock starts
        queued = event("Queued")
        started = time.perf_counter()
        services.round_pair_next(actor=admin, tournament=queued)
        while sent("Queued") < PLAYERS and time.perf_counter() - started < 120:
            time.sleep(0.05)
        worker_seconds = time.perf_counter() - started
        done = sent("Queued")
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        server.__exit__()
    received = server.inbox.count()
    connections.close_all()
    _database(create=False)
    print(f"{PLAYERS} players' release through a real SMTP server "
          f"({received} messages received):")
    print(f"  one process (eager):      {eager_seconds:6.2f} s")
    print(f"  one worker, 2 processes:  {worker_seconds:6.2f} s ({done}/{PLAYERS} sent)")
    target = eager_seconds < 60 and worker_seconds < 60 and done == PLAYERS
    print(f"  target under 60 s: {'met' if target else 'MISSED'}")
    if not target:
        sys.exit(1)


if __name__ == "__main__":
    main()
