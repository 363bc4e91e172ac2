"""A second opinion on small events: caissify-pairings, an independent Dutch engine
that reports A.7 conformance with bbpPairings, re-pairs every round of tournaments
played here with this engine (plain results, byes from the pairing only) and must find
the same pairs. bbpPairings stays the reference (``test_corpus.py``); this catches a
drift on fresh random events that the committed corpus does not hold."""

from __future__ import annotations

import random

import pytest

from tournaments.trf import UnpairableError, pair_trf

caissify = pytest.importorskip("caissify_pairings.fpc")


def played_event(size: int, rounds: int, seed: int) -> str:
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1400, 2600) for _ in range(size)), reverse=True)
    blocks: dict[int, list[str]] = {n: [] for n in range(1, size + 1)}

    def text() -> str:
        lines = ["012 Second opinion", f"XXR {rounds}", "XXC white1"]
        for n in range(1, size + 1):
            points = sum(2 if b[-1] in "1U" else 1 if b[-1] == "=" else 0 for b in blocks[n])
            lines.append(
                f"001 {n:>4} m    {f'Player {n:04d}':<33} {ratings[n - 1]:>4} "
                f"{'':<3} {'':>11} {'':<10} {points / 2:4.1f} {n:>4}" + "".join(blocks[n])
            )
        return "\n".join(lines) + "\n"

    for _ in range(rounds):
        for white, black in pair_trf(text()):
            if black == 0:
                blocks[white].append("  0000 - U")
                continue
            edge = (ratings[white - 1] - ratings[black - 1]) / 800
            code = "=" if rng.random() < 0.3 else "1" if rng.random() < 0.5 + edge else "0"
            blocks[white].append(f"  {black:>4} w {code}")
            blocks[black].append(f"  {white:>4} b {dict(zip('=10', '=01', strict=True))[code]}")
    return text()


@pytest.mark.parametrize("seed", range(30))
def test_caissify_pairs_our_small_events_alike(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(7, 24)
    rounds = rng.randint(4, min(9, size // 2 + 1))
    try:
        text = played_event(size, rounds, seed)
    except UnpairableError:
        pytest.skip("the random event ran out of legal pairings")
    report = caissify.check_trf(text)
    mismatched = [r for r in report["rounds"] if not r["match"]]
    assert report["summary"]["rounds_checked"] == rounds
    assert mismatched == []
