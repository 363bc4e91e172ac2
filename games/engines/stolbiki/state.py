"""The incremental game state and its make/unmake operations (the fast path).

The state keeps, besides the cards on the grid and the hands (bitmasks of card ids):

- the bounding box of the table;
- the *frontier*: the empty cells next to a card where a card keeps the bounding box
  within the rectangle (only ``0,0`` on an empty table). The box only grows as cards
  are laid, so a cell that leaves the frontier that way never comes back, except when
  a move that grew the box is taken back: the frontier is then rebuilt;
- per empty cell, its neighbour key and the bitmask of cards diversity and seniority
  allow there (see :mod:`games.engines.stolbiki.board`), kept also for cells outside
  the frontier.

A card may be laid at a frontier cell iff it is in the cell's mask. Moves are coded as
ints in ``history``: ``card << 9 | cell`` for a placement, ``PASS_CODE`` for a pass.
"""

from __future__ import annotations

from typing import Any

from games.engines.stolbiki.board import NO_NEIGHBOUR_KEY, PLACEABLE, Geometry, cell_key_with
from games.engines.stolbiki.cards import FIRST_CARD_MASK, RANK, SUIT_BIT

PASS_CODE = -1
#: A deal: the hands as bitmasks per seat, the first seat and the red side.
Deal = tuple[tuple[int, ...], int, int]
CELL_BITS = 9
CELL_MASK = (1 << CELL_BITS) - 1


class StolbikiState:
    """A Stolbiki position; mutated in place only by :func:`place`, :func:`pass_turn`
    and :func:`take_back`. ``deal`` is the deal it started from: (hand bitmasks, first
    seat, red side), or ``None`` when loaded from a document without its history."""

    __slots__ = (
        "geometry", "options", "seats", "red_side", "deal", "hands", "grid", "keys",
        "masks", "frontier", "min_x", "max_x", "min_y", "max_y", "placed", "to_move",
        "revealed", "history", "undo",
    )

    def __init__(
        self,
        geometry: Geometry,
        options: dict[str, Any],
        seats: int,
        red_side: int,
        hands: list[int],
        to_move: int,
        deal: Deal | None,
    ) -> None:
        self.geometry = geometry
        self.options = options
        self.seats = seats
        self.red_side = red_side
        self.deal = deal
        self.hands = hands
        self.grid = [-1] * geometry.size
        self.keys = [NO_NEIGHBOUR_KEY] * geometry.size
        self.masks = [0] * geometry.size
        origin = geometry.origin
        self.masks[origin] = FIRST_CARD_MASK
        self.frontier = {origin}
        self.min_x = self.max_x = self.min_y = self.max_y = 0
        self.placed = 0
        self.to_move = to_move
        #: Bitmask of the seats that have passed, and so show their hands.
        self.revealed = 0
        self.history: list[int] = []
        #: Per move pushed in this object's life: (bounding box..., revealed) before it.
        self.undo: list[tuple[int, int, int, int, int]] = []

    def copy(self) -> StolbikiState:
        """An independent copy (the geometry, options and deal are shared: immutable)."""
        other = StolbikiState.__new__(StolbikiState)
        other.geometry = self.geometry
        other.options = self.options
        other.seats = self.seats
        other.red_side = self.red_side
        other.deal = self.deal
        other.hands = self.hands.copy()
        other.grid = self.grid.copy()
        other.keys = self.keys.copy()
        other.masks = self.masks.copy()
        other.frontier = self.frontier.copy()
        other.min_x, other.max_x = self.min_x, self.max_x
        other.min_y, other.max_y = self.min_y, self.max_y
        other.placed = self.placed
        other.to_move = self.to_move
        other.revealed = self.revealed
        other.history = self.history.copy()
        other.undo = self.undo.copy()
        return other


def lay_card(state: StolbikiState, card: int, cell: int) -> None:
    """Put ``card`` on ``cell`` and update the frontier, keys, masks and box (no checks,
    no hand, turn or history change: also used to load a table from a document)."""
    geometry = state.geometry
    grid = state.grid
    grid[cell] = card
    state.placed += 1
    x = geometry.x_of[cell]
    y = geometry.y_of[cell]
    frontier = state.frontier
    frontier.discard(cell)
    grown = False
    if x < state.min_x:
        state.min_x = x
        grown = True
    elif x > state.max_x:
        state.max_x = x
        grown = True
    if y < state.min_y:
        state.min_y = y
        grown = True
    elif y > state.max_y:
        state.max_y = y
        grown = True
    x_of = geometry.x_of
    y_of = geometry.y_of
    low_x = state.max_x - geometry.cols
    high_x = state.min_x + geometry.cols
    low_y = state.max_y - geometry.rows
    high_y = state.min_y + geometry.rows
    if grown:
        for dead in [
            c for c in frontier
            if not (low_x < x_of[c] < high_x and low_y < y_of[c] < high_y)
        ]:
            frontier.discard(dead)
    keys = state.keys
    masks = state.masks
    suit_bit = SUIT_BIT[card]
    rank = RANK[card]
    for near in geometry.neighbours[cell]:
        if grid[near] < 0:
            key = keys[near]
            key = key | suit_bit if key >> 4 <= rank else (key & 15) | suit_bit | (rank << 4)
            keys[near] = key
            masks[near] = PLACEABLE[key]
            if low_x < x_of[near] < high_x and low_y < y_of[near] < high_y:
                frontier.add(near)


def place(state: StolbikiState, card: int, cell: int) -> None:
    """The seat to move lays ``card`` (from its hand) on ``cell``; no legality checks."""
    state.undo.append((state.min_x, state.max_x, state.min_y, state.max_y, state.revealed))
    seat = state.to_move
    state.hands[seat] &= ~(1 << card)
    lay_card(state, card, cell)
    state.history.append(card << CELL_BITS | cell)
    state.to_move = (seat + 1) % state.seats


def pass_turn(state: StolbikiState) -> None:
    """The seat to move passes and shows its hand; no legality checks."""
    state.undo.append((state.min_x, state.max_x, state.min_y, state.max_y, state.revealed))
    seat = state.to_move
    state.revealed |= 1 << seat
    state.history.append(PASS_CODE)
    state.to_move = (seat + 1) % state.seats


def _fits_box(state: StolbikiState, cell: int) -> bool:
    """True if a card on ``cell`` keeps the bounding box within the rectangle."""
    geometry = state.geometry
    return (
        state.max_x - geometry.cols < geometry.x_of[cell] < state.min_x + geometry.cols
        and state.max_y - geometry.rows < geometry.y_of[cell] < state.min_y + geometry.rows
    )


def _refresh_cell(state: StolbikiState, cell: int) -> None:
    """Recompute an empty cell's key, mask and frontier membership from its neighbours."""
    grid = state.grid
    key = NO_NEIGHBOUR_KEY
    for near in state.geometry.neighbours[cell]:
        card = grid[near]
        if card >= 0:
            key = cell_key_with(key, SUIT_BIT[card], RANK[card])
    state.keys[cell] = key
    state.masks[cell] = 0 if key == NO_NEIGHBOUR_KEY else PLACEABLE[key]
    if key != NO_NEIGHBOUR_KEY and _fits_box(state, cell):
        state.frontier.add(cell)
    else:
        state.frontier.discard(cell)


def _rebuild_frontier(state: StolbikiState) -> None:
    """Recompute the frontier from scratch (after the box shrank on a take-back)."""
    grid = state.grid
    keys = state.keys
    state.frontier.clear()
    state.frontier.update(
        cell
        for cell in range(state.geometry.size)
        if grid[cell] < 0 and keys[cell] != NO_NEIGHBOUR_KEY and _fits_box(state, cell)
    )


def take_back(state: StolbikiState) -> int:
    """Undo the last move pushed on this state object; return its code.

    The caller checks that ``state.undo`` is not empty."""
    code = state.history.pop()
    box = (state.min_x, state.max_x, state.min_y, state.max_y)
    state.min_x, state.max_x, state.min_y, state.max_y, state.revealed = state.undo.pop()
    seat = (state.to_move - 1) % state.seats
    state.to_move = seat
    if code == PASS_CODE:
        return code
    card = code >> CELL_BITS
    cell = code & CELL_MASK
    state.grid[cell] = -1
    state.placed -= 1
    state.hands[seat] |= 1 << card
    for near in state.geometry.neighbours[cell]:
        if state.grid[near] < 0:
            _refresh_cell(state, near)
    if not state.placed:
        state.keys[cell] = NO_NEIGHBOUR_KEY
        state.masks[cell] = FIRST_CARD_MASK
        state.frontier.clear()
        state.frontier.add(cell)
    elif box != (state.min_x, state.max_x, state.min_y, state.max_y):
        _refresh_cell(state, cell)
        _rebuild_frontier(state)
    else:
        _refresh_cell(state, cell)
    return code


def placeable_cards(state: StolbikiState) -> int:
    """The bitmask of every card that could be laid somewhere now (by any seat)."""
    masks = state.masks
    union = 0
    for cell in state.frontier:
        union |= masks[cell]
    return union


def all_hands(state: StolbikiState) -> int:
    """The bitmask of all the cards still in hands."""
    union = 0
    for hand in state.hands:
        union |= hand
    return union


def game_over(state: StolbikiState) -> bool:
    """True when no seat can lay a card."""
    return not placeable_cards(state) & all_hands(state)


def placements(state: StolbikiState, seat: int) -> list[tuple[int, int]]:
    """Every (card, cell) that ``seat`` may play now, sorted by card then cell."""
    hand = state.hands[seat]
    masks = state.masks
    moves = []
    for cell in state.frontier:
        mask = masks[cell] & hand
        while mask:
            low = mask & -mask
            moves.append((low.bit_length() - 1, cell))
            mask ^= low
    moves.sort()
    return moves


def legal_codes(state: StolbikiState) -> list[int]:
    """The legal moves of the seat to move as codes, sorted (by card, then cell); a pass
    alone when it cannot lay a card but another seat can; none when the game is over."""
    hand = state.hands[state.to_move]
    masks = state.masks
    codes = []
    for cell in state.frontier:
        mask = masks[cell] & hand
        while mask:
            low = mask & -mask
            codes.append((low.bit_length() - 1) << CELL_BITS | cell)
            mask ^= low
    if codes:
        codes.sort()
        return codes
    return [] if game_over(state) else [PASS_CODE]


def is_legal_code(state: StolbikiState, code: int) -> bool:
    """Whether move ``code`` (any int) is legal for the seat to move."""
    hand = state.hands[state.to_move]
    if code == PASS_CODE:
        return not placeable_cards(state) & hand and not game_over(state)
    cell = code & CELL_MASK
    return (
        code >= 0
        and cell in state.frontier
        and bool((state.masks[cell] & hand) >> (code >> CELL_BITS) & 1)
    )


def push_code(state: StolbikiState, code: int) -> None:
    """Make the legal move ``code`` in place (no checks)."""
    if code == PASS_CODE:
        pass_turn(state)
    else:
        place(state, code >> CELL_BITS, code & CELL_MASK)
