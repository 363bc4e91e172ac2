"""Kugamai make/unmake on move codes, and the check of one move without the others.

The legal codes of a position are those of ``CODES[end << 7 | playable]`` (``playable``: the
7-bit set of values ``w`` such that tile ``end-w`` is in hand and ``w`` is no fish), a
pass when none is playable but the other seat can play, and none once a seat has placed
its doubles or neither seat can play.
"""

from __future__ import annotations

from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT, OPENING, PASS, SUBSET_VALUES, TILE_MASK

#: ``CODES[end << 7 | playable]``: the codes laying ``end-w`` for each ``w`` of
#: ``playable``.
CODES: tuple[tuple[int, ...], ...] = tuple(
    tuple(end * 7 + w for w in SUBSET_VALUES[playable])
    for end in range(7)
    for playable in range(128)
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
    """Make the legal move ``code`` in place."""
    if code == PASS:
        state.history.append(code)
        state.to_move = 1 - state.to_move
    elif not push_tile(state, code):
        raise AssertionError(f"{MOVE_TEXT[code]} is not legal here")


def push_tile(state: KugamaiState, code: int) -> bool:
    """Lay the tile of move ``code`` (any int) in place if that is legal (the check of
    :func:`is_legal_code`, fused with the move for speed); say whether it was."""
    end = state.end
    mover = state.to_move
    hands = state.hands
    safe = state.safe
    if not (
        code >= 0
        and end == code // 7
        and hands[mover] >> code & 1
        and safe >> code % 7 & 1
        and 0 not in state.doubles_left
    ) and not (end < 0 and code == OPENING):
        return False
    state.history.append(code)
    state.to_move = 1 - mover
    hands[mover] ^= TILE_MASK[code]
    remaining = state.remaining
    new_end = code % 7
    remaining[new_end] -= 1
    if remaining[new_end] < 2:
        safe &= CLEAR[new_end]
    if end != new_end:
        if end >= 0:
            remaining[end] -= 1
            if remaining[end] < 2:
                safe &= CLEAR[end]
    elif code != OPENING:
        state.doubles_left[mover] -= 1
    state.safe = safe
    state.end = new_end
    return True


#: ``CLEAR[v]``: the 7-bit mask of every value but ``v``.
CLEAR = tuple(127 ^ 1 << value for value in range(7))
