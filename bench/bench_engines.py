"""Engine speed: uniformly random playouts from a new deal to the end, on one core.

Rates are per second of this process's CPU time (wall time alongside), so that other jobs
on a shared machine skew them less. Targets (issue 2): Kazambi 7x8 two players 3,000
games/s, Stolbiki 2 v 2 with 36 cards 1,000, Kugamai 20,000.

Usage: python bench/bench_engines.py [seconds per engine]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.kazambi.playout import random_playout as kazambi  # noqa: E402
from games.engines.kugamai.playout import random_playout as kugamai  # noqa: E402
from games.engines.stolbiki.playout import random_playout as stolbiki  # noqa: E402

CASES: list[tuple[str, Callable[..., Any], dict[str, Any], int]] = [
    ("kazambi 7x8, 2 players", kazambi, {"game": "kazambi", "rows": 7, "cols": 8}, 3_000),
    ("kazambi-pairs 7x8", kazambi, {"game": "kazambi-pairs"}, 0),
    ("stolbiki 2 v 2, 36 cards", stolbiki, {"deck": 36, "team_size": 2}, 1_000),
    ("stolbiki 3 v 3, 52 cards", stolbiki, {"deck": 52, "team_size": 3}, 0),
    ("kugamai", kugamai, {}, 20_000),
]


def measure(playout: Callable[..., Any], options: dict[str, Any], seconds: float) -> tuple[
        float, float]:
    rng = random.Random(2024)
    games = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while time.process_time() - cpu_start < seconds:
        for _ in range(100):
            playout(rng, **options)
        games += 100
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    return games / cpu, games / wall


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for name, playout, options, target in CASES:
        per_cpu, per_wall = measure(playout, options, seconds)
        verdict = ""
        if target:
            verdict = f"  target {target:,}: {'ok' if per_cpu >= target else 'MISSED'}"
        print(f"{name:28} {per_cpu:9,.0f} games/s CPU ({per_wall:,.0f} wall){verdict}")


if __name__ == "__main__":
    main()
