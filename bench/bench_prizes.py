"""Prize-list speed: the pure core (``tournaments.prizes.allocate``) on large events.

Standings of N players (points in half points, many ties), with ratings, birth years,
sexes and federations; prize groups: overall (20 places), four rating bands, juniors,
women, unrated and two federations (10 places each), under each tie rule. The time covers
the whole allocation (promotion, sharing, cut-off ties).

Usage (from the repository root)::

    python bench/bench_prizes.py [players] [repeats]
"""

from __future__ import annotations

import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.prizes import (  # noqa: E402
    PlayerFacts,
    Prize,
    PrizeGroup,
    Standing,
    allocate,
    born_in_or_after,
    everyone,
    field_is,
    rating_band,
    unrated,
    women,
)


def standings(players: int, seed: int = 1) -> list[Standing]:
    rng = random.Random(seed)
    rows = []
    for index in range(players):
        rating = rng.choice([0] + [rng.randint(1000, 2600)] * 9)
        facts = PlayerFacts(rating=rating or None, birth_year=rng.randint(1950, 2016),
                            sex=rng.choice("mmmw"),
                            fields={"federation": rng.choice(["KEN", "RUS", "UGA", "TAN"])})
        rows.append(Standing(index, rng.randint(0, 18) / 2, facts))
    rows.sort(key=lambda row: -float(row.points))
    return rows


def ladder(top: int, places: int) -> tuple[Prize, ...]:
    return tuple(Prize(Decimal(top - top * place // (places + 1))) for place in range(places))


GROUPS = [
    PrizeGroup("overall", ladder(2000, 20), everyone),
    *(PrizeGroup(f"band {low}", ladder(300, 10), rating_band(low, low + 199))
      for low in (1200, 1400, 1600, 1800)),
    PrizeGroup("juniors", ladder(250, 10), born_in_or_after(2008)),
    PrizeGroup("women", ladder(250, 10), women),
    PrizeGroup("unrated", ladder(150, 10), unrated),
    PrizeGroup("KEN", ladder(200, 10), field_is("federation", "KEN")),
    PrizeGroup("UGA", ladder(200, 10), field_is("federation", "UGA")),
]


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rows = standings(players)
    prizes = sum(len(group.prizes) for group in GROUPS)
    print(f"prize lists: {players} players, {len(GROUPS)} groups, {prizes} prizes")
    for method in ("tiebreak", "split", "hort"):
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            result = allocate(rows, GROUPS, method=method)  # type: ignore[arg-type]
            best = min(best, time.perf_counter() - start)
        print(f"  {method:9s} {best * 1000:8.1f} ms  ({len(result.awards)} awards)")


if __name__ == "__main__":
    main()
