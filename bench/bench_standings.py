"""Standings speed: a 200-entrant, 9-round Swiss with every tie-break, in pure Python.

The tournament is synthetic: each round pairs neighbours by score (a crude Swiss,
avoiding rematches), with a pairing-allocated bye for the odd entrant out, a few
forfeits and half-point byes, and random results weighted by rating. The time covers
parsing the plain record, every tie-break and the ordering.

Usage (from the repository root)::

    python bench/bench_standings.py [entrants] [rounds] [repeats]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.standings import compute_standings, crosstable, round_by_round  # noqa: E402
from tournaments.standings.record import TournamentRecord  # noqa: E402

TIEBREAKS = [
    "DE", "BH-C1", "BH", "BH-M1", "BH-C2", "SB", "SB-C1", "WIN", "WON", "BPG", "BWG",
    "PS", "KS", "ARO", "TPR",
]  # fmt: skip


def synthetic_swiss(entrants: int, rounds: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    ratings = {n: rng.randint(1200, 2600) for n in range(1, entrants + 1)}
    history: dict[int, list[dict[str, Any]]] = {n: [] for n in ratings}
    score = dict.fromkeys(ratings, 0.0)
    met: set[frozenset[int]] = set()
    value = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    for _ in range(rounds):
        order = sorted(ratings, key=lambda n: (-score[n], -ratings[n]))
        if len(order) % 2:
            bye = order.pop()
            history[bye].append({"kind": "pairing_bye"})
            score[bye] += 1
        while order:
            first = order.pop(0)
            partner = next((o for o in order if frozenset((first, o)) not in met), order[0])
            order.remove(partner)
            met.add(frozenset((first, partner)))
            draw = rng.random()
            if draw < 0.02:
                history[first].append({"opponent": partner, "kind": "forfeit_win"})
                history[partner].append({"opponent": first, "kind": "forfeit_loss"})
                score[first] += 1
                continue
            expected = 1 / (1 + 10 ** ((ratings[partner] - ratings[first]) / 400))
            if draw < expected - 0.1:
                outcome = "win"
            else:
                outcome = "draw" if draw < expected + 0.1 else "loss"
            mirror = {"win": "loss", "draw": "draw", "loss": "win"}[outcome]
            history[first].append({"opponent": partner, "first_move": True, "result": outcome})
            history[partner].append({"opponent": first, "first_move": False, "result": mirror})
            score[first] += value[outcome]
            score[partner] += value[mirror]
    return {
        "system": "swiss",
        "rounds": rounds,
        "entrants": [{"id": n, "rating": ratings[n], "rounds": history[n]} for n in ratings],
    }


def best_time(function: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    entrants = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    document = synthetic_swiss(entrants, rounds)
    record = TournamentRecord.from_dict(document)
    standings = compute_standings(record, TIEBREAKS)
    parse = best_time(lambda: TournamentRecord.from_dict(document), repeats)
    full = best_time(lambda: compute_standings(document, TIEBREAKS), repeats)
    basic = best_time(lambda: compute_standings(record, ["BH-C1", "BH", "SB"]), repeats)
    tables = best_time(lambda: round_by_round(record, standings), repeats)
    cross = best_time(lambda: crosstable(record, standings), repeats)
    print(f"standings: {entrants} entrants, {rounds} rounds, best of {repeats}")
    print(f"  parse + validate record          {parse * 1000:7.2f} ms")
    print(f"  standings, {len(TIEBREAKS)} tie-breaks (from dict) {full * 1000:7.2f} ms")
    print(f"  standings, BH-C1 BH SB (parsed)  {basic * 1000:7.2f} ms")
    print(f"  round-by-round table             {tables * 1000:7.2f} ms")
    print(f"  crosstable                       {cross * 1000:7.2f} ms")
    leader = standings[0]
    print(f"  leader: entrant {leader.entrant} with {leader.points} points")


if __name__ == "__main__":
    main()
