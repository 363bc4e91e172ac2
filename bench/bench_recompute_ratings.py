"""Time ``manage.py recompute_ratings`` on 100,000 games in a scratch PostgreSQL database.

Creates the database (``createdb``), migrates it, bulk-inserts one club, 500 players and one
rated Kugamai tournament whose 20,000 pairings hold 5 games each (100,000 games over about
three years, 10% draws), then runs the command as an organizer would and prints the wall
time. The database is dropped at the end unless ``--keep`` is given. Run from the repository
root (PostgreSQL on 127.0.0.1, user postgres)::

    .venv/bin/python bench/bench_recompute_ratings.py [--games N] [--players N] [--runs N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_PER_PAIRING = 5
#: 250 boards a round keeps 100,000 games within a tournament's 99 rounds.
BOARDS_PER_ROUND = 250
MAX_ROUNDS = 99


def run(*command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, env=env, check=True, text=True,
                          capture_output=True)


def populate(games: int, players: int, seed: int) -> None:
    import django

    django.setup()
    from django.db import transaction

    from matches.models import Game
    from players.models import Club, Player
    from tournaments.models import Entrant, Pairing, Round, Tournament

    rng = random.Random(seed)
    strength = [rng.gauss(1500, 250) for _ in range(players)]
    start = dt.datetime(2023, 1, 1, 18, 0, tzinfo=dt.UTC)
    pairings_needed = -(-games // GAMES_PER_PAIRING)
    rounds_needed = -(-pairings_needed // BOARDS_PER_ROUND)
    if rounds_needed > MAX_ROUNDS:
        most = MAX_ROUNDS * BOARDS_PER_ROUND * GAMES_PER_PAIRING
        raise SystemExit(f"--games {games} needs {rounds_needed} rounds; at most {most} games")
    with transaction.atomic():
        club = Club.objects.create(name="Bench club", slug="bench")
        people = Player.objects.bulk_create(
            Player(display_name=f"Player {index}", club=club) for index in range(players)
        )
        tournament = Tournament.objects.create(
            club=club, name="Bench cup", slug="bench-cup", game="kugamai", format="swiss",
            rated=True, status="running",
        )
        entrants = Entrant.objects.bulk_create(
            Entrant(tournament=tournament, player=person) for person in people
        )
        rounds = Round.objects.bulk_create(
            Round(tournament=tournament, number=number + 1, released_at=start)
            for number in range(rounds_needed)
        )
        sides = [rng.sample(range(players), 2) for _ in range(pairings_needed)]
        pairings = Pairing.objects.bulk_create(
            (
                Pairing(
                    round=rounds[index // BOARDS_PER_ROUND], board=index % BOARDS_PER_ROUND + 1,
                    entrant_a=entrants[a], entrant_b=entrants[b],
                )
                for index, (a, b) in enumerate(sides)
            ),
            batch_size=5000,
        )

        def game_rows() -> object:
            for number in range(games):
                index = number // GAMES_PER_PAIRING
                a, b = sides[index]
                expected = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
                roll = rng.random()
                winner = None if roll < 0.1 else (0 if rng.random() < expected else 1)
                yield Game(
                    pairing=pairings[index], number=number % GAMES_PER_PAIRING + 1,
                    game="kugamai", first_side=number % 2, winner_side=winner,
                    played_at=start + dt.timedelta(minutes=number * 1000 * 1440 // games),
                )

        Game.objects.bulk_create(game_rows(), batch_size=5000)  # type: ignore[arg-type]


def replay_from_a_correction() -> None:
    """A correction near the end replays from its board, not the whole pool (issue 13)."""
    from django.db import transaction

    from matches.models import Game
    from ratings.services import rating_recompute_after_correction

    game = Game.objects.select_related("pairing__round__tournament__club").order_by(
        "-pairing__round__number", "-pairing__board").first()
    assert game is not None
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(winner_side=1 - (game.winner_side or 0))
        wall, cpu = time.perf_counter(), time.process_time()
        summary = rating_recompute_after_correction(game)
    print(f"a correction in the last round replays {summary.games} games from its board in "
          f"{time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--database", default="bench_ratings")
    parser.add_argument("--keep", action="store_true", help="Keep the scratch database.")
    args = parser.parse_args()

    url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "true",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    pg = ("-h", "127.0.0.1", "-U", "postgres")
    subprocess.run(("dropdb", *pg, "--if-exists", args.database), check=True)
    subprocess.run(("createdb", *pg, args.database), check=True)
    try:
        run(sys.executable, "manage.py", "migrate", "-v", "0", env=env)
        started = time.perf_counter()
        populate(args.games, args.players, args.seed)
        print(f"created {args.games} games among {args.players} players in "
              f"{time.perf_counter() - started:.1f} s")
        for attempt in range(1, args.runs + 1):
            started = time.perf_counter()
            done = run(sys.executable, "manage.py", "recompute_ratings", "--no-progress",
                       env=env)
            elapsed = time.perf_counter() - started
            print(f"run {attempt}: manage.py recompute_ratings took {elapsed:.2f} s "
                  f"(wall, with Django start-up); it reports: {done.stdout.splitlines()[-1]}")
        replay_from_a_correction()
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            subprocess.run(("dropdb", *pg, "--if-exists", "--force", args.database), check=True)


if __name__ == "__main__":
    main()
