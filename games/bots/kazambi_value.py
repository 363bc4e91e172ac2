"""A learned guess of who wins a Kazambi position, for the ends of short playouts.

The guess is a logistic model over a few counts, from the seat to move's side:

- each seat's live tiles, binned by how many placements the tile has (1, 2, 3-4, 5-8,
  9-16, 17-32, more): a tile with few placements is easy to burn;
- the live tiles both seats hold;
- each seat's *overdemand*: for every value, how many more halves of that value its live
  tiles hold than cells remain where the value may lie, summed over the values (those
  tiles cannot all be played, whatever the opponent does).

:data:`WEIGHTS` were fitted by ``bench/fit_kazambi_value.py`` on positions from greedy
self-play on the 7x8 board (two seats, not misère), labelled by the game's winner; the
model is used where it was fitted (see ``SHORT_PLAYOUTS`` in :mod:`games.bots.mcts`).
:func:`features` is the readable definition; :func:`leaf_value` computes the same value
inline, as playouts need it fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import TILE_VALUES
from games.engines.kazambi.rules import placement_masks

#: Upper ends of the placement-count bins (the last bin is open).
BIN_LIMITS = (1, 2, 4, 8, 16, 32)
BINS = len(BIN_LIMITS) + 1
#: Feature order: intercept, the mover's bins, the next seat's bins, shared live tiles,
#: the mover's overdemand, the next seat's overdemand.
WEIGHTS: tuple[float, ...] = (
    0.0162,
    0.7048, 0.6766, 0.6896, 0.6314, 0.6760, 0.7855, 1.0989,
    -0.5889, -0.6234, -0.6781, -0.6800, -0.7528, -0.8555, -1.1615,
    0.0348,
    -0.7626, 0.6677,
)
_MOVER_BINS = 1
_NEXT_BINS = _MOVER_BINS + BINS
_SHARED = _NEXT_BINS + BINS
_MOVER_OVER = _SHARED + 1
_NEXT_OVER = _MOVER_OVER + 1


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
    return values


def leaf_value(
    geometry: Geometry, allowed: list[int], mover_tiles: Sequence[int], next_tiles: Sequence[int]
) -> float:
    """The chance that the seat to move wins: the logistic of :data:`WEIGHTS` times
    :func:`features`, computed inline."""
    weights = WEIGHTS
    cols, not_last_col = geometry.cols, geometry.not_last_col
    limits = BIN_LIMITS
    last_bin = len(limits)
    z = weights[0]
    mover_live = 0
    shared = 0
    for first_bin, over_weight, tiles, is_mover in (
        (_MOVER_BINS, weights[_MOVER_OVER], mover_tiles, True),
        (_NEXT_BINS, weights[_NEXT_OVER], next_tiles, False),
    ):
        demand = [0] * 7
        for tile in tiles:
            a, b = TILE_VALUES[tile]
            mask_a = allowed[a]
            if a == b:
                count = (mask_a & (mask_a >> 1) & not_last_col).bit_count() + (
                    mask_a & (mask_a >> cols)
                ).bit_count()
            else:
                mask_b = allowed[b]
                count = (
                    (mask_a & (mask_b >> 1) & not_last_col).bit_count()
                    + (mask_b & (mask_a >> 1) & not_last_col).bit_count()
                    + (mask_a & (mask_b >> cols)).bit_count()
                    + (mask_b & (mask_a >> cols)).bit_count()
                )
            if not count:
                continue
            if is_mover:
                mover_live |= 1 << tile
            elif mover_live >> tile & 1:
                shared += 1
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
    z += weights[_SHARED] * shared
    return 1.0 / (1.0 + math.exp(-z))
