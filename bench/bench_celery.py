"""Bot games through Celery against the same games in one process.

A 64-bot single-elimination Kugamai tournament (first to 3 wins, at most 9 games) between
random bots, played three ways with the same seed:

1. the referee alone in a plain loop (no database): the engines and bots' own speed;
2. the service's inline runner: the same games recorded through the same services, one
   process, no broker;
3. two Celery worker processes over Redis, recording into PostgreSQL.

Needs PostgreSQL and Redis on this machine (``make services``). Uses a scratch database
``bench_celery`` that it creates and drops.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATABASE = "bench_celery"
BROKER = "redis://127.0.0.1:6379/13"
os.environ.update({
    "DJANGO_SETTINGS_MODULE": "config.settings_test",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    "CELERY_BROKER_URL": BROKER,
    "CELERY_TASK_ALWAYS_EAGER": "false",
})


def recreate_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {DATABASE}")


def drop_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def main() -> None:
    recreate_database()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from kombu import Connection

    from botruns import selectors as bot_runs
    from botruns import services as bot_tournaments
    from games.series import deal_for_game, game_roles
    from games.series.referee import BotSpec, referee_game
    from games.series.seeds import bot_seeds
    from matches.models import Game
    from players.models import Club, Player
    from tournaments import services

    call_command("migrate", verbosity=0)
    admin = get_user_model().objects.create_superuser("bench", "", "bench")
    club = Club.objects.create(name="Bench", slug="bench")
    bots = Player.objects.bulk_create(
        Player(display_name=f"Random {i:02d}", club=club, is_bot=True, bot_kind="random")
        for i in range(64)
    )

    def tournament(name: str):  # type: ignore[no-untyped-def]
        t = services.tournament_create(
            actor=admin, club=club, name=name, game="kugamai", format="knockout",
            match_format={"kind": "first_to", "games": 3, "max_games": 9}, rated=False,
        )
        for index, bot in enumerate(bots):
            services.entrant_register(actor=admin, tournament=t, player=bot, rating=2000 - index)
        return t

    # 1. the referee alone
    inline_t = tournament("Inline")
    run = bot_tournaments.bot_tournament_start(actor=admin, tournament=inline_t, seed=1,
                                               inline=True)
    started = time.perf_counter()
    bot_tournaments.bot_run_inline(run)
    inline_seconds = time.perf_counter() - started
    games = Game.objects.filter(pairing__round__tournament=inline_t).count()
    started = time.perf_counter()
    for game in Game.objects.filter(pairing__round__tournament=inline_t):
        roles = game_roles("kugamai", game.number - 1)
        deal = deal_for_game("kugamai", {}, game.deal_seed or 0, roles)
        referee_game("kugamai", {}, deal, (BotSpec("random"), BotSpec("random")),
                     seeds=bot_seeds("bench", 2, game.pk))
    pure_seconds = time.perf_counter() - started

    # 3. two worker processes
    with Connection(BROKER) as connection:
        connection.default_channel.queue_purge("celery")
    connections.close_all()
    env = dict(os.environ)
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1",
             f"--hostname=bench{n}@%h", "--without-gossip", "--without-mingle",
             "--loglevel=WARNING"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for n in (1, 2)
    ]
    try:
        time.sleep(3)  # let both workers connect before the clock starts
        celery_t = tournament("Celery")
        started = time.perf_counter()
        run = bot_tournaments.bot_tournament_start(actor=admin, tournament=celery_t, seed=1)
        run = bot_runs.wait_for(run, timeout=900, poll=0.1)
        celery_seconds = time.perf_counter() - started
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    celery_games = Game.objects.filter(pairing__round__tournament=celery_t).count()
    same = list(Game.objects.filter(pairing__round__tournament=inline_t).order_by(
        "pairing__round__number", "pairing__board", "number").values_list("winner_side")) == \
        list(Game.objects.filter(pairing__round__tournament=celery_t).order_by(
            "pairing__round__number", "pairing__board", "number").values_list("winner_side"))
    connections.close_all()
    drop_database()

    inline_rate = games / inline_seconds
    celery_rate = celery_games / celery_seconds
    print(f"64-bot Kugamai knockout, first to 3: {games} games, status {run.status}, "
          f"same results both ways: {same}")
    print(f"  referee alone, no database:     {games / pure_seconds:9.1f} games/s")
    print(f"  inline runner, one process:     {inline_rate:9.1f} games/s ({inline_seconds:.1f} s)")
    print(f"  Celery, two worker processes:   {celery_rate:9.1f} games/s ({celery_seconds:.1f} s)"
          f"  = {celery_rate / inline_rate:.2f} x inline")


if __name__ == "__main__":
    main()
