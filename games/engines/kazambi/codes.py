"""Kazambi moves as small ints, and the legal moves of a position as a lazy sequence.

A placement's code is ``key << 8 | cell_x``, where ``cell_x`` is cell X (the left or upper
cell) and ``key = (value_x * 7 + value_y) * 2 + vertical``. Codes name cells, so they
belong to a board size; :func:`move_of` turns one into a :class:`KazambiMove` (interned
per board) and ``str`` of that gives the notation.

:class:`LegalCodes` holds, per tile that fits, how many placements it has, and the few
masks they come from: its length is known at once, its ``k``-th code is found by
counting bits, and nothing is built for the placements nobody asks for. Its order is that
of ``legal_moves`` (tile id, kind, cell).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove, tile_id
from games.engines.kazambi.state import KazambiState

CELL_BITS = 8
CELL_MASK = (1 << CELL_BITS) - 1
KEY_COUNT = 49 * 2
#: One more than the largest code.
CODE_LIMIT = KEY_COUNT << CELL_BITS

#: ``KEY_INFO[key] == (value_x, value_y, vertical, tile)``.
KEY_INFO: tuple[tuple[int, int, bool, int], ...] = tuple(
    (pair // 7, pair % 7, bool(vertical), tile_id(pair // 7, pair % 7))
    for pair in range(49)
    for vertical in (0, 1)
)


def _kind_bases(tile: int) -> tuple[int, int, int, int]:
    """The code of cell 0 for each kind (see :mod:`.rules`) of ``tile``."""
    a, b = TILE_VALUES[tile]
    return (
        (a * 7 + b) * 2 << CELL_BITS,
        (b * 7 + a) * 2 << CELL_BITS,
        ((a * 7 + b) * 2 + 1) << CELL_BITS,
        ((b * 7 + a) * 2 + 1) << CELL_BITS,
    )


#: ``KIND_BASES[tile][kind]``: the code of that kind of placement on cell 0.
KIND_BASES: tuple[tuple[int, int, int, int], ...] = tuple(
    _kind_bases(tile) for tile in range(len(TILE_VALUES))
)


def kth_bit(mask: int, k: int) -> int:
    """Index of the k-th (0-based) set bit of ``mask``, lowest first."""
    if k < 8:
        for _ in range(k):
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1
    position = 0
    width = 1 << (mask.bit_length() - 1).bit_length()
    while width > 1:
        width >>= 1
        low = mask & ((1 << width) - 1)
        count = low.bit_count()
        if k < count:
            mask = low
        else:
            k -= count
            mask >>= width
            position += width
    return position


def code_of(geometry: Geometry, move: KazambiMove) -> int | None:
    """The code of a well-formed ``move``; ``None`` if it lies off this board."""
    row_y, col_y = move.cell_y
    if row_y >= geometry.rows or col_y >= geometry.cols:
        return None
    key = (move.value_x * 7 + move.value_y) * 2 + move.vertical
    return key << CELL_BITS | (move.row * geometry.cols + move.col)


def on_board(geometry: Geometry, code: int) -> bool:
    """Whether ``code`` (0 <= code < CODE_LIMIT) names two cells of this board."""
    cell = code & CELL_MASK
    if code >> CELL_BITS & 1:
        return cell + geometry.cols < geometry.size
    return bool(geometry.not_last_col >> cell & 1)


def move_of(geometry: Geometry, code: int) -> KazambiMove:
    """The move object of a code of this board (the same object for the same code)."""
    move = geometry.moves.get(code)
    if move is None:
        value_x, value_y, vertical, _ = KEY_INFO[code >> CELL_BITS]
        row, col = divmod(code & CELL_MASK, geometry.cols)
        move = geometry.moves[code] = KazambiMove(value_x, value_y, row, col, vertical)
    return move


def is_legal_code(state: KazambiState, code: int) -> bool:
    """Whether placement ``code`` is legal for the seat to move (any int is accepted)."""
    if not 0 <= code < CODE_LIMIT:
        return False
    value_x, value_y, vertical, tile = KEY_INFO[code >> CELL_BITS]
    if not state.hands[state.to_move] >> tile & 1:
        return False
    geometry = state.geometry
    cell_x = code & CELL_MASK
    allowed = state.allowed
    if vertical:
        cell_y = cell_x + geometry.cols
    elif geometry.not_last_col >> cell_x & 1:
        cell_y = cell_x + 1
    else:
        return False
    return bool(allowed[value_x] >> cell_x & allowed[value_y] >> cell_y & 1)


def push_code(state: KazambiState, code: int) -> None:
    """Play the legal placement ``code`` for the seat to move, in place (no checks)."""
    geometry = state.geometry
    cell_x = code & CELL_MASK
    value_x, value_y, vertical, tile = KEY_INFO[code >> CELL_BITS]
    cell_y = cell_x + geometry.cols if vertical else cell_x + 1
    allowed = state.allowed
    state.undo.append(tuple(allowed))
    keep = ~((1 << cell_x) | (1 << cell_y))
    allowed[:] = [mask & keep for mask in allowed]
    lines = geometry.lines
    allowed[value_x] &= ~lines[cell_x]
    allowed[value_y] &= ~lines[cell_y]
    cells = state.cells
    cells[cell_x] = value_x
    cells[cell_y] = value_y
    seat = state.to_move
    state.hands[seat] &= ~(1 << tile)
    move = geometry.moves.get(code)
    state.history.append(move if move is not None else move_of(geometry, code))
    state.to_move = (seat + 1) % state.seats


class LegalCodes(Sequence[int]):
    """The legal placements of a position as codes, computed on demand (a snapshot: later
    moves on the state do not change it)."""

    __slots__ = ("_tiles", "_counts", "_total", "_allowed", "_left", "_right", "_down")

    def __init__(self, state: KazambiState) -> None:
        geometry = state.geometry
        cols = geometry.cols
        not_last_col = geometry.not_last_col
        allowed = tuple(state.allowed)
        # Per value: the cells X where a horizontal tile's half of that value may lie
        # (left), and the cells X whose right or lower neighbour may take that value.
        left = [mask & not_last_col for mask in allowed]
        right = [mask >> 1 for mask in allowed]
        down = [mask >> cols for mask in allowed]
        tiles: list[int] = []
        counts: list[int] = []
        total = 0
        hand = state.hands[state.to_move]
        while hand:
            low = hand & -hand
            hand ^= low
            tile = low.bit_length() - 1
            a, b = TILE_VALUES[tile]
            if a == b:
                count = (left[a] & right[a]).bit_count() + (allowed[a] & down[a]).bit_count()
            else:
                count = (
                    (left[a] & right[b]).bit_count()
                    + (left[b] & right[a]).bit_count()
                    + (allowed[a] & down[b]).bit_count()
                    + (allowed[b] & down[a]).bit_count()
                )
            if count:
                tiles.append(tile)
                counts.append(count)
                total += count
        self._tiles = tiles
        self._counts = counts
        self._total = total
        self._allowed = allowed
        self._left = left
        self._right = right
        self._down = down

    def _kind_masks(self, tile: int) -> tuple[int, int, int, int]:
        a, b = TILE_VALUES[tile]
        left, right, down, allowed = self._left, self._right, self._down, self._allowed
        if a == b:
            return (left[a] & right[a], 0, allowed[a] & down[a], 0)
        return (
            left[a] & right[b],
            left[b] & right[a],
            allowed[a] & down[b],
            allowed[b] & down[a],
        )

    def __len__(self) -> int:
        return self._total

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._total))]
        if index < 0:
            index += self._total
        if not 0 <= index < self._total:
            raise IndexError("legal move index out of range")
        counts = self._counts
        group = 0
        while index >= counts[group]:
            index -= counts[group]
            group += 1
        tile = self._tiles[group]
        for base, mask in zip(KIND_BASES[tile], self._kind_masks(tile), strict=True):
            count = mask.bit_count()
            if index < count:
                return base | kth_bit(mask, index)
            index -= count
        raise AssertionError("the counts and the masks disagree")  # pragma: no cover

    def __iter__(self) -> Iterator[int]:
        for tile in self._tiles:
            for base, mask in zip(KIND_BASES[tile], self._kind_masks(tile), strict=True):
                while mask:
                    low = mask & -mask
                    yield base | (low.bit_length() - 1)
                    mask ^= low

    def __contains__(self, code: object) -> bool:
        if type(code) is not int or not 0 <= code < CODE_LIMIT:
            return False
        value_x, value_y, vertical, tile = KEY_INFO[code >> CELL_BITS]
        if tile not in self._tiles:
            return False
        cell = code & CELL_MASK
        if vertical:
            mask = self._allowed[value_x] & self._down[value_y]
        else:
            mask = self._left[value_x] & self._right[value_y]
        return bool(mask >> cell & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalCodes | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<LegalCodes: {self._total} placements>"

