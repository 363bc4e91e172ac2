"""Golden move counts ("perft") from fixed seeded deals, cross-checked against a naive
reference move generator that scans the whole hand and table for every candidate."""

from __future__ import annotations

import pytest

from games.engines.kugamai.state import KugamaiState

from .helpers import ENGINE, random_game

LOW = {(1, 1), (2, 2), (3, 3)}
HIGH = {(4, 4), (5, 5), (6, 6)}

Position = dict  # {"hands": [[(a, b)...], ...], "chain": [(x, y)...], "to_move", "low"}


def naive_start(seed: int) -> Position:
    doc = ENGINE.to_dict(ENGINE.new_game(seed=seed))
    hands = [[tuple(int(v) for v in t.split("-")) for t in hand] for hand in doc["hands"]]
    return {"hands": hands, "chain": [], "to_move": doc["to_move"], "low": doc["low_doubles_seat"]}


def naive_tile_moves(position: Position, seat: int) -> list[str]:
    chain = position["chain"]
    if not chain:
        return ["0-0"] if (0, 0) in position["hands"][seat] else []
    end = chain[-1][1]
    moves = set()
    for a, b in position["hands"][seat]:
        for matched, other in ((a, b), (b, a)):
            if matched != end:
                continue
            table = [tuple(sorted(t)) for t in chain] + [(a, b)]
            if sum(1 for t in table if other in t) == 7:
                continue  # a fish
            moves.add(f"{matched}-{other}")
    return sorted(moves)


def naive_over(position: Position) -> bool:
    for seat in (0, 1):
        own = LOW if seat == position["low"] else HIGH
        if not own & set(position["hands"][seat]):
            return True
    mover = position["to_move"]
    return not naive_tile_moves(position, mover) and not naive_tile_moves(position, 1 - mover)


def naive_moves(position: Position) -> list[str]:
    if naive_over(position):
        return []
    mine = naive_tile_moves(position, position["to_move"])
    return mine or ["pass"]


def naive_play(position: Position, move: str) -> Position:
    mover = position["to_move"]
    hands = [list(hand) for hand in position["hands"]]
    chain = list(position["chain"])
    if move != "pass":
        x, y = int(move[0]), int(move[2])
        hands[mover].remove((min(x, y), max(x, y)))
        chain.append((x, y))
    return {"hands": hands, "chain": chain, "to_move": 1 - mover, "low": position["low"]}


def naive_perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(naive_perft(naive_play(position, m), depth - 1) for m in naive_moves(position))


def perft(state: KugamaiState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for code in ENGINE.legal_codes(state):
        ENGINE.push(state, code)
        total += perft(state, depth - 1)
        ENGINE.pop(state)
    return total


# seed -> leaf counts at depths 1..10 (depth 1 is the opening 0-0; passes are moves).
GOLDEN = {
    0: [1, 3, 7, 16, 36, 89, 213, 478, 922, 1839],
    1: [1, 4, 12, 36, 98, 267, 679, 1691, 3887, 8738],
    2: [1, 3, 9, 21, 53, 138, 328, 662, 1300, 2534],
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_perft_golden_counts(seed):
    state = ENGINE.new_game(seed=seed)
    counts = [perft(state, depth) for depth in range(1, len(GOLDEN[seed]) + 1)]
    assert counts == GOLDEN[seed]


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_perft_agrees_with_the_naive_reference(seed):
    state = ENGINE.new_game(seed=seed)
    start = naive_start(seed)
    for depth in range(1, len(GOLDEN[seed]) + 1):
        assert perft(state, depth) == naive_perft(start, depth)


def test_naive_reference_agrees_along_random_games():
    for seed in range(30):
        position = naive_start(seed)
        states = random_game(seed)
        for before, after in zip(states, states[1:] + [None], strict=True):
            assert ENGINE.legal_moves(before) == naive_moves(position)
            assert ENGINE.is_over(before) == naive_over(position)
            if after is not None:
                position = naive_play(position, ENGINE.to_dict(after)["history"][-1])


# seed -> (the first ten moves of a game, {winner: number of complete games from there}):
# every game to its end, so passes, fish refusals, wins and blocks are all counted.
ENDGAMES = {
    0: (
        ["0-0", "0-5", "5-1", "1-6", "6-5", "5-4", "4-2", "2-3", "3-3", "3-4"],
        {None: 66, 0: 4, 1: 83},
    ),
    1: (
        ["0-0", "0-1", "1-5", "5-0", "0-6", "6-4", "4-4", "4-2", "2-3", "3-0"],
        {None: 608, 0: 428, 1: 40},
    ),
    2: (
        ["0-0", "0-2", "2-1", "1-6", "6-0", "0-5", "5-2", "2-4", "4-1", "1-3"],
        {None: 2442, 0: 164, 1: 561},
    ),
}


def outcomes(state: KugamaiState, counts: dict) -> dict:
    codes = ENGINE.legal_codes(state)
    if not codes:
        winner = ENGINE.result(state)["winner"]
        counts[winner] = counts.get(winner, 0) + 1
    for code in codes:
        ENGINE.push(state, code)
        outcomes(state, counts)
        ENGINE.pop(state)
    return counts


def naive_outcomes(position: Position, counts: dict) -> dict:
    moves = naive_moves(position)
    if not moves:
        winners = [
            seat
            for seat in (0, 1)
            if not (LOW if seat == position["low"] else HIGH) & set(position["hands"][seat])
        ]
        winner = winners[0] if winners else None
        counts[winner] = counts.get(winner, 0) + 1
    for move in moves:
        naive_outcomes(naive_play(position, move), counts)
    return counts


@pytest.mark.parametrize("seed", sorted(ENDGAMES))
def test_every_game_to_the_end_from_fixed_openings(seed):
    opening, expected = ENDGAMES[seed]
    state = ENGINE.new_game(seed=seed)
    position = naive_start(seed)
    for move in opening:
        ENGINE.push(state, move)
        position = naive_play(position, move)
    assert outcomes(state, {}) == expected
    assert naive_outcomes(position, {}) == expected
