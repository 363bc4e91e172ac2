"""Round robin pairings from the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Entrants are numbered 1..n (their pairing numbers, drawn by lot). A pairing is a tuple
``(first, second)``: the entrant named first makes the first move (plays "white").

How the published tables are built, for an even count ``n`` (an odd count adds a dummy
``n + 1``; the entrant paired with the dummy has the bye):

- entrant ``n`` sits at board 1 every round; the others rotate;
- the entrant meeting ``n`` in round ``r`` is ``a_r = 1 + (r - 1) * n / 2`` reduced into
  ``1..n-1``; it moves first in odd rounds, ``n`` moves first in even rounds;
- the other boards, in order, pair ``a_r + k`` (first move) with ``a_r - k``, both reduced
  into ``1..n-1``, for ``k = 1 .. n/2 - 1``.

With an odd count the entrant paired with the dummy **rests** that round. FIDE scores a
rest round 0 (:data:`REST_ROUND_POINTS`) and its tie-breaks treat it as unplayed (C.07,
15.2: no opponent, no game); it is not a Swiss pairing-allocated bye, which scores a win.

For a double round robin the second cycle repeats the first with the first move
reversed. FIDE recommends exchanging the last two rounds of the first cycle, so that
nobody gets the same colour three times running at the turn of the cycles; that is the
default here (``swap_last_two``).

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger_rounds(3)[0]
[(1, 0), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence

BYE = 0
"""Stands for "no opponent" in a pairing: ``(x, BYE)`` means entrant ``x`` has the bye."""

REST_ROUND_POINTS = 0.0
"""What a round robin's rest round (the bye of an odd count) scores by default (FIDE)."""

Pairing = tuple[int, int]
Round = list[Pairing]


class RoundRobinError(ValueError):
    """A round robin cannot be built from the given parameters."""


def _table_size(entrants: int) -> int:
    if isinstance(entrants, bool) or not isinstance(entrants, int):
        raise RoundRobinError(f"the number of entrants must be a whole number, got {entrants!r}")
    if entrants < 2:
        raise RoundRobinError(f"a round robin needs at least 2 entrants, got {entrants}")
    return entrants + entrants % 2


def berger_table(size: int) -> list[Round]:
    """The Berger table for an even ``size``, dummy included (one cycle, ``size - 1`` rounds)."""
    if size < 2 or size % 2:
        raise RoundRobinError(f"a Berger table has an even size of at least 2, got {size}")
    others = size - 1
    half = size // 2

    def reduce(number: int) -> int:
        return (number - 1) % others + 1

    rounds: list[Round] = []
    for round_number in range(1, size):
        anchor = reduce(1 + (round_number - 1) * half)
        board_one = (anchor, size) if round_number % 2 else (size, anchor)
        pairings = [board_one]
        pairings.extend((reduce(anchor + k), reduce(anchor - k)) for k in range(1, half))
        rounds.append(pairings)
    return rounds


def berger_rounds(
    entrants: int, double: bool = False, swap_last_two: bool | None = None
) -> list[Round]:
    """All rounds of a single (or double) round robin for ``entrants`` entrants.

    Each round lists its boards in the order of the published table. With an odd
    count, the pairing with the dummy appears as ``(x, BYE)`` on board 1.
    ``swap_last_two`` (default: on for a double round robin, off for a single one)
    exchanges the last two rounds of the first cycle, as FIDE recommends for double
    round robins.
    """
    size = _table_size(entrants)
    cycle = berger_table(size)
    if entrants % 2:
        cycle = [[_as_bye(pairing, size) for pairing in round_] for round_ in cycle]
    if swap_last_two is None:
        swap_last_two = double
    first_cycle = list(cycle)
    if swap_last_two and len(first_cycle) >= 2:
        first_cycle[-2], first_cycle[-1] = first_cycle[-1], first_cycle[-2]
    if not double:
        return first_cycle
    second_cycle = [[_reversed(pairing) for pairing in round_] for round_ in cycle]
    return first_cycle + second_cycle


def round_robin_schedule[T](
    entrants: Sequence[T], double: bool = False, swap_last_two: bool | None = None
) -> list[list[tuple[T, T | None]]]:
    """The Berger rounds with entrants in place of numbers (``entrants[0]`` is number 1).

    A bye is ``(entrant, None)``.

    >>> round_robin_schedule(["ann", "bob", "cy"])[0]
    [('ann', None), ('bob', 'cy')]
    """
    rounds = berger_rounds(len(entrants), double=double, swap_last_two=swap_last_two)
    return [
        [
            (entrants[first - 1], None if second == BYE else entrants[second - 1])
            for first, second in round_
        ]
        for round_ in rounds
    ]


def rounds_count(entrants: int, double: bool = False) -> int:
    """How many rounds the round robin lasts."""
    per_cycle = _table_size(entrants) - 1
    return per_cycle * (2 if double else 1)


def bye_in_round(rounds: list[Round], round_number: int) -> int | None:
    """The entrant with the bye in round ``round_number`` (1-based), or None."""
    if not 1 <= round_number <= len(rounds):
        raise RoundRobinError(f"round {round_number} does not exist (1..{len(rounds)})")
    for first, second in rounds[round_number - 1]:
        if second == BYE:
            return first
        if first == BYE:
            return second
    return None


def _as_bye(pairing: Pairing, dummy: int) -> Pairing:
    first, second = pairing
    if first == dummy:
        return (second, BYE)
    if second == dummy:
        return (first, BYE)
    return pairing


def _reversed(pairing: Pairing) -> Pairing:
    first, second = pairing
    if BYE in pairing:
        return pairing
    return (second, first)
