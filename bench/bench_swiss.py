"""Time the pairing of one Swiss round (FIDE Dutch) for 100 and 200 entrants.

Each case simulates a tournament with random results up to the round before the
one timed, then times ``pair_round`` once. Run: ``python bench/bench_swiss.py``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.swiss import pair_round  # noqa: E402
from tournaments.pairing.swiss.simulate import SimulatedTournament, play_round  # noqa: E402

CASES = [(100, 5, 1.0), (100, 9, 1.0), (200, 5, 5.0), (200, 9, 5.0)]


def time_round(size: int, round_number: int, seed: int = 2026) -> tuple[float, float]:
    """Wall-clock and CPU seconds of pairing one round (CPU time is steadier on a busy host)."""
    rng = random.Random(seed)
    tournament = SimulatedTournament(size, round_number)
    for _ in range(round_number - 1):
        play_round(tournament, rng, absence_rate=0.02, forfeit_rate=0.01)
    players = tournament.players()
    start, cpu_start = time.perf_counter(), time.process_time()
    pair_round(players, round_number, round_number)
    return time.perf_counter() - start, time.process_time() - cpu_start


def main() -> int:
    failed = False
    for size, round_number, budget in CASES:
        elapsed, cpu = time_round(size, round_number)
        verdict = "ok" if cpu < budget else "SLOW"  # judged on CPU time
        failed |= cpu >= budget
        print(
            f"swiss dutch: {size:>3} entrants, round {round_number}: "
            f"{elapsed:6.2f} s wall, {cpu:6.2f} s CPU (budget {budget:.0f} s) {verdict}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
