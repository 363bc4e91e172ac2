"""Board geometry as bit masks: cell ``row * cols + col`` is bit ``row * cols + col``.

Everything a move generator needs is a precomputed mask, built once per board size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from games.engines.kazambi.notation import KazambiMove, cell_text


@dataclass(frozen=True, slots=True)
class Geometry:
    """Masks of a ``rows`` x ``cols`` board."""

    rows: int
    cols: int
    size: int
    #: Every cell of the board.
    full: int
    #: Every cell but those of the last column: where a horizontal tile's left half may lie.
    not_last_col: int
    #: ``lines[cell]``: the cells of the row and of the column through ``cell``.
    lines: tuple[int, ...]
    #: ``cell_names[cell]``: ``"a1"``, ``"b1"``, ...
    cell_names: tuple[str, ...]
    #: Move objects by code (see :mod:`.codes`), made once when first asked for.
    moves: dict[int, KazambiMove] = field(default_factory=dict, compare=False, repr=False)
    #: Codes by canonical move text, kept as texts are read or written.
    codes: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def row_of(self, cell: int) -> int:
        return cell // self.cols

    def col_of(self, cell: int) -> int:
        return cell % self.cols


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """The (shared, immutable) geometry of a ``rows`` x ``cols`` board."""
    size = rows * cols
    row_masks = [((1 << cols) - 1) << (row * cols) for row in range(rows)]
    col_masks = [sum(1 << (row * cols + col) for row in range(rows)) for col in range(cols)]
    full = (1 << size) - 1
    return Geometry(
        rows=rows,
        cols=cols,
        size=size,
        full=full,
        not_last_col=full & ~col_masks[cols - 1],
        lines=tuple(row_masks[cell // cols] | col_masks[cell % cols] for cell in range(size)),
        cell_names=tuple(cell_text(cell // cols, cell % cols) for cell in range(size)),
    )
