"""Engine speed: uniformly random playouts from a new deal to the end, on one core.

Rates are games per second of this process's CPU time (``time.process_time``), so that
other jobs on a shared machine skew them less; the three paths run in turns, a slice of
50 ms at a time, so that the machine's busy spells fall on all of them alike. Each game
is played three ways, drawing from the generator alike (the same games, but for Stolbiki,
whose fast path orders the moves by cell):

- ``fast``: the bots' fast path (``games.engines.<game>.playout.random_playout``);
- ``codes``: the public interface with compact moves: ``new_game(seed=rng)``, then
  ``legal_codes`` and ``push`` (``games.engines.random_games.public_playout``);
- ``objects``: the same with ``legal_moves`` (move objects or texts) and ``push``.

``fast/codes`` is how many times faster the fast path is (issue 18: at most 3).
Targets (issue 2): Kazambi 7x8 two players 3,000 games/s on the fast path, Stolbiki
2 v 2 with 36 cards 1,000, Kugamai 20,000.

Usage: python bench/bench_engines.py [seconds per measurement (2)]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import get_engine  # noqa: E402
from games.engines.kazambi.playout import random_playout as kazambi  # noqa: E402
from games.engines.kugamai.playout import random_playout as kugamai  # noqa: E402
from games.engines.random_games import public_playout  # noqa: E402
from games.engines.stolbiki.playout import random_playout as stolbiki  # noqa: E402

Playout = Callable[[random.Random], Any]

#: (label, game, its fast playout, options, fast-path target in games/s).
CASES: list[tuple[str, str, Callable[..., Any], dict[str, Any], int]] = [
    ("kazambi 7x8, 2 players", "kazambi", partial(kazambi, game="kazambi"),
     {"rows": 7, "cols": 8}, 3_000),
    ("kazambi-pairs 7x8", "kazambi-pairs", partial(kazambi, game="kazambi-pairs"), {}, 0),
    ("kugamai", "kugamai", kugamai, {}, 20_000),
    ("stolbiki 2 v 2, 36 cards", "stolbiki", stolbiki, {"deck": 36, "team_size": 2}, 1_000),
    ("stolbiki 3 v 3, 52 cards", "stolbiki", stolbiki, {"deck": 52, "team_size": 3}, 0),
]

#: Records replayed through ``Engine.replay``: (label, game, options).
REPLAYS: list[tuple[str, str, dict[str, Any]]] = [
    ("kazambi 7x8", "kazambi", {}),
    ("kugamai", "kugamai", {}),
    ("stolbiki 2 v 2, 36 cards", "stolbiki", {}),
]


def measure(playouts: list[Playout], seconds: float, slice_seconds: float = 0.05) -> list[float]:
    """Games per second of CPU time of each playout, over about ``seconds`` each. The
    playouts run in turns, a short slice at a time, so that the busy and quiet spells of
    a shared machine fall on all of them alike."""
    rngs = [random.Random(2024) for _ in playouts]
    games = [0] * len(playouts)
    cpu = [0.0] * len(playouts)
    while min(cpu) < seconds:
        for index, playout in enumerate(playouts):
            rng = rngs[index]
            start = time.process_time()
            now = start
            while now - start < slice_seconds:
                for _ in range(5):
                    playout(rng)
                games[index] += 5
                now = time.process_time()
            cpu[index] += now - start
    return [count / spent for count, spent in zip(games, cpu, strict=True)]


def record_of(game: str, seed: int, **options: Any) -> dict[str, Any]:
    """The record of a whole random game (the longest of a few seeds)."""
    engine = get_engine(game)
    longest: dict[str, Any] = {}
    for offset in range(10):
        rng = random.Random(seed + offset)
        state = engine.new_game(seed=rng, **options)
        while moves := engine.legal_moves(state):
            state = engine.play(state, moves[rng.randrange(len(moves))])
        record = engine.record(state)
        if len(record["moves"]) > len(longest.get("moves", ())):
            longest = record
    return longest


def replay_time(game: str, seconds: float, **options: Any) -> tuple[float, int]:
    """CPU milliseconds per replay of a full game record (``Engine.replay``, the best of
    five runs), and its number of moves."""
    engine = get_engine(game)
    record = record_of(game, 7, **options)
    best = float("inf")
    for _ in range(5):
        replays = 0
        cpu_start = time.process_time()
        while time.process_time() - cpu_start < seconds / 5:
            for _ in range(10):
                engine.replay(record)
            replays += 10
        best = min(best, 1000 * (time.process_time() - cpu_start) / replays)
    return best, len(record["moves"])


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'games/s of CPU time':28} {'fast':>8} {'codes':>8} {'objects':>8} "
          f"{'fast/codes':>10} {'fast/objects':>12}")
    for label, game, fast, options, target in CASES:
        playouts: list[Playout] = [
            partial(fast, **options),
            partial(public_playout, game, **options),
            partial(public_playout, game, compact=False, **options),
        ]
        fast_rate, codes_rate, objects_rate = measure(playouts, seconds)
        verdict = ""
        if target:
            verdict = f"  fast target {target:,}: {'ok' if fast_rate >= target else 'MISSED'}"
        print(f"{label:28} {fast_rate:8,.0f} {codes_rate:8,.0f} {objects_rate:8,.0f} "
              f"{fast_rate / codes_rate:10.2f} {fast_rate / objects_rate:12.2f}{verdict}")
    for label, game, options in REPLAYS:
        milliseconds, moves = replay_time(game, seconds / 2, **options)
        print(f"replay of a {label} record ({moves} moves): {milliseconds:.3f} ms CPU")


if __name__ == "__main__":
    main()
