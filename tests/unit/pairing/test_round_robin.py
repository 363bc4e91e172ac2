"""Golden tests: the Berger tables as published in FIDE Handbook C.05, Annex 1."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.pairing.round_robin import (
    BYE,
    RoundRobinError,
    berger_rounds,
    berger_table,
    bye_in_round,
    round_robin_schedule,
    rounds_count,
)


def parse(table: str) -> list[list[tuple[int, int]]]:
    """One round per line, boards as ``a-b`` separated by spaces (round number first)."""
    rounds = []
    for line in table.strip().splitlines():
        _, *boards = line.split()
        rounds.append([tuple(int(x) for x in board.split("-")) for board in boards])
    return rounds  # type: ignore[return-value]


PUBLISHED = {
    4: """
        1: 1-4 2-3
        2: 4-3 1-2
        3: 2-4 3-1
    """,
    6: """
        1: 1-6 2-5 3-4
        2: 6-4 5-3 1-2
        3: 2-6 3-1 4-5
        4: 6-5 1-4 2-3
        5: 3-6 4-2 5-1
    """,
    8: """
        1: 1-8 2-7 3-6 4-5
        2: 8-5 6-4 7-3 1-2
        3: 2-8 3-1 4-7 5-6
        4: 8-6 7-5 1-4 2-3
        5: 3-8 4-2 5-1 6-7
        6: 8-7 1-6 2-5 3-4
        7: 4-8 5-3 6-2 7-1
    """,
    10: """
        1: 1-10 2-9 3-8 4-7 5-6
        2: 10-6 7-5 8-4 9-3 1-2
        3: 2-10 3-1 4-9 5-8 6-7
        4: 10-7 8-6 9-5 1-4 2-3
        5: 3-10 4-2 5-1 6-9 7-8
        6: 10-8 9-7 1-6 2-5 3-4
        7: 4-10 5-3 6-2 7-1 8-9
        8: 10-9 1-8 2-7 3-6 4-5
        9: 5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1: 1-12 2-11 3-10 4-9 5-8 6-7
        2: 12-7 8-6 9-5 10-4 11-3 1-2
        3: 2-12 3-1 4-11 5-10 6-9 7-8
        4: 12-8 9-7 10-6 11-5 1-4 2-3
        5: 3-12 4-2 5-1 6-11 7-10 8-9
        6: 12-9 10-8 11-7 1-6 2-5 3-4
        7: 4-12 5-3 6-2 7-1 8-11 9-10
        8: 12-10 11-9 1-8 2-7 3-6 4-5
        9: 5-12 6-4 7-3 8-2 9-1 10-11
        10: 12-11 1-10 2-9 3-8 4-7 5-6
        11: 6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1: 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        2: 14-8 9-7 10-6 11-5 12-4 13-3 1-2
        3: 2-14 3-1 4-13 5-12 6-11 7-10 8-9
        4: 14-9 10-8 11-7 12-6 13-5 1-4 2-3
        5: 3-14 4-2 5-1 6-13 7-12 8-11 9-10
        6: 14-10 11-9 12-8 13-7 1-6 2-5 3-4
        7: 4-14 5-3 6-2 7-1 8-13 9-12 10-11
        8: 14-11 12-10 13-9 1-8 2-7 3-6 4-5
        9: 5-14 6-4 7-3 8-2 9-1 10-13 11-12
        10: 14-12 13-11 1-10 2-9 3-8 4-7 5-6
        11: 6-14 7-5 8-4 9-3 10-2 11-1 12-13
        12: 14-13 1-12 2-11 3-10 4-9 5-8 6-7
        13: 7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
}


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_table_matches_published(size: int) -> None:
    assert berger_table(size) == parse(PUBLISHED[size])
    assert berger_rounds(size) == parse(PUBLISHED[size])


@pytest.mark.parametrize("entrants", [5, 7, 9, 11])
def test_odd_count_uses_next_table_with_bye_for_highest_number(entrants: int) -> None:
    published = parse(PUBLISHED[entrants + 1])
    rounds = berger_rounds(entrants)
    assert len(rounds) == entrants
    for got, expected in zip(rounds, published, strict=True):
        dummy_board = next(b for b in expected if entrants + 1 in b)
        opponent = dummy_board[0] if dummy_board[1] == entrants + 1 else dummy_board[1]
        assert got[0] == (opponent, BYE)
        assert got[1:] == [b for b in expected if b != dummy_board]


@pytest.mark.parametrize("entrants", range(2, 25))
def test_everyone_meets_everyone_once(entrants: int) -> None:
    rounds = berger_rounds(entrants)
    assert len(rounds) == rounds_count(entrants)
    met = Counter(frozenset(p) for round_ in rounds for p in round_ if BYE not in p)
    assert len(met) == entrants * (entrants - 1) // 2
    assert set(met.values()) == {1}
    for round_ in rounds:
        seen = [x for p in round_ for x in p if x != BYE]
        assert sorted(seen) == list(range(1, entrants + 1))


@pytest.mark.parametrize("entrants", range(3, 21))
def test_byes_go_round_once_each(entrants: int) -> None:
    rounds = berger_rounds(entrants)
    byes = [bye_in_round(rounds, r) for r in range(1, len(rounds) + 1)]
    if entrants % 2:
        assert sorted(byes) == list(range(1, entrants + 1))  # type: ignore[type-var]
    else:
        assert byes == [None] * len(rounds)


@pytest.mark.parametrize("entrants", range(2, 17))
def test_colour_balance_single_cycle(entrants: int) -> None:
    firsts = Counter(p[0] for r in berger_rounds(entrants) for p in r if BYE not in p)
    games = entrants - 1
    for number in range(1, entrants + 1):
        assert abs(2 * firsts[number] - games) <= 1 + entrants % 2


def test_double_round_robin_swaps_last_two_rounds_and_reverses_second_cycle() -> None:
    single = berger_rounds(6)
    double = berger_rounds(6, double=True)
    assert len(double) == 10 == rounds_count(6, double=True)
    assert double[:3] == single[:3]
    assert double[3] == single[4] and double[4] == single[3]
    for original, reversed_ in zip(single, double[5:], strict=True):
        assert reversed_ == [(b, a) for a, b in original]


@pytest.mark.parametrize("entrants", range(3, 17))
def test_double_round_robin_has_no_three_same_colours_in_a_row_at_cycle_turn(
    entrants: int,
) -> None:
    rounds = berger_rounds(entrants, double=True)
    half = len(rounds) // 2
    for number in range(1, entrants + 1):
        colours = []
        for round_ in rounds[half - 2 : half + 2]:
            pairing = next((p for p in round_ if number in p), None)
            if pairing is None or BYE in pairing:
                colours.append("-")
            else:
                colours.append("W" if pairing[0] == number else "B")
        text = "".join(colours)
        assert "WWW" not in text and "BBB" not in text, (number, text)


def test_double_without_swap_keeps_published_order() -> None:
    double = berger_rounds(4, double=True, swap_last_two=False)
    assert double[:3] == parse(PUBLISHED[4])


def test_bye_stays_put_in_second_cycle() -> None:
    double = berger_rounds(3, double=True)
    assert [bye_in_round(double, r) for r in range(1, 7)] == [1, 2, 3, 1, 3, 2]


@pytest.mark.parametrize("bad", [0, 1, -4, 2.5, True, "8"])
def test_bad_entrant_counts_are_value_errors(bad: object) -> None:
    with pytest.raises(RoundRobinError):
        berger_rounds(bad)  # type: ignore[arg-type]


def test_bad_round_number() -> None:
    with pytest.raises(RoundRobinError, match="round 9"):
        bye_in_round(berger_rounds(4), 9)


def test_schedule_with_entrant_objects() -> None:
    schedule = round_robin_schedule(["ann", "bob", "cy", "dee"])
    assert schedule[1] == [("dee", "cy"), ("ann", "bob")]
    assert round_robin_schedule(["a", "b", "c"], double=True)[3][0] == ("a", None)
