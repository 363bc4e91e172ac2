"""The mutable Kazambi position, kept incrementally for fast move generation."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import VALUES, KazambiMove

EMPTY = -1


@dataclass(slots=True, eq=False)
class KazambiState:
    """A position. ``allowed[v]`` is the mask of empty cells whose row and column hold no
    ``v``: where a half of value ``v`` may lie. ``hands[seat]`` is a mask of tile ids.

    The ``start_*`` fields describe the position the game started from (its deal), so that a
    game record can be written for any state.
    """

    geometry: Geometry
    seats: int
    cells: list[int]
    allowed: list[int]
    hands: list[int]
    to_move: int
    start_hands: tuple[int, ...]
    start_first: int
    start_cells: tuple[int, ...]
    history: list[KazambiMove] = field(default_factory=list)
    #: ``undo[i]``: the ``allowed`` masks before ``history[i]`` was played.
    undo: list[tuple[int, ...]] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        geometry: Geometry,
        hands: list[int],
        first: int,
        cells: list[int] | None = None,
    ) -> KazambiState:
        """A game starting from ``cells`` (empty board by default) with ``first`` to move."""
        if cells is None:
            cells = [EMPTY] * geometry.size
        return cls(
            geometry=geometry,
            seats=len(hands),
            cells=list(cells),
            allowed=allowed_masks(geometry, cells),
            hands=list(hands),
            to_move=first,
            start_hands=tuple(hands),
            start_first=first,
            start_cells=tuple(cells),
        )

    def copy(self) -> KazambiState:
        return KazambiState(
            geometry=self.geometry,
            seats=self.seats,
            cells=self.cells.copy(),
            allowed=self.allowed.copy(),
            hands=self.hands.copy(),
            to_move=self.to_move,
            start_hands=self.start_hands,
            start_first=self.start_first,
            start_cells=self.start_cells,
            history=self.history.copy(),
            undo=self.undo.copy(),
        )

    @property
    def tiles_placed(self) -> int:
        return sum(1 for value in self.cells if value != EMPTY) // 2


def allowed_masks(geometry: Geometry, cells: list[int]) -> list[int]:
    """``allowed[v]`` for every value, computed from scratch (loading a position)."""
    empty = geometry.full
    blocked = [0] * len(VALUES)
    for cell, value in enumerate(cells):
        if value != EMPTY:
            empty &= ~(1 << cell)
            blocked[value] |= geometry.lines[cell]
    return [empty & ~blocked[value] for value in VALUES]
