"""Kazambi placements on the engine's bit masks, grouped for fast counting and sampling
(the playouts of the search adapter and of the burn policy share them)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engines.kazambi.notation import TILE_VALUES


def after_placement(
    allowed: Sequence[int], lines: Sequence[int], cell_x: int, cell_y: int, vx: int, vy: int
) -> list[int]:
    keep = ~((1 << cell_x) | (1 << cell_y))
    after = [mask & keep for mask in allowed]
    after[vx] &= ~lines[cell_x]
    after[vy] &= ~lines[cell_y]
    return after


def placement_groups(
    allowed: Sequence[int], tiles: Sequence[int], cols: int, not_last_col: int
) -> tuple[list[tuple[int, int, int, int, int]], int, list[int]]:
    """The placements of ``tiles`` grouped by tile and kind: ``(count, cell mask, cell
    step, value on X, value on Y)`` per group; their total; the tiles that fit."""
    groups: list[tuple[int, int, int, int, int]] = []
    total = 0
    live: list[int] = []
    for tile in tiles:
        a, b = TILE_VALUES[tile]
        mask_a = allowed[a]
        kinds: tuple[tuple[int, int, int, int], ...]
        if a == b:
            kinds = (
                (mask_a & (mask_a >> 1) & not_last_col, 1, a, a),
                (mask_a & (mask_a >> cols), cols, a, a),
            )
        else:
            mask_b = allowed[b]
            kinds = (
                (mask_a & (mask_b >> 1) & not_last_col, 1, a, b),
                (mask_b & (mask_a >> 1) & not_last_col, 1, b, a),
                (mask_a & (mask_b >> cols), cols, a, b),
                (mask_b & (mask_a >> cols), cols, b, a),
            )
        fits = False
        for mask, step, value_x, value_y in kinds:
            if mask:
                count = mask.bit_count()
                total += count
                groups.append((count, mask, step, value_x, value_y))
                fits = True
        if fits:
            live.append(tile)
    return groups, total, live


def nth_placement(
    groups: list[tuple[int, int, int, int, int]], index: int
) -> tuple[int, int, int, int]:
    """``(cell X, cell step, value on X, value on Y)`` of placement ``index``."""
    for count, mask, step, value_x, value_y in groups:
        if index < count:
            while index:
                mask &= mask - 1
                index -= 1
            return (mask & -mask).bit_length() - 1, step, value_x, value_y
        index -= count
    raise IndexError(index)  # not reached: index < total
