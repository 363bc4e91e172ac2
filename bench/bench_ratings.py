"""Time the pure part of ``manage.py recompute_ratings``.

Rates 100,000 random two-player games among 500 players (a few games a day over about
three years, 10% draws) with :func:`ratings.maths.bulk.recompute_ratings` and prints the
time taken. Run from the repository root::

    .venv/bin/python bench/bench_ratings.py [--games N] [--players N] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.maths.bulk import RatedGame, recompute_ratings  # noqa: E402


def random_games(count: int, players: int, seed: int) -> list[RatedGame]:
    rng = random.Random(seed)
    strength = [rng.gauss(1500, 250) for _ in range(players)]
    start = date(2023, 1, 1)
    games = []
    for number in range(count):
        first, second = rng.sample(range(players), 2)
        expected = 1 / (1 + 10 ** ((strength[second] - strength[first]) / 400))
        roll = rng.random()
        winner = None if roll < 0.1 else (0 if rng.random() < expected else 1)
        played_on = start + timedelta(days=number * 1000 // count)
        games.append(RatedGame(number, played_on, ((first,), (second,)), winner))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    games = random_games(args.games, args.players, args.seed)
    timings = []
    for _ in range(args.repeat):
        began = time.perf_counter()
        result = recompute_ratings(games)
        timings.append(time.perf_counter() - began)
    ratings = sorted(state.rating for state in result.ratings.values())
    print(
        f"recompute_ratings: {args.games} games, {args.players} players, "
        f"{len(result.history)} history rows"
    )
    print(
        f"time: best {min(timings):.2f} s, median {statistics.median(timings):.2f} s "
        f"over {args.repeat} runs"
    )
    print(
        f"final ratings: min {ratings[0]:.0f}, median {statistics.median(ratings):.0f}, "
        f"max {ratings[-1]:.0f}"
    )


if __name__ == "__main__":
    main()
