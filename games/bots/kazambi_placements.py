"""Kazambi placements packed in one int per tile, and what each placement leaves of every
tile's: the endgame solver and the burn policy count and sample placements with them.

A tile's placements on a board are four masks of the cells where its first cell may lie
(across with ``a`` left, across with ``b`` left, down with ``a`` on top, down with ``b``
on top; a double uses the first and third), packed side by side. Packing needs the
masks once; after that, a placement's effect on any tile is one AND with what the
placement keeps of it, and a tile's placement count is a bit count.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from games.engines.kazambi.board import geometry
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove

#: A placement: (cell X, cell Y, value on X, value on Y, tile id).
Placement = tuple[int, int, int, int, int]
#: A placement and, by tile, what it keeps of that tile's packed placements.
Entry = tuple[Placement, tuple[int, ...]]

_VALUE_A = tuple(a for a, _ in TILE_VALUES)
_VALUE_B = tuple(b for _, b in TILE_VALUES)
_VALUES = max(_VALUE_B) + 1


class BoardPlacements:
    """A board's placements: each tile's packed (:meth:`packed`, ``size`` bits a slot, its
    bits in the order the searches rank placements), and by packed bit each placement
    with, for every tile, the mask of the packed placements it leaves (:meth:`entries`)."""

    def __init__(self, cols: int, size: int, lines: Sequence[int]) -> None:
        self.cols = cols
        self.size = size
        self._entries: dict[int, dict[int, Entry]] = {}
        pack = self._pack
        #: ``taken[2 * X + down]``: the placements that need cell X or its partner.
        self._taken = tuple(
            pack(taken | taken >> 1, taken | taken >> 1, taken | taken >> cols,
                 taken | taken >> cols)
            for cell in range(size) for step in (1, cols)
            for taken in [(1 << cell) | (1 << (cell + step))]
        )
        #: ``_line_lost[tile][value][cell]``: the tile's packed placements lost when
        #: ``value`` may no longer lie on the lines through ``cell`` (none for a value
        #: not on the tile).
        nothing = (0,) * size
        self._line_lost = tuple(
            tuple(
                tuple(pack(line | line >> 1, 0, line | line >> cols, 0) for line in lines)
                if value == a == b else
                tuple(pack(line, line >> 1, line, line >> cols) for line in lines)
                if value == a else
                tuple(pack(line >> 1, line, line >> cols, line) for line in lines)
                if value == b else nothing
                for value in range(_VALUES)
            )
            for a, b in TILE_VALUES
        )

    def _pack(self, across_ab: int, across_ba: int, down_ab: int, down_ba: int) -> int:
        size = self.size
        return across_ab | across_ba << size | down_ab << 2 * size | down_ba << 3 * size

    def packed(self, allowed: Sequence[int], tile: int, not_last_col: int) -> int:
        """``tile``'s placements on ``allowed``, packed."""
        cols, size = self.cols, self.size
        a = _VALUE_A[tile]
        mask_a = allowed[a]
        if a == _VALUE_B[tile]:
            return (mask_a & (mask_a >> 1) & not_last_col
                    | (mask_a & (mask_a >> cols)) << 2 * size)
        mask_b = allowed[_VALUE_B[tile]]
        return (mask_a & (mask_b >> 1) & not_last_col
                | (mask_b & (mask_a >> 1) & not_last_col) << size
                | (mask_a & (mask_b >> cols)) << 2 * size
                | (mask_b & (mask_a >> cols)) << 3 * size)

    def entries(self, tile: int) -> dict[int, Entry]:
        """``tile``'s placements by packed bit: (placement, what it keeps of each tile's
        packed placements); made on first use."""
        found = self._entries.get(tile)
        if found is None:
            found = self._entries[tile] = self._make_entries(tile)
        return found

    def each(self, tile: int, packed: int) -> Iterator[Entry]:
        """The entries of ``tile``'s placements in ``packed``, in packed-bit order."""
        entries = self.entries(tile)
        while packed:
            bit = packed & -packed
            packed ^= bit
            yield entries[bit.bit_length() - 1]

    def entry_of(self, move: KazambiMove) -> Entry:
        """The entry of ``move`` (a placement on this board)."""
        tile = move.tile
        slot = 2 * move.vertical + (move.value_x != _VALUE_A[tile])
        return self.entries(tile)[slot * self.size + move.row * self.cols + move.col]

    def _make_entries(self, tile: int) -> dict[int, Entry]:
        cols, size = self.cols, self.size
        a, b = TILE_VALUES[tile]
        found: dict[int, Entry] = {}
        for index in range(4 * size):
            slot, cell_x = divmod(index, size)
            step = 1 if slot < 2 else cols
            cell_y = cell_x + step
            if cell_y >= size or (step == 1 and cell_x % cols == cols - 1):
                continue
            if a == b and slot % 2:
                continue
            value_x, value_y = (a, b) if slot % 2 == 0 else (b, a)
            taken = self._taken[2 * cell_x + (step != 1)]
            found[index] = ((cell_x, cell_y, value_x, value_y, tile), tuple(
                ~(taken | lost[value_x][cell_x] | lost[value_y][cell_y])
                for lost in self._line_lost
            ))
        return found


@cache
def board_placements(rows: int, cols: int) -> BoardPlacements:
    """The (shared) :class:`BoardPlacements` of a ``rows`` x ``cols`` board."""
    board = geometry(rows, cols)
    return BoardPlacements(cols, board.size, board.lines)


def place(allowed: Sequence[int], lines: Sequence[int], move: Placement) -> list[int]:
    """The masks after ``move``: its cells taken from every value, its values from the
    lines through their cells."""
    cell_x, cell_y, value_x, value_y, _ = move
    keep = ~((1 << cell_x) | (1 << cell_y))
    after = [mask & keep for mask in allowed]
    after[value_x] &= ~lines[cell_x]
    after[value_y] &= ~lines[cell_y]
    return after
