"""Time the pairing of one Swiss round (FIDE Dutch): round 5 of 7 for 100, 200 and 400
entrants.

Each case plays rounds 1-4 with this engine and seeded random results (draws, a few
forfeits and half-point byes), writes the TRF of the tournament as it stands before
round 5, and times ``pair_trf`` on it once: wall-clock and CPU seconds (CPU time is the
steadier figure on a busy machine; the budgets are judged on it). With ``--bbp PATH``
(or ``BBP_PAIRINGS=PATH``) the same file is also paired by bbpPairings, its time printed
beside ours and the two pairings compared.

Run: ``python bench/bench_swiss.py [--bbp /path/to/bbpPairings.exe] [--sizes 100,200]``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.trf import pair_trf  # noqa: E402

BUDGETS = {100: 1.0, 200: 2.0, 400: 30.0}  # CPU seconds for one round
ROUNDS, TIMED_ROUND = 7, 5


def play(size: int, seed: int) -> str:
    """The TRF text of a ``size``-player event before round ``TIMED_ROUND``."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1200, 2700) for _ in range(size)), reverse=True)
    blocks: dict[int, list[str]] = {n: [] for n in range(1, size + 1)}

    def text() -> str:
        lines = ["012 Swiss benchmark", f"XXR {ROUNDS}", "XXC white1"]
        for n in range(1, size + 1):
            points = sum(2 if b[-1] in "1+FU" else 1 if b[-1] in "=H" else 0 for b in blocks[n])
            head = (
                f"001 {n:>4} m    {f'Player {n:04d}':<33} {ratings[n - 1]:>4} "
                f"{'':<3} {'':>11} {'':<10} {points / 2:4.1f} {n:>4}"
            )
            lines.append(head + "".join(blocks[n]))
        return "\n".join(lines) + "\n"

    for _round in range(1, TIMED_ROUND):
        for items in blocks.values():
            if rng.random() < 0.02:
                items.append("  0000 - H")
        pairs = pair_trf(text())
        for white, black in pairs:
            if black == 0:
                blocks[white].append("  0000 - U")
                continue
            if rng.random() < 0.01:
                blocks[white].append(f"  {black:>4} - +")
                blocks[black].append(f"  {white:>4} - -")
                continue
            edge = (ratings[white - 1] - ratings[black - 1]) / 800
            draw = rng.random()
            code = "=" if draw < 0.3 else "1" if rng.random() < 0.5 + edge else "0"
            other = {"=": "=", "1": "0", "0": "1"}[code]
            blocks[white].append(f"  {black:>4} w {code}")
            blocks[black].append(f"  {white:>4} b {other}")
    return text()


def time_ours(trf: str) -> tuple[float, float, list[tuple[int, int]]]:
    start, cpu_start = time.perf_counter(), time.process_time()
    pairs = pair_trf(trf)
    return time.perf_counter() - start, time.process_time() - cpu_start, pairs


def time_bbp(binary: str, trf: str) -> tuple[float, float, list[tuple[int, int]]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "round.trf"
        path.write_text(trf)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([binary, "--dutch", str(path), "-p"], capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    numbers = [int(word) for word in done.stdout.split()[1:]]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, list(zip(numbers[0::2], numbers[1::2], strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS"))
    parser.add_argument("--sizes", default="100,200,400")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    failed = False
    for size in (int(word) for word in arguments.sizes.split(",")):
        trf = play(size, arguments.seed + size)
        wall, cpu, ours = time_ours(trf)
        budget = BUDGETS.get(size, 30.0)
        verdict = "ok" if cpu <= budget else "SLOW"
        failed |= cpu > budget
        line = (
            f"swiss dutch: {size:>3} entrants, round {TIMED_ROUND} of {ROUNDS}: "
            f"{wall:6.2f} s wall, {cpu:6.2f} s CPU (budget {budget:.0f} s) {verdict}"
        )
        if arguments.bbp:
            bbp_wall, bbp_cpu, theirs = time_bbp(arguments.bbp, trf)
            same = "same pairing" if theirs == ours else "DIFFERENT PAIRING"
            failed |= theirs != ours
            line += f"; bbpPairings {bbp_wall:5.2f} s wall, {bbp_cpu:5.2f} s CPU, {same}"
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
