"""Analysis time per move: one seeded game per engine (MCTS against greedy, as the demo's
bots play), analysed move by move with the worker's budget (1000 MCTS iterations or
Stolbiki playouts per move, 150,000 solver nodes per position).

Usage (from the repository root)::

    python bench/bench_analysis.py [--iterations I] [--seed S] [--game NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.analysis import Budget, analyse_game  # noqa: E402
from games.bots.base import Budget as BotBudget  # noqa: E402
from games.bots.play import play_game, side_bots  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.engines import get_engine  # noqa: E402

GAMES = ["kugamai", "kazambi", "kazambi-pairs", "anti-kazambi", "stolbiki"]


def record_of(game: str, seed: int) -> dict[str, object]:
    engine = get_engine(game)
    seats = engine.seat_count()
    bots = side_bots(get_bot("mcts", seed=seed), get_bot("greedy", seed=seed), seats)
    _, moves = play_game(game, bots, seed=seed, budget=BotBudget(iterations=100))
    state = engine.new_game(seed=seed)
    for move in moves:
        state = engine.play(state, move)
    return engine.record(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", action="append", choices=GAMES)
    args = parser.parse_args()
    budget = Budget(iterations=args.iterations, seed=args.seed, solver_nodes=150_000)
    print(f"{'game':<15} {'moves':>5} {'total s':>8} {'s/move':>7} {'max s':>6}  by method "
          "(moves, mean s)")
    for game in args.game or GAMES:
        record = record_of(game, args.seed)
        started = time.perf_counter()
        report = analyse_game(record, budget)
        total = time.perf_counter() - started
        methods: dict[str, list[float]] = defaultdict(list)
        for note in report.moves:
            methods[note.method].append(note.seconds)
        count = len(report.moves)
        slowest = max(note.seconds for note in report.moves)
        by_method = ", ".join(f"{name} {len(times)}, {sum(times) / len(times):.2f}"
                              for name, times in sorted(methods.items()))
        print(f"{game:<15} {count:>5} {total:>8.1f} {total / count:>7.2f} {slowest:>6.2f}  "
              f"{by_method}; blunders {len(report.blunders())}", flush=True)


if __name__ == "__main__":
    main()
