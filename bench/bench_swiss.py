"""Time the pairing of one Swiss round (FIDE Dutch) at the sizes of issue 40: round 5 of 7
for 200 and 400 entrants, and (with ``--big``) round 6 of 9 for 1,000 entrants.

Each case plays the earlier rounds with seeded random results (draws, a few forfeits and
half-point byes), writes the TRF of the tournament as it stands before the timed round,
and times ``pair_trf`` on it once: wall-clock and CPU seconds (CPU time is the steadier
figure on a busy machine). Django is not started. With ``--bbp PATH`` (or
``BBP_PAIRINGS=PATH``) the same file is also paired by bbpPairings (built from its public
source), its time printed beside ours with the ratio, and the two pairings compared; the
earlier rounds are then paired by bbpPairings too, which is quicker for the 1,000 row and
gives the same files (the pairings are identical). ``--keep DIR`` saves each timed TRF.

Run: ``python bench/bench_swiss.py [--bbp /path/to/bbpPairings.exe] [--big]``.
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.trf import pair_trf  # noqa: E402

Pairs = list[tuple[int, int]]


class Row:
    def __init__(self, size: int, timed_round: int, rounds: int, budget: float) -> None:
        self.size, self.timed_round, self.rounds, self.budget = size, timed_round, rounds, budget

    def label(self) -> str:
        return f"{self.size:>5} entrants, round {self.timed_round} of {self.rounds}"


ROWS = [Row(200, 5, 7, 2.0), Row(400, 5, 7, 12.0)]
BIG_ROWS = [Row(1000, 6, 9, 150.0)]  # budgets: CPU seconds for one round


def play(row: Row, seed: int, pair: Callable[[str], Pairs]) -> str:
    """The TRF text of the row's event before its timed round."""
    rng = random.Random(seed)
    size = row.size
    ratings = sorted((rng.randint(1200, 2700) for _ in range(size)), reverse=True)
    blocks: dict[int, list[str]] = {n: [] for n in range(1, size + 1)}

    def text() -> str:
        lines = ["012 Swiss benchmark", f"XXR {row.rounds}", "XXC white1"]
        for n in range(1, size + 1):
            points = sum(2 if b[-1] in "1+FU" else 1 if b[-1] in "=H" else 0 for b in blocks[n])
            head = (
                f"001 {n:>4} m    {f'Player {n:04d}':<33} {ratings[n - 1]:>4} "
                f"{'':<3} {'':>11} {'':<10} {points / 2:4.1f} {n:>4}"
            )
            lines.append(head + "".join(blocks[n]))
        return "\n".join(lines) + "\n"

    for _round in range(1, row.timed_round):
        for items in blocks.values():
            if rng.random() < 0.02:
                items.append("  0000 - H")
        pairs = pair(text())
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


def time_ours(trf: str) -> tuple[float, float, Pairs]:
    start, cpu_start = time.perf_counter(), time.process_time()
    pairs = pair_trf(trf)
    return time.perf_counter() - start, time.process_time() - cpu_start, pairs


def time_bbp(binary: str, trf: str) -> tuple[float, float, Pairs]:
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
    parser.add_argument("--bbp", default=os.environ.get("BBP_PAIRINGS") or os.environ.get("BBP"))
    parser.add_argument("--big", action="store_true", help="add the 1,000-entrant row")
    parser.add_argument("--only-big", action="store_true", help="the 1,000-entrant row alone")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", help="save each timed TRF in this folder")
    parser.add_argument("--trf", help="time this TRF file alone instead of the rows")
    arguments = parser.parse_args()
    binary = arguments.bbp

    def pair_earlier(trf: str) -> Pairs:
        return time_bbp(binary, trf)[2] if binary else pair_trf(trf)

    rows = BIG_ROWS if arguments.only_big else ROWS + (BIG_ROWS if arguments.big else [])
    cases: list[tuple[str, float, Callable[[], str]]] = []
    if arguments.trf:
        cases.append((arguments.trf, 1e9, lambda: Path(arguments.trf).read_text()))
    else:
        for row in rows:
            seed = arguments.seed + row.size

            def played(row: Row = row, seed: int = seed) -> str:
                return play(row, seed, pair_earlier)

            cases.append((row.label(), row.budget, played))
    failed = False
    for label, budget, make in cases:
        trf = make()
        if arguments.keep:
            Path(arguments.keep).mkdir(parents=True, exist_ok=True)
            name = label.split()[0].replace(",", "")
            (Path(arguments.keep) / f"swiss-{name}.trf").write_text(trf)
        wall, cpu, ours = time_ours(trf)
        failed |= cpu > budget
        line = f"swiss dutch: {label}: ours {cpu:7.2f} s CPU ({wall:7.2f} s wall)"
        if budget < 1e9:
            line += f" budget {budget:.0f} s {'ok' if cpu <= budget else 'SLOW'}"
        if binary:
            bbp_wall, bbp_cpu, theirs = time_bbp(binary, trf)
            same = "same pairing" if theirs == ours else "DIFFERENT PAIRING"
            failed |= theirs != ours
            ratio = cpu / bbp_cpu if bbp_cpu else float("inf")
            line += (
                f"; bbpPairings {bbp_cpu:7.2f} s CPU ({bbp_wall:7.2f} s wall); "
                f"ratio {ratio:4.2f}; {same}"
            )
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
