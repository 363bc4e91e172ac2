"""Kazambi notation (docs/rules/records.md): tiles ``a-b``, cells ``c2``, moves ``3-1@c2d2``.

Tiles are numbered 0..27 in the order 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6; a hand is a
28-bit mask of tile ids. A cell is ``row * cols + col`` on a board of ``cols`` columns;
its text is the column letter (``a`` = leftmost) and the row number (``1`` = top).

>>> str(parse_move("1-3@d2c2"))
'3-1@c2d2'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from games.engines.errors import NotationError
from games.i18n import N_

VALUES = range(7)
TILE_COUNT = 28
MAX_SIDE = 12
COLUMN_LETTERS = "abcdefghijkl"

#: ``TILE_VALUES[tile] == (low, high)``.
TILE_VALUES: tuple[tuple[int, int], ...] = tuple((a, b) for a in VALUES for b in VALUES if a <= b)
TILE_TEXTS: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in TILE_VALUES)
_TILE_IDS: dict[tuple[int, int], int] = {}
for _tile, (_a, _b) in enumerate(TILE_VALUES):
    _TILE_IDS[_a, _b] = _TILE_IDS[_b, _a] = _tile


def tile_id(a: int, b: int) -> int:
    """The id of the tile with halves ``a`` and ``b`` (in either order)."""
    return _TILE_IDS[a, b]


_TILE_BY_TEXT: dict[str, int] = {f"{a}-{b}": tile for (a, b), tile in _TILE_IDS.items()}
_TILE_RE = re.compile(r"([0-6])-([0-6])")
_MOVE_RE = re.compile(r"([0-6])-([0-6])@([a-z])(\d{1,2})([a-z])(\d{1,2})")


def parse_tile(text: object) -> int:
    """The tile id of ``"a-b"`` (either order of the halves)."""
    if isinstance(text, str) and text in _TILE_BY_TEXT:
        return _TILE_BY_TEXT[text]
    if not isinstance(text, str):
        raise NotationError(N_("a tile must be a text like '2-5', not %(text)r"), text=text)
    match = _TILE_RE.fullmatch(text.strip())
    if match is None:
        raise NotationError(N_("%(text)r is not a tile: write two values 0..6 like '2-5'"),
                            text=text)
    return _TILE_IDS[int(match[1]), int(match[2])]


def cell_text(row: int, col: int) -> str:
    """``cell_text(1, 2) == "c2"``."""
    return f"{COLUMN_LETTERS[col]}{row + 1}"


class KazambiMove(NamedTuple):
    """A placement: ``value_x`` on cell X at (``row``, ``col``), ``value_y`` on cell Y to
    its right (horizontal) or below it (``vertical``). X is always the left or upper cell,
    so each placement has exactly one ``KazambiMove``; ``str`` gives the canonical text."""

    value_x: int
    value_y: int
    row: int
    col: int
    vertical: bool

    @property
    def tile(self) -> int:
        return _TILE_IDS[self.value_x, self.value_y]

    @property
    def cell_y(self) -> tuple[int, int]:
        """(row, col) of the second cell."""
        return (self.row + 1, self.col) if self.vertical else (self.row, self.col + 1)

    def __str__(self) -> str:
        row_y, col_y = self.cell_y
        return (
            f"{self.value_x}-{self.value_y}@"
            f"{cell_text(self.row, self.col)}{cell_text(row_y, col_y)}"
        )


def parse_move(text: object) -> KazambiMove:
    """Parse ``a-b@XY``; the cells may come in either order (``1-3@d2c2`` is the same
    placement as ``3-1@c2d2``: each value stays on its own cell). Whether the cells are on
    the board is checked against a board, not here."""
    if not isinstance(text, str):
        raise NotationError(N_("a move must be a text like '3-1@c2d2', not %(text)r"), text=text)
    match = _MOVE_RE.fullmatch(text.strip().lower())
    if match is None:
        raise NotationError(
            N_("%(text)r is not a Kazambi move: write the tile and its two cells, like '3-1@c2d2'"),
            text=text
        )
    value_x, value_y = int(match[1]), int(match[2])
    col_x, col_y = ord(match[3]) - ord("a"), ord(match[5]) - ord("a")
    row_x, row_y = int(match[4]) - 1, int(match[6]) - 1
    for letter, number, col, row in (
        (match[3], match[4], col_x, row_x),
        (match[5], match[6], col_y, row_y),
    ):
        if col >= MAX_SIDE or not 0 <= row < MAX_SIDE:
            raise NotationError(
                N_("%(text)r: cell %(cell)s is outside any board (at most a1..l12)"),
                text=text, cell=f"{letter}{number}"
            )
    if (row_y, col_y) < (row_x, col_x):
        value_x, value_y = value_y, value_x
        row_x, col_x, row_y, col_y = row_y, col_y, row_x, col_x
    if row_x == row_y and col_y == col_x + 1:
        return KazambiMove(value_x, value_y, row_x, col_x, False)
    if col_x == col_y and row_y == row_x + 1:
        return KazambiMove(value_x, value_y, row_x, col_x, True)
    raise NotationError(
        N_("%(text)r: cells %(first)s and %(second)s are not orthogonally adjacent"),
        text=text, first=cell_text(row_x, col_x), second=cell_text(row_y, col_y)
    )
