"""The Kugamai deal: doubles out, three to each player, the other 22 tiles split 11/11."""

from __future__ import annotations

import random

from games.engines.kugamai.tiles import (
    ALL_TILES,
    HIGH_DOUBLES_MASK,
    LOW_DOUBLES_MASK,
    TILE_MASK,
)

#: The 22 tiles that are shuffled and dealt: every tile but the six doubles 1-1..6-6.
SHUFFLED_TILES = tuple((a, b) for a, b in ALL_TILES if a != b or a == 0)
SHUFFLED_MASK = sum(TILE_MASK[a * 7 + b] for a, b in SHUFFLED_TILES)
_DEALT = 11


def _half_masks(first: int) -> tuple[int, ...]:
    """Hand masks of every subset of the 11 shuffled tiles from index ``first`` on."""
    masks = []
    for subset in range(1 << _DEALT):
        mask = 0
        for i in range(_DEALT):
            if subset >> i & 1:
                a, b = SHUFFLED_TILES[first + i]
                mask |= TILE_MASK[a * 7 + b]
        masks.append(mask)
    return tuple(masks)


_LOWER_HALF = _half_masks(0)
_UPPER_HALF = _half_masks(_DEALT)


def draw_deal(rng: random.Random, low_doubles_seat: int | None = None) -> tuple[int, int, int]:
    """``(low_doubles_seat, hand of seat 0, hand of seat 1)`` drawn from ``rng``.

    The seat taking the low doubles is drawn by lot (one random bit) unless given. The 22
    shuffled tiles are split by a uniformly random 22-bit word with eleven bits set (drawn
    by rejection): seat 0 gets the tiles whose bit is set, which deals exactly like a
    shuffle and an 11/11 deal, at a fraction of the cost.
    """
    getrandbits = rng.getrandbits
    low = getrandbits(1) if low_doubles_seat is None else low_doubles_seat
    while True:
        split = getrandbits(22)
        if split.bit_count() == _DEALT:
            break
    seat0 = _LOWER_HALF[split & 2047] | _UPPER_HALF[split >> _DEALT]
    seat1 = SHUFFLED_MASK ^ seat0
    if low == 0:
        return low, seat0 | LOW_DOUBLES_MASK, seat1 | HIGH_DOUBLES_MASK
    return low, seat0 | HIGH_DOUBLES_MASK, seat1 | LOW_DOUBLES_MASK
