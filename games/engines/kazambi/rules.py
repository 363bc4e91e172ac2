"""Kazambi move generation and make/unmake over the bit masks of :class:`KazambiState`.

A placement of tile ``a-b`` is one of four kinds (two for a double), each a mask of the
cells X where the tile's left/upper half may lie:

* kind 0, horizontal, ``a`` on X and ``b`` right of it:  ``allowed[a] & allowed[b] >> 1``
* kind 1, horizontal, ``b`` on X and ``a`` right of it
* kind 2, vertical, ``a`` on X and ``b`` below it:       ``allowed[a] & allowed[b] >> cols``
* kind 3, vertical, ``b`` on X and ``a`` below it

Both halves are checked against the board before the placement, which is right for a
double too: its two halves may share a line. Horizontal masks drop the last column.
The order tile id, kind, cell is the canonical move order of ``legal_moves``.
"""

from __future__ import annotations

from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import COLUMN_LETTERS, TILE_TEXTS, TILE_VALUES, KazambiMove
from games.engines.kazambi.state import EMPTY, KazambiState
from games.i18n import N_, Message


def placement_masks(geometry: Geometry, allowed: list[int], tile: int) -> tuple[int, ...]:
    """The masks of kinds 0..3 (0 and 2 only for a double) of ``tile``."""
    a, b = TILE_VALUES[tile]
    cols = geometry.cols
    mask_a = allowed[a]
    if a == b:
        return (mask_a & (mask_a >> 1) & geometry.not_last_col, 0, mask_a & (mask_a >> cols), 0)
    mask_b = allowed[b]
    return (
        mask_a & (mask_b >> 1) & geometry.not_last_col,
        mask_b & (mask_a >> 1) & geometry.not_last_col,
        mask_a & (mask_b >> cols),
        mask_b & (mask_a >> cols),
    )


def hand_tiles(hand: int) -> list[int]:
    """The tile ids of a hand mask, in increasing order."""
    return [tile for tile in range(len(TILE_VALUES)) if hand >> tile & 1]


def tile_move_count(state: KazambiState, tile: int) -> int:
    return sum(mask.bit_count() for mask in placement_masks(state.geometry, state.allowed, tile))


def move_count(state: KazambiState, seat: int) -> int:
    """How many placements ``seat`` has (whoever is to move)."""
    return sum(tile_move_count(state, tile) for tile in hand_tiles(state.hands[seat]))


def has_move(state: KazambiState, seat: int) -> bool:
    geometry, allowed = state.geometry, state.allowed
    return any(
        any(placement_masks(geometry, allowed, tile)) for tile in hand_tiles(state.hands[seat])
    )


def burnt_tiles(state: KazambiState, seat: int) -> list[int]:
    """Tiles of ``seat``'s hand that fit nowhere on the board."""
    geometry, allowed = state.geometry, state.allowed
    return [
        tile
        for tile in hand_tiles(state.hands[seat])
        if not any(placement_masks(geometry, allowed, tile))
    ]


def moves_of(state: KazambiState, seat: int) -> list[KazambiMove]:
    """Every placement of ``seat``, in canonical order (tile id, kind, cell)."""
    geometry = state.geometry
    cols = geometry.cols
    moves: list[KazambiMove] = []
    for tile in hand_tiles(state.hands[seat]):
        a, b = TILE_VALUES[tile]
        for kind, mask in enumerate(placement_masks(geometry, state.allowed, tile)):
            value_x, value_y = (a, b) if kind % 2 == 0 else (b, a)
            vertical = kind >= 2
            while mask:
                low = mask & -mask
                cell = low.bit_length() - 1
                moves.append(KazambiMove(value_x, value_y, cell // cols, cell % cols, vertical))
                mask ^= low
    return moves


def move_cells(geometry: Geometry, move: KazambiMove) -> tuple[int, int]:
    """Cell indices (X, Y) of a move known to lie on the board."""
    cell_x = move.row * geometry.cols + move.col
    return cell_x, cell_x + (geometry.cols if move.vertical else 1)


def illegality(state: KazambiState, move: KazambiMove, seat: int) -> Message | None:
    """The rule ``move`` by ``seat`` breaks in ``state``, in words; ``None`` if legal."""
    geometry = state.geometry
    row_y, col_y = move.cell_y
    for row, col in ((move.row, move.col), (row_y, col_y)):
        if col >= geometry.cols or row >= geometry.rows:
            return Message(N_("cell %(cell)s is off the %(rows)s x %(cols)s board"),
                           cell=f"{COLUMN_LETTERS[col]}{row + 1}", rows=geometry.rows,
                           cols=geometry.cols)
    tile = move.tile
    if not state.hands[seat] >> tile & 1:
        return Message(N_("tile %(tile)s is not in seat %(seat)s's hand"),
                       tile=TILE_TEXTS[tile], seat=seat)
    cells = state.cells
    for cell in move_cells(geometry, move):
        if cells[cell] != EMPTY:
            return Message(N_("cell %(cell)s is already taken"), cell=geometry.cell_names[cell])
    for cell, value in zip(move_cells(geometry, move), (move.value_x, move.value_y), strict=True):
        row, col = divmod(cell, geometry.cols)
        if value in cells[row * geometry.cols : (row + 1) * geometry.cols]:
            return Message(N_("row %(row)s already has a %(value)s"), row=row + 1, value=value)
        if value in cells[col :: geometry.cols]:
            return Message(N_("column %(column)s already has a %(value)s"),
                           column=COLUMN_LETTERS[col], value=value)
    return None


def push(state: KazambiState, move: KazambiMove) -> None:
    """Play a legal ``move`` for the seat to move, in place (no checks)."""
    geometry = state.geometry
    cell_x, cell_y = move_cells(geometry, move)
    value_x, value_y = move.value_x, move.value_y
    allowed = state.allowed
    state.undo.append(tuple(allowed))
    keep = ~((1 << cell_x) | (1 << cell_y))
    allowed[:] = [mask & keep for mask in allowed]
    allowed[value_x] &= ~geometry.lines[cell_x]
    allowed[value_y] &= ~geometry.lines[cell_y]
    state.cells[cell_x] = value_x
    state.cells[cell_y] = value_y
    state.hands[state.to_move] &= ~(1 << move.tile)
    state.history.append(move)
    state.to_move = (state.to_move + 1) % state.seats


def pop(state: KazambiState) -> KazambiMove:
    """Take back the last move, in place; return it."""
    move = state.history.pop()
    state.allowed[:] = state.undo.pop()
    cell_x, cell_y = move_cells(state.geometry, move)
    state.cells[cell_x] = state.cells[cell_y] = EMPTY
    state.to_move = (state.to_move - 1) % state.seats
    state.hands[state.to_move] |= 1 << move.tile
    return move
