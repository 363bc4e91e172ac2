"""Phone clock speed, in pure Python: replaying a session's taps (the server replays every
stored tap on each batch, so a full session of 2000 taps is the worst case per request)
and the measured advice over 2000 games of 80 moves and 50 boards (the round page reads
the latest 500: phoneclock.selectors.MAX_MEASURED).

Usage (from the repository root)::

    python bench/bench_clock.py [repeats]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.clocks.control import Tap, TapKind, controls_for, run_taps  # noqa: E402
from games.clocks.measured import RecordedGame, measured_advice  # noqa: E402

SESSION_TAPS = 2000
GAMES, MOVES, BOARDS = 2000, 80, 50


def session_taps(rng: random.Random) -> list[Tap]:
    taps, at = [Tap(TapKind.START, 0, 0)], 0
    for index in range(SESSION_TAPS - 1):
        at += rng.randint(100, 3000)
        taps.append(Tap(TapKind.MOVE, index % 2, at))
    return taps


def recorded(rng: random.Random) -> list[RecordedGame]:
    played = controls_for("40/90+30, 30+30")
    return [RecordedGame(tuple(rng.expovariate(1 / 40) for _ in range(MOVES)), played,
                         1 if rng.random() < 0.05 else None) for _ in range(GAMES)]


def best_of(repeats: int, run: object) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = random.Random(38)
    taps = session_taps(rng)
    controls = controls_for("40/90+30, 30+30")
    replay = best_of(repeats, lambda: run_taps(controls, taps))
    games = recorded(rng)
    proposal = controls_for("60+30")
    advice = best_of(repeats, lambda: measured_advice(games, proposal, boards=BOARDS))
    print(f"replay {SESSION_TAPS} taps:                     {replay * 1000:8.2f} ms")
    print(f"measured advice, {GAMES} games x {MOVES} moves: {advice * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
