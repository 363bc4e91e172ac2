"""Kugamai make/unmake on move codes, and the check of one move without the others.

The legal codes of a position are those of ``CODES[end][playable]`` (``playable``: the
7-bit set of values ``w`` such that tile ``end-w`` is in hand and ``w`` is no fish), a
pass when none is playable but the other seat can play, and none once a seat has placed
its doubles or neither seat can play.
"""

from __future__ import annotations

from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT, OPENING, PASS, SUBSET_VALUES, TILE_MASK

#: ``CODES[end][playable]``: the codes laying ``end-w`` for each ``w`` of ``playable``.
CODES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(end * 7 + w for w in SUBSET_VALUES[playable]) for playable in range(128))
    for end in range(7)
)
#: The code of each canonical move text.
CODE_OF_TEXT: dict[str, int] = {text: code for code, text in enumerate(MOVE_TEXT)}


def is_legal_code(state: KugamaiState, code: int) -> bool:
    """Whether ``code`` (0..PASS) is a legal move for the seat to move."""
    end = state.end
    if end < 0:
        return code == OPENING
    if 0 in state.doubles_left:
        return False
    mover = state.to_move
    if code == PASS:
        safe = state.safe
        hands = state.hands
        return not (hands[mover] >> 7 * end) & safe and bool((hands[1 - mover] >> 7 * end) & safe)
    return (
        code // 7 == end
        and bool(state.hands[mover] >> code & 1)
        and bool(state.safe >> code % 7 & 1)
    )


def push_code(state: KugamaiState, code: int) -> None:
    """Make the legal move ``code`` in place (no checks)."""
    mover = state.to_move
    state.history.append(code)
    state.to_move = 1 - mover
    if code == PASS:
        return
    state.hands[mover] ^= TILE_MASK[code]
    state.chain.append(code)
    remaining = state.remaining
    new_end = _NEW_END[code]
    left = remaining[new_end] = remaining[new_end] - 1
    if left < 2:
        state.safe &= ~(1 << new_end)
    end = _END[code]
    if end != new_end:
        left = remaining[end] = remaining[end] - 1
        if left < 2:
            state.safe &= ~(1 << end)
    elif code != OPENING:
        state.doubles_left[mover] -= 1
    state.end = new_end


_END = tuple(code // 7 for code in range(49))
_NEW_END = tuple(code % 7 for code in range(49))
