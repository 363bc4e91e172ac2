"""The incremental maximum-weight matcher against brute force, on random graphs with
huge integer weights, many ties, edge changes and retired pairs; and its dual
certificate (feasible duals, tight matched edges, full blossoms) after every solve."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tournaments.pairing.swiss.matching import Matcher


def best_total(w: list[list[int]], alive: list[bool]) -> int:
    vertices = [v for v, live in enumerate(alive) if live]

    @cache
    def best(mask: int) -> int:
        for i, v in enumerate(vertices):
            if not mask >> i & 1:
                value = best(mask | 1 << i)  # v stays unmatched
                for j in range(i + 1, len(vertices)):
                    u = vertices[j]
                    if not mask >> j & 1 and w[v][u] > 0:
                        value = max(value, w[v][u] + best(mask | 1 << i | 1 << j))
                return value
        return 0

    return best(0)


def total(matcher: Matcher) -> int:
    value = 0
    for v in range(matcher.n):
        m = matcher.mate[v]
        if matcher.alive[v] and m > v:
            assert matcher.mate[m] == v and matcher.alive[m]
            assert matcher.weight(v, m) > 0
            value += matcher.weight(v, m)
    return value


def check_certificate(matcher: Matcher) -> None:
    n = matcher.n

    def blossoms(v: int) -> list[int]:
        found, b = [], matcher.parent[v]
        while b != -1:
            found.append(b)
            b = matcher.parent[b]
        return found

    for u in range(n):
        if not matcher.alive[u]:
            continue
        assert matcher.Y[u] >= 0
        if matcher.mate[u] < 0:
            assert matcher.Y[u] == 0, "an exposed vertex keeps a positive dual"
        around_u = set(blossoms(u))
        for v in range(u + 1, n):
            if not matcher.alive[v] or not matcher.weight(u, v):
                continue
            shared = sum(matcher.Y[b] for b in blossoms(v) if b in around_u)
            slack = matcher.Y[u] + matcher.Y[v] - 2 * matcher.weight(u, v) + shared
            assert slack >= 0
            if matcher.mate[u] == v:
                assert slack == 0
    for b in range(n, 2 * n):
        if matcher.base[b] >= 0:
            leaves = matcher._leaves(b)
            assert matcher.Y[b] >= 0
            inside = sum(1 for x in leaves if matcher.mate[x] in leaves)
            assert inside == len(leaves) - 1


@pytest.mark.parametrize("seed", range(150))
def test_random_graphs_with_changes(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 13)
    top = rng.choice([3, 1000, 2**90])
    density = rng.random()
    matcher = Matcher(n)
    w = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density:
                w[i][j] = w[j][i] = rng.randint(1, top)
                matcher.set_weight(i, j, w[i][j])
    for _ in range(10):
        matcher.solve()
        check_certificate(matcher)
        assert total(matcher) == best_total(w, matcher.alive)
        v = rng.randrange(n)
        if not matcher.alive[v]:
            continue
        if rng.random() < 0.7:
            for u in range(n):
                if u != v and matcher.alive[u] and rng.random() < 0.5:
                    w[v][u] = w[u][v] = rng.randint(0, top) if rng.random() < 0.8 else 0
                    matcher.set_weight(v, u, w[v][u])
        elif matcher.mate[v] >= 0:
            matcher.retire(v, matcher.mate[v])


def test_bad_calls_are_refused() -> None:
    matcher = Matcher(3)
    with pytest.raises(ValueError, match="non-negative"):
        matcher.set_weight(0, 1, -1)
    matcher.set_weight(0, 1, 5)
    matcher.solve()
    assert matcher.matching() == [1, 0, 2]
    with pytest.raises(ValueError, match="not matched"):
        matcher.retire(0, 2)


@pytest.mark.parametrize("seed", range(40))
def test_many_ties_and_several_rows_changed_at_once(seed: int) -> None:
    """Few distinct weights make big blossoms; several rows changed before one solve
    leave many exposed vertices (matched over tight edges first, then by the stages)."""
    rng = random.Random(1000 + seed)
    n = rng.randint(8, 15)
    values = [0, 1, 2, 2, 3, 3, 3] if rng.random() < 0.5 else [0, 5, 5, 5, 2**70, 2**70 + 1]
    matcher = Matcher(n)
    w = [[0] * n for _ in range(n)]
    for v in range(n):
        row = [(u, rng.choice(values)) for u in range(v)]
        for u, weight in row:
            w[v][u] = w[u][v] = weight
        matcher.set_row(v, row)
    for _ in range(6):
        matcher.solve()
        check_certificate(matcher)
        assert total(matcher) == best_total(w, matcher.alive)
        live = [v for v in range(n) if matcher.alive[v]]
        if rng.random() < 0.2 and matcher.mate[live[0]] >= 0:
            matcher.retire(live[0], matcher.mate[live[0]])
            continue
        for v in rng.sample(live, k=rng.randint(1, len(live))):
            row = [(u, rng.choice(values)) for u in live if u != v and rng.random() < 0.6]
            for u, weight in row:
                w[v][u] = w[u][v] = weight
            matcher.set_row(v, row)
