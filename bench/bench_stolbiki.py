"""Benchmark: uniformly random Stolbiki games per second on one core (2 v 2, 36 cards).

Run from the repository root: ``python bench/bench_stolbiki.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.stolbiki.playout import random_playout  # noqa: E402


def main(seconds: float = 5.0) -> None:
    rng = random.Random(2024)
    games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(200):
            random_playout(rng, deck=36, team_size=2)
        games += 200
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - started
    print(
        f"stolbiki: {games / elapsed:.0f} games/s "
        f"(uniform random playouts, 2 v 2, 36 cards, {elapsed:.1f} s, one core)"
    )


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
