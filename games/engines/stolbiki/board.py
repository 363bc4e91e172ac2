"""The table as a padded grid of cells, and the placement table built at import.

Positions are ``x,y`` with the first card at ``0,0``, x to the right and y downward.
Every card lies in a bounding box at most ``cols`` wide and ``rows`` tall that contains
``0,0``, so every card has ``|x| < cols`` and ``|y| < rows``: those are the *inside*
cells. The grid adds one cell of padding all round and is numbered row by row.

An empty cell next to the table is summed up by a key ``suits | min_rank << 4``: the
suits of its neighbours (one bit each) and their lowest rank (15 when it has none).
``PLACEABLE[key]`` is the bitmask of the cards that may go there by the diversity and
seniority principles; continuity and the rectangle are checked apart.
"""

from __future__ import annotations

from games.engines.stolbiki.cards import BLACK, CARD_IDS, COLOUR, RANK, RED, SUIT

ROWS = 4
NO_NEIGHBOUR_KEY = 15 << 4
_SUITS_OF_COLOUR = {RED: 0b0011, BLACK: 0b1100}


def _placeable(key: int) -> int:
    suits, min_rank = key & 15, key >> 4
    mask = 0
    for card in range(CARD_IDS):
        if not 2 <= RANK[card] <= 14:
            continue
        if suits & (1 << SUIT[card]):
            continue  # diversity: a neighbour has the same suit
        same_colour_near = bool(suits & _SUITS_OF_COLOUR[COLOUR[card]])
        if same_colour_near or RANK[card] > min_rank:
            mask |= 1 << card
    return mask


#: key -> bitmask of the cards that diversity and seniority allow in such a cell.
PLACEABLE: tuple[int, ...] = tuple(_placeable(key) for key in range(256))


def cell_key_with(key: int, suit_bit: int, rank: int) -> int:
    """The key of a cell after a card of ``suit_bit`` and ``rank`` is laid next to it."""
    if key >> 4 <= rank:
        return key | suit_bit
    return (key & 15) | suit_bit | (rank << 4)


class Geometry:
    """The grid for one rectangle (``cols`` columns, 4 rows); shared, never mutated."""

    __slots__ = ("cols", "rows", "width", "height", "size", "origin", "x_of", "y_of",
                 "neighbours")

    def __init__(self, cols: int, rows: int = ROWS) -> None:
        self.cols = cols
        self.rows = rows
        self.width = 2 * cols + 1
        self.height = 2 * rows + 1
        self.size = self.width * self.height
        self.origin = rows * self.width + cols
        self.x_of: tuple[int, ...] = tuple(c % self.width - cols for c in range(self.size))
        self.y_of: tuple[int, ...] = tuple(c // self.width - rows for c in range(self.size))
        neighbours: list[tuple[int, ...]] = []
        for cell in range(self.size):
            if self.is_inside(self.x_of[cell], self.y_of[cell]):
                near = (cell - 1, cell + 1, cell - self.width, cell + self.width)
                neighbours.append(
                    tuple(n for n in near if self.is_inside(self.x_of[n], self.y_of[n]))
                )
            else:
                neighbours.append(())
        #: Per cell, its inside orthogonal neighbours (empty for padding cells).
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)

    def is_inside(self, x: int, y: int) -> bool:
        """True if a card may ever lie at ``x,y`` (its box with 0,0 fits the rectangle)."""
        return -self.cols < x < self.cols and -self.rows < y < self.rows

    def cell(self, x: int, y: int) -> int:
        """The grid cell of an inside position."""
        return (y + self.rows) * self.width + (x + self.cols)


#: The grid of each deck: 9 columns with 36 cards, 13 with 52.
GEOMETRIES = {36: Geometry(9), 52: Geometry(13)}


def position_text(x: int, y: int) -> str:
    """The canonical text of a position: ``2,-1``."""
    return f"{x},{y}"
