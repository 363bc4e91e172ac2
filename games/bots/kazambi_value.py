"""A learned guess of who wins a Kazambi position, for the ends of short playouts.

The guess is a logistic model over a few counts, from the seat to move's side:

- each seat's live tiles, binned by how many placements the tile has (1, 2, 3-4, 5-8,
  9-16, 17-32, more): a tile with few placements is easy to burn;
- the live tiles both seats hold;
- each seat's *overdemand*: for every value, how many more halves of that value its live
  tiles hold than cells remain where the value may lie, summed over the values (those
  tiles cannot all be played, whatever the opponent does);
- the tempo: with L and L' the live tiles of the mover and of the next seat and
  ``late = max(0, 24 - L - L') / 24``, the flag ``ahead = [L > L']``, ``ahead * late``
  and ``(L - L') * late``. Were nothing burnt any more, the mover would win exactly when
  ahead, and burning gets rarer as the board fills.

:data:`WEIGHTS` were fitted by ``bench/fit_kazambi_value.py`` on positions from greedy
self-play on the 7x8 board (two seats, not misère), labelled by the game's winner; the
model is used where it was fitted (see ``SHORT_PLAYOUTS`` in :mod:`games.bots.mcts`).
:func:`features` is the readable definition; :func:`leaf_value` computes the same value
inline, as playouts need it fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.bots.kazambi_placements import board_placements
from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import TILE_VALUES
from games.engines.kazambi.rules import placement_masks

#: Upper ends of the placement-count bins (the last bin is open).
BIN_LIMITS = (1, 2, 4, 8, 16, 32)
BINS = len(BIN_LIMITS) + 1
#: Live tiles of both seats together below which the tempo features count (``late``).
LATE_TILES = 24
#: Feature order: intercept, the mover's bins, the next seat's bins, shared live tiles,
#: the mover's overdemand, the next seat's overdemand, ahead, ahead * late,
#: (L - L') * late.
WEIGHTS: tuple[float, ...] = (
    -0.7097,
    -1.0117, -0.8741, -0.7781, -0.7058, -0.5546, -0.3157, 0.0289,
    1.2468, 1.0547, 0.9123, 0.7623, 0.5819, 0.3499, 0.0095,
    0.0183,
    -0.2848, 0.1112,
    0.1875, 0.7070, 2.4128,
)
_MOVER_BINS = 1
_NEXT_BINS = _MOVER_BINS + BINS
_SHARED = _NEXT_BINS + BINS
_MOVER_OVER = _SHARED + 1
_NEXT_OVER = _MOVER_OVER + 1
_AHEAD = _NEXT_OVER + 1
_AHEAD_LATE = _AHEAD + 1
_MARGIN_LATE = _AHEAD_LATE + 1


def placement_bin(count: int) -> int:
    """The bin of a live tile with ``count`` placements."""
    for index, limit in enumerate(BIN_LIMITS):
        if count <= limit:
            return index
    return len(BIN_LIMITS)


def features(
    geometry: Geometry, allowed: list[int], mover_tiles: Sequence[int], next_tiles: Sequence[int]
) -> list[float]:
    """The model's inputs for the seat to move holding ``mover_tiles`` and the next seat
    holding ``next_tiles`` (tile ids; burnt ones are ignored), in :data:`WEIGHTS` order."""
    values = [0.0] * len(WEIGHTS)
    values[0] = 1.0
    live_sets: list[set[int]] = []
    for first_bin, over_index, tiles in (
        (_MOVER_BINS, _MOVER_OVER, mover_tiles),
        (_NEXT_BINS, _NEXT_OVER, next_tiles),
    ):
        demand = [0] * 7
        live = set()
        for tile in tiles:
            count = sum(mask.bit_count() for mask in placement_masks(geometry, allowed, tile))
            if not count:
                continue
            live.add(tile)
            values[first_bin + placement_bin(count)] += 1
            a, b = TILE_VALUES[tile]
            demand[a] += 1
            demand[b] += 1
        values[over_index] = sum(
            max(0, demand[value] - allowed[value].bit_count()) for value in range(7)
        )
        live_sets.append(live)
    values[_SHARED] = len(live_sets[0] & live_sets[1])
    margin = len(live_sets[0]) - len(live_sets[1])
    late = max(0, LATE_TILES - len(live_sets[0]) - len(live_sets[1])) / LATE_TILES
    ahead = 1.0 if margin > 0 else 0.0
    values[_AHEAD] = ahead
    values[_AHEAD_LATE] = ahead * late
    values[_MARGIN_LATE] = margin * late
    return values


def leaf_value(
    geometry: Geometry, allowed: list[int], mover_tiles: Sequence[int], next_tiles: Sequence[int]
) -> float:
    """The chance that the seat to move wins: the logistic of :data:`WEIGHTS` times
    :func:`features`, computed inline (:func:`counted_leaf_value`)."""
    placements = board_placements(geometry.rows, geometry.cols)
    not_last_col = geometry.not_last_col

    def counted(tiles: Sequence[int]) -> list[tuple[int, int]]:
        return [(tile, placements.packed(allowed, tile, not_last_col).bit_count())
                for tile in tiles]

    return counted_leaf_value(allowed, counted(mover_tiles), counted(next_tiles))


def counted_leaf_value(
    allowed: list[int], mover_tiles: Sequence[tuple[int, int]],
    next_tiles: Sequence[tuple[int, int]],
) -> float:
    """:func:`leaf_value` of tiles given with their placement counts, ``(tile, count)``
    (the playouts keep the counts)."""
    weights = WEIGHTS
    limits = BIN_LIMITS
    last_bin = len(limits)
    z = weights[0]
    mover_live = 0
    shared = 0
    live_counts: list[int] = []
    for first_bin, over_weight, tiles, is_mover in (
        (_MOVER_BINS, weights[_MOVER_OVER], mover_tiles, True),
        (_NEXT_BINS, weights[_NEXT_OVER], next_tiles, False),
    ):
        demand = [0] * 7
        live_count = 0
        for tile, count in tiles:
            if not count:
                continue
            live_count += 1
            if is_mover:
                mover_live |= 1 << tile
            elif mover_live >> tile & 1:
                shared += 1
            a, b = TILE_VALUES[tile]
            demand[a] += 1
            demand[b] += 1
            index = 0
            while index < last_bin and count > limits[index]:
                index += 1
            z += weights[first_bin + index]
        over = 0
        for value in range(7):
            extra = demand[value] - allowed[value].bit_count()
            if extra > 0:
                over += extra
        z += over_weight * over
        live_counts.append(live_count)
    z += weights[_SHARED] * shared
    mover_count, next_count = live_counts
    margin = mover_count - next_count
    remaining = LATE_TILES - mover_count - next_count
    late = remaining / LATE_TILES if remaining > 0 else 0.0
    if margin > 0:
        z += weights[_AHEAD] + weights[_AHEAD_LATE] * late
    z += weights[_MARGIN_LATE] * margin * late
    return 1.0 / (1.0 + math.exp(-z))
