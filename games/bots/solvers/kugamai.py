"""Exact Kugamai solver: after the deal both hands are known, so play can be perfect.

A position is ``(hand of the seat to move, hand of the other seat, open end)``: every
tile is in a hand or on the table, so the counts per value (and with them the fish ban)
and the doubles left follow from the two hand masks. :func:`negamax` gives the value for
the seat to move, +1 (a win), 0 (a draw) or -1 (a loss) under perfect play, memoised in
a transposition table; it stops at the first winning move.
"""

from __future__ import annotations

import time

from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import OPENING, PASS, SUBSET_VALUES, TILE_MASK

WIN, DRAW, LOSS = 1, 0, -1
#: Own doubles 1-1..6-6 (0-0 is no one's double).
DOUBLES = sum(TILE_MASK[v * 8] for v in range(1, 7))
_LAY = tuple(tuple(TILE_MASK[end * 7 + w] for w in range(7)) for end in range(7))
_SHIFT = tuple(7 * v for v in range(7))
#: New positions between two looks at the clock when a deadline is set.
CLOCK_EVERY = 1024


class SolverLimitError(Exception):
    """The search went past its node limit or deadline (raised only when one is set)."""


class KugamaiSolver:
    """Memoised negamax; ``node_limit`` (if set) bounds the new positions one call may
    visit, and so does ``deadline`` (a :func:`time.thread_time` value) when set. The table
    is kept between calls, so a game gets faster as it goes."""

    def __init__(self, node_limit: int | None = None) -> None:
        self.table: dict[tuple[int, int, int], int] = {}
        self.node_limit = node_limit
        self.deadline: float | None = None
        self.nodes = 0

    def negamax(self, cur: int, oth: int, end: int) -> int:
        key = (cur, oth, end)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SolverLimitError
        if (
            self.deadline is not None
            and not self.nodes % CLOCK_EVERY
            and time.thread_time() > self.deadline
        ):
            raise SolverLimitError
        both = cur | oth
        safe = 0
        for value in range(7):
            if ((both >> _SHIFT[value]) & 127).bit_count() >= 2:
                safe |= 1 << value
        playable = (cur >> _SHIFT[end]) & safe
        if not playable:
            opponent_plays = (oth >> _SHIFT[end]) & safe
            best = -self.negamax(oth, cur, end) if opponent_plays else DRAW
        else:
            best = LOSS
            lay = _LAY[end]
            if playable >> end & 1:
                after = cur ^ lay[end]
                if not after & DOUBLES:
                    self.table[key] = WIN
                    return WIN
            for value in _ordered(playable, end):
                score = -self.negamax(oth, cur ^ lay[value], value)
                if score > best:
                    best = score
                    if best == WIN:
                        break
        self.table[key] = best
        return best

    def solve(self, state: KugamaiState) -> int:
        """The value of ``state`` for the seat to move: 1 won, 0 drawn, -1 lost."""
        return self.best(state)[0]

    def move_values(self, state: KugamaiState) -> dict[int, int]:
        """The value of every legal move code for the seat to move (1 won, 0 drawn, -1
        lost, under perfect play after it); empty when the game is over."""
        mover = state.to_move
        cur, oth = state.hands[mover], state.hands[1 - mover]
        if 0 in state.doubles_left:
            return {}
        if state.end < 0:
            return {OPENING: -self.negamax(oth, cur ^ TILE_MASK[OPENING], 0)}
        end = state.end
        playable = (cur >> _SHIFT[end]) & _safe_values(cur | oth)
        if not playable:
            if (oth >> _SHIFT[end]) & _safe_values(cur | oth):
                return {PASS: -self.negamax(oth, cur, end)}
            return {}
        values: dict[int, int] = {}
        for value in _ordered(playable, end):
            after = cur ^ _LAY[end][value]
            if value == end and not after & DOUBLES:
                values[end * 7 + value] = WIN
            else:
                values[end * 7 + value] = -self.negamax(oth, after, value)
        return values

    def best(self, state: KugamaiState) -> tuple[int, int | None]:
        """(value for the seat to move, a best move code or ``None`` if over)."""
        mover = state.to_move
        cur, oth = state.hands[mover], state.hands[1 - mover]
        if 0 in state.doubles_left:
            return (WIN if state.doubles_left[mover] == 0 else LOSS), None
        if state.end < 0:
            return -self.negamax(oth, cur ^ TILE_MASK[OPENING], 0), OPENING
        end = state.end
        safe = _safe_values(cur | oth)
        playable = (cur >> _SHIFT[end]) & safe
        if not playable:
            if (oth >> _SHIFT[end]) & safe:
                return -self.negamax(oth, cur, end), PASS
            return DRAW, None
        best, best_move = LOSS - 1, None
        for value in _ordered(playable, end):
            after = cur ^ _LAY[end][value]
            if value == end and not after & DOUBLES:
                return WIN, end * 8
            score = -self.negamax(oth, after, value)
            if score > best:
                best, best_move = score, end * 7 + value
                if best == WIN:
                    break
        return best, best_move


def _safe_values(tiles: int) -> int:
    """The values (bit set) with at least two of their tiles in ``tiles``: laying one
    of them cannot make a fish."""
    return sum(1 << v for v in range(7) if ((tiles >> _SHIFT[v]) & 127).bit_count() >= 2)


def _ordered(playable: int, end: int) -> tuple[int, ...]:
    """Values to try: the double first (it brings the win nearer)."""
    values = SUBSET_VALUES[playable]
    if playable >> end & 1:
        return (end, *(v for v in values if v != end))
    return values


def solve(state: KugamaiState) -> int:
    """The game value of a Kugamai position for the seat to move (1, 0 or -1)."""
    return KugamaiSolver().solve(state)
