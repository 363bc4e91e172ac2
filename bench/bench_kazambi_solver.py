"""How far the Kazambi endgame solver reaches: positions from real 7x8 games (MCTS with
an iteration budget against greedy, so the games are the same on every run), each solved
from scratch within a CPU time limit; the table gives, per count of live tiles, how many
were settled and the mean time spent.

Usage (from the repository root)::

    python bench/bench_kazambi_solver.py [--deals N] [--seconds S] [--min-live A] [--max-live B]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.adapters import search_game  # noqa: E402
from games.bots.base import Budget  # noqa: E402
from games.bots.play import play_game, side_bots  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.bots.solvers.kazambi import KazambiSolver, live_tile_count  # noqa: E402
from games.bots.solvers.kugamai import SolverLimitError  # noqa: E402
from games.engines import get_engine  # noqa: E402
from games.engines.kazambi.state import KazambiState  # noqa: E402


def positions(deals: int, low: int, high: int) -> list[KazambiState]:
    """Every position with ``low`` to ``high`` live tiles in ``deals`` deals, each played
    twice (MCTS on either side)."""
    engine = get_engine("kazambi")
    adapter = search_game("kazambi")
    found: list[KazambiState] = []
    for deal in range(deals):
        for mcts_side in (0, 1):
            mcts = get_bot("mcts", seed=deal * 2 + mcts_side)
            greedy = get_bot("greedy", seed=10_000 + deal)
            bots = side_bots(mcts, greedy, 2) if mcts_side == 0 else side_bots(greedy, mcts, 2)
            _, moves = play_game("kazambi", bots, seed=deal, budget=Budget(iterations=1000))
            state = engine.new_game(seed=deal)
            for move in moves:
                seat = engine.to_move(state)
                loaded = adapter.load(engine.observation(state, seat), random.Random(0))
                if low <= live_tile_count(loaded) <= high:
                    found.append(loaded)
                state = engine.play(state, move)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--min-live", type=int, default=9)
    parser.add_argument("--max-live", type=int, default=16)
    args = parser.parse_args()
    found = positions(args.deals, args.min_live, args.max_live)
    #: live tiles -> (settled?, CPU seconds) per position
    runs: dict[int, list[tuple[bool, float]]] = defaultdict(list)
    for state in found:
        solver = KazambiSolver(misere=False)
        started = time.process_time()
        solver.deadline = started + args.seconds
        try:
            solver.wins(state)
            settled = True
        except SolverLimitError:
            settled = False
        runs[live_tile_count(state)].append((settled, time.process_time() - started))
    print(f"{len(found)} positions from {args.deals} deals (x2 games), "
          f"{args.seconds} s CPU each")
    print(f"{'live tiles':>10} {'settled':>9} {'mean time':>10}")
    for live, results in sorted(runs.items()):
        done = sum(settled for settled, _ in results)
        mean = sum(seconds for _, seconds in results) / len(results)
        print(f"{live:>10} {done:>4} / {len(results):<3} {mean:>9.3f}s")
    total = sum(settled for results in runs.values() for settled, _ in results)
    print(f"{'all':>10} {total:>4} / {len(found):<3}")

if __name__ == "__main__":
    main()
