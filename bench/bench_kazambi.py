"""Kazambi speed: uniformly random playouts on one core.

The rate is per second of this process's CPU time, so that other jobs on a shared
machine do not skew it.

Usage: python bench/bench_kazambi.py [seconds] [game] [rows] [cols]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.kazambi.playout import random_playout  # noqa: E402


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    game = sys.argv[2] if len(sys.argv) > 2 else "kazambi"
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    cols = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    rng = random.Random(2024)
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(100):
            random_playout(rng, game=game, rows=rows, cols=cols)
        games += 100
    elapsed = time.process_time() - start
    print(
        f"{game}: {games / elapsed:.0f} games/s "
        f"(uniform random playouts, {rows}x{cols}, {elapsed:.1f} s CPU, one core)"
    )


if __name__ == "__main__":
    main()
