"""Exact Kazambi endgames: win or loss for the side to move once few tiles remain.

Only the ``allowed`` masks (where each value may still lie), the hands and the seat to
move decide the rest of a game on a given board, so they key the transposition table,
with the board size and the variant (the same masks mean other cells on another board);
tiles that fit nowhere (burnt) never play again and are dropped from the key. Works for
the pairs and misère variants too: seats alternate sides, so negamax over sides holds.

The search runs on the masks alone (no move objects, no make/unmake): a child's masks
are a fresh list, made only for the children searched. Each tile's placements are packed
in one int, and each placement knows what it leaves of every tile's placements
(:class:`BoardPlacements`), so ordering a child costs an AND and a bit count per live
tile of the next seat. Children are tried in the order of the live tiles they leave the next
seat, ties broken by how near to burning those tiles are (fewest and nearest first;
the other way round in misère), and a placement that leaves the next seat stuck ends
the search at once when that wins. Some positions are settled without children: the next
seat already stuck, and (two seats) a seat with one live tile left, which after it is
stuck itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache

from games.bots.solvers.kugamai import SolverLimitError
from games.engines.kazambi.board import geometry
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove
from games.engines.kazambi.state import KazambiState

#: The endgame solver is tried when at most this many live tiles remain in all hands.
ENDGAME_TILES = 12
#: Children are ordered by the live tiles they leave the next seat, then by how near
#: those tiles are to burning (:func:`near_burnt`, which caps each tile's placements at
#: ``FAR_FROM_BURNT``); one live tile weighs ``ORDER_SCALE``, more than any such total.
FAR_FROM_BURNT = 8
ORDER_SCALE = 1_000
#: New positions between two looks at the clock when a deadline is set.
CLOCK_EVERY = 256

#: A placement: (cell X, cell Y, value on X, value on Y, tile id).
Placement = tuple[int, int, int, int, int]
#: A child in the search's order: (order key, rank, placement, the next seat's live
#: tiles after, what the placement keeps of each tile's packed placements).
_Child = tuple[int, int, Placement, int, tuple[int, ...]]
#: A live tile of a hand: (its bit in the hand, tile id, its placements packed).
_HandTile = tuple[int, int, int]


#: Each tile's two values, by tile id (the search reads them in its innermost loops).
_VALUE_A = tuple(a for a, _ in TILE_VALUES)
_VALUE_B = tuple(b for _, b in TILE_VALUES)
_VALUES = max(_VALUE_B) + 1


class BoardPlacements:
    """A board's placements, each tile's packed in one int, and what each one keeps.

    A tile's placements are four masks of the cells where the tile's first cell may lie
    (across with ``a`` left, across with ``b`` left, down with ``a`` on top, down with
    ``b`` on top; a double uses the first and third), packed side by side, ``size`` bits
    each (:meth:`packed`): its bit count is the tile's placement count, and its bits come
    in the order the search ranks placements. A placement takes its two cells from every
    value and its two values from the lines through their cells; :meth:`entries` gives,
    by packed bit, the placement and, for every tile, the mask of the packed placements
    it leaves (ANDed with a tile's packed placements, the tile's placements after it).
    """

    def __init__(self, cols: int, size: int, lines: Sequence[int]) -> None:
        self.cols = cols
        self.size = size
        self._entries: dict[int, dict[int, _Entry]] = {}
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

    def entries(self, tile: int) -> dict[int, _Entry]:
        """``tile``'s placements by packed bit: (placement, what it keeps of each tile's
        packed placements); made on first use."""
        found = self._entries.get(tile)
        if found is None:
            found = self._entries[tile] = self._make_entries(tile)
        return found

    def _make_entries(self, tile: int) -> dict[int, _Entry]:
        cols, size = self.cols, self.size
        a, b = TILE_VALUES[tile]
        found: dict[int, _Entry] = {}
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


#: A placement and, by tile, what it keeps of that tile's packed placements.
_Entry = tuple[Placement, tuple[int, ...]]


@cache
def board_placements(rows: int, cols: int) -> BoardPlacements:
    """The (shared) :class:`BoardPlacements` of a ``rows`` x ``cols`` board."""
    board = geometry(rows, cols)
    return BoardPlacements(cols, board.size, board.lines)


def _live(allowed: Sequence[int], hand: int, cols: int, not_last_col: int) -> int:
    """The tiles of ``hand`` (a mask of tile ids) that fit somewhere: some cell allowed for
    one value next to a cell allowed for the other (a double's halves alike)."""
    live = 0
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        tile = low.bit_length() - 1
        mask_a = allowed[_VALUE_A[tile]]
        mask_b = allowed[_VALUE_B[tile]]
        if (
            (mask_a & (mask_b >> 1) | mask_b & (mask_a >> 1)) & not_last_col
            or mask_a & (mask_b >> cols)
            or mask_b & (mask_a >> cols)
        ):
            live |= low
    return live


def near_burnt(allowed: Sequence[int], hand: int, cols: int, not_last_col: int) -> int:
    """How far the live tiles of ``hand`` are from burning: their placements, each
    tile's counted up to :data:`FAR_FROM_BURNT` (more says little)."""
    return _live_near_burnt(allowed, hand, cols, not_last_col)[1]


def _live_near_burnt(allowed: Sequence[int], hand: int, cols: int, not_last_col: int
                     ) -> tuple[int, int]:
    """(:func:`_live`, :func:`near_burnt`) of ``hand`` in one pass."""
    live = 0
    total = 0
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        tile = low.bit_length() - 1
        a = _VALUE_A[tile]
        mask_a = allowed[a]
        if a == _VALUE_B[tile]:
            count = (mask_a & (mask_a >> 1) & not_last_col).bit_count() + (
                mask_a & (mask_a >> cols)
            ).bit_count()
        else:
            mask_b = allowed[_VALUE_B[tile]]
            count = (
                (mask_a & (mask_b >> 1) & not_last_col).bit_count()
                + (mask_b & (mask_a >> 1) & not_last_col).bit_count()
                + (mask_a & (mask_b >> cols)).bit_count()
                + (mask_b & (mask_a >> cols)).bit_count()
            )
        if count:
            live |= low
            total += count if count < FAR_FROM_BURNT else FAR_FROM_BURNT
    return live, total


def _placements(allowed: Sequence[int], hand: int, cols: int, not_last_col: int
                ) -> list[Placement]:
    found: list[Placement] = []
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        tile = low.bit_length() - 1
        a, b = TILE_VALUES[tile]
        mask_a = allowed[a]
        kinds: tuple[tuple[int, int, int, int], ...]
        if a == b:
            kinds = ((mask_a & (mask_a >> 1) & not_last_col, 1, a, a),
                     (mask_a & (mask_a >> cols), cols, a, a))
        else:
            mask_b = allowed[b]
            kinds = ((mask_a & (mask_b >> 1) & not_last_col, 1, a, b),
                     (mask_b & (mask_a >> 1) & not_last_col, 1, b, a),
                     (mask_a & (mask_b >> cols), cols, a, b),
                     (mask_b & (mask_a >> cols), cols, b, a))
        for mask, step, value_x, value_y in kinds:
            while mask:
                bit = mask & -mask
                mask ^= bit
                cell = bit.bit_length() - 1
                found.append((cell, cell + step, value_x, value_y, tile))
    return found


def place(allowed: Sequence[int], lines: Sequence[int], move: Placement) -> list[int]:
    """The masks after ``move``: its cells taken from every value, its values from the
    lines through their cells."""
    cell_x, cell_y, value_x, value_y, _ = move
    keep = ~((1 << cell_x) | (1 << cell_y))
    after = [mask & keep for mask in allowed]
    after[value_x] &= ~lines[cell_x]
    after[value_y] &= ~lines[cell_y]
    return after


def live_hand(state: KazambiState, seat: int) -> int:
    """``seat``'s hand without its burnt tiles."""
    geometry = state.geometry
    return _live(state.allowed, state.hands[seat], geometry.cols, geometry.not_last_col)


def live_tile_count(state: KazambiState) -> int:
    """Tiles in all hands that still fit somewhere."""
    return sum(live_hand(state, seat).bit_count() for seat in range(state.seats))


class KazambiSolver:
    """Memoised negamax with win/loss values. ``node_limit`` bounds one call's work, and so
    does ``deadline`` (a :func:`time.process_time` value) when set; past either the search
    raises :class:`SolverLimitError` and keeps what it proved in its table."""

    def __init__(self, misere: bool, node_limit: int | None = None) -> None:
        self.misere = misere
        self.node_limit = node_limit
        self.deadline: float | None = None
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}
        self._board: tuple[int, int, bool, int] = (0, 0, misere, 0)
        self._cols = 0
        self._not_last_col = 0
        self._lines: tuple[int, ...] = ()
        self._placements = board_placements(2, 2)

    def key(self, state: KazambiState) -> tuple[object, ...]:
        """The transposition-table key of ``state``: board size and variant, masks, live
        hands and seat to move."""
        self._use_board(state)
        hands = tuple(live_hand(state, seat) for seat in range(state.seats))
        return (self._board, tuple(state.allowed), hands, state.to_move)

    def _use_board(self, state: KazambiState) -> None:
        geometry = state.geometry
        self._board = (geometry.rows, geometry.cols, self.misere, state.seats)
        self._cols, self._not_last_col = geometry.cols, geometry.not_last_col
        self._lines = geometry.lines
        self._placements = board_placements(geometry.rows, geometry.cols)

    def wins(self, state: KazambiState) -> bool:
        """True if the side to move wins with perfect play (``state`` is unchanged)."""
        self._use_board(state)
        return self._wins(list(state.allowed), list(state.hands), state.to_move)

    def _wins(self, allowed: list[int], hands: list[int], seat: int) -> bool:
        cols, not_last_col = self._cols, self._not_last_col
        return self._wins_live(
            allowed, [_live(allowed, hand, cols, not_last_col) for hand in hands], seat
        )

    def _wins_live(self, allowed: list[int], hands: list[int], seat: int) -> bool:
        """:meth:`_wins` of hands already without their burnt tiles."""
        key = (self._board, tuple(allowed), tuple(hands), seat)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SolverLimitError
        if (
            self.deadline is not None
            and not self.nodes % CLOCK_EVERY
            and time.process_time() > self.deadline
        ):
            raise SolverLimitError
        if not hands[seat]:
            result = self.misere
        elif not hands[(seat + 1) % len(hands)]:
            # Whatever the seat plays, the next one is stuck.
            result = not self.misere
        else:
            result = self._solve_children(allowed, hands, seat) is not None
        self.table[key] = result
        return result

    def _solve_children(self, allowed: list[int], hands: list[int], seat: int
                        ) -> Placement | None:
        """A winning placement of ``seat`` (hands given live), or ``None``."""
        if len(hands) == 2 and not hands[seat] & (hands[seat] - 1):
            return self._last_tile(allowed, hands[seat], hands[1 - seat])
        winning, ordered, own_tiles = self._ordered_children(allowed, hands, seat)
        if winning is not None:
            return winning
        cols, not_last_col = self._cols, self._not_last_col
        misere = self.misere
        nxt = (seat + 1) % len(hands)
        two_seats = len(hands) == 2
        lines = self._lines
        for _, _, move, left, keeps in ordered:
            if not left:
                continue  # misère, and the next seat is stuck: it wins
            # place inlined: this loop is the solver's hot path.
            cell_x, cell_y, value_x, value_y, played = move
            keep = ~((1 << cell_x) | (1 << cell_y))
            after = [mask & keep for mask in allowed]
            after[value_x] &= ~lines[cell_x]
            after[value_y] &= ~lines[cell_y]
            own = 0
            for tile_bit, tile, packed in own_tiles:
                if tile != played and packed & keeps[tile]:
                    own |= tile_bit
            child = [
                left if other == nxt else own if other == seat
                else _live(after, hand, cols, not_last_col)
                for other, hand in enumerate(hands)
            ]
            if two_seats and not child[seat]:
                # The opponent moves and then the seat is stuck.
                if misere:
                    return move
                continue
            if not self._wins_live(after, child, nxt):
                return move
        return None

    def _hand_tiles(self, allowed: list[int], hand: int) -> list[_HandTile]:
        board, not_last_col = self._placements, self._not_last_col
        found = []
        while hand:
            low = hand & -hand
            hand ^= low
            tile = low.bit_length() - 1
            found.append((low, tile, board.packed(allowed, tile, not_last_col)))
        return found

    def _ordered_children(self, allowed: list[int], hands: list[int], seat: int
                          ) -> tuple[Placement | None, list[_Child], list[_HandTile]]:
        """(a placement that leaves the next seat stuck, if that wins, else ``None``; the
        placements in the order the search tries them; the seat's live tiles)."""
        entries_of = self._placements.entries
        misere = self.misere
        sign = -1 if misere else 1
        next_tiles = self._hand_tiles(allowed, hands[(seat + 1) % len(hands)])
        own_tiles = self._hand_tiles(allowed, hands[seat])
        ordered: list[_Child] = []
        rank = 0
        for _, tile, packed_moves in own_tiles:
            entries = entries_of(tile)
            while packed_moves:
                bit = packed_moves & -packed_moves
                packed_moves ^= bit
                move, keeps = entries[bit.bit_length() - 1]
                left = near = 0
                for tile_bit, other, packed in next_tiles:
                    count = (packed & keeps[other]).bit_count()
                    if count:
                        left |= tile_bit
                        near += count if count < FAR_FROM_BURNT else FAR_FROM_BURNT
                if not left and not misere:
                    return move, [], own_tiles
                ordered.append(
                    (sign * (left.bit_count() * ORDER_SCALE + near), rank, move, left, keeps)
                )
                rank += 1
        ordered.sort()  # by the first two entries: the ranks differ
        return None, ordered, own_tiles

    def ordered_moves(self, state: KazambiState) -> list[KazambiMove]:
        """The moves of the seat to move in the order the search tries them (a move that
        leaves the next seat stuck first when that wins), the moves that lose at once
        last: after them the seat's side is stuck at its next turn, or in misère the
        next seat is stuck now."""
        self._use_board(state)
        cols, not_last_col = self._cols, self._not_last_col
        hands = [_live(state.allowed, hand, cols, not_last_col) for hand in state.hands]
        seat = state.to_move
        winning, ordered, _ = self._ordered_children(list(state.allowed), hands, seat)
        if winning is not None:
            return [_move_of(winning, cols)]
        hopeful: list[KazambiMove] = []
        hopeless: list[KazambiMove] = []
        for _, _, move, left, _ in ordered:
            stuck_next_turn = len(hands) == 2 and not _live(
                place(state.allowed, self._lines, move), hands[seat] & ~(1 << move[4]),
                cols, not_last_col,
            )
            loses_now = not left if self.misere else stuck_next_turn
            (hopeless if loses_now else hopeful).append(_move_of(move, cols))
        return hopeful + hopeless

    def _last_tile(self, allowed: list[int], hand: int, next_hand: int) -> Placement | None:
        """:meth:`_solve_children` of a seat with one live tile left (two seats): after it
        the seat is stuck, so a placement wins if it leaves the opponent stuck too (in
        misère: if it leaves the opponent a move)."""
        misere = self.misere
        next_tiles = self._hand_tiles(allowed, next_hand)
        ((_, tile, packed_moves),) = self._hand_tiles(allowed, hand)
        entries = self._placements.entries(tile)
        while packed_moves:
            bit = packed_moves & -packed_moves
            packed_moves ^= bit
            move, keeps = entries[bit.bit_length() - 1]
            stuck = True
            for _, other, packed in next_tiles:
                if packed & keeps[other]:
                    stuck = False
                    break
            if stuck != misere:
                return move
        return None

    def known_results(self, state: KazambiState) -> dict[KazambiMove, bool]:
        """What the table already proves about the moves of the seat to move, without
        searching: move -> True (the move wins) or False (it loses); moves the table
        does not settle are left out (a move after which a seat is stuck is settled)."""
        self._use_board(state)
        cols, not_last_col, lines = self._cols, self._not_last_col, self._lines
        allowed = state.allowed
        hands = [_live(allowed, hand, cols, not_last_col) for hand in state.hands]
        seat = state.to_move
        nxt = (seat + 1) % len(hands)
        known: dict[KazambiMove, bool] = {}
        for move in _placements(allowed, hands[seat], cols, not_last_col):
            after = place(allowed, lines, move)
            child = list(hands)
            child[seat] &= ~(1 << move[4])
            child = [_live(after, hand, cols, not_last_col) for hand in child]
            if not child[nxt]:
                value: bool | None = not self.misere
            elif len(child) == 2 and not child[seat]:
                value = self.misere  # the opponent moves, then the seat is stuck
            else:
                opponent = self.table.get((self._board, tuple(after), tuple(child), nxt))
                value = None if opponent is None else not opponent
            if value is not None:
                known[_move_of(move, cols)] = value
        return known

    def best(self, state: KazambiState) -> tuple[bool, KazambiMove | None]:
        """(does the side to move win?, a winning move if so, else ``None``)."""
        self._use_board(state)
        cols = self._cols
        hands = [_live(state.allowed, hand, cols, self._not_last_col) for hand in state.hands]
        seat = state.to_move
        if not hands[seat]:
            return self.misere, None
        move = self._solve_children(list(state.allowed), hands, seat)
        if move is None:
            return False, None
        return True, _move_of(move, cols)


def _move_of(move: Placement, cols: int) -> KazambiMove:
    cell_x, cell_y, value_x, value_y, _ = move
    row, col = divmod(cell_x, cols)
    return KazambiMove(value_x, value_y, row, col, cell_y - cell_x == cols)


def solve(state: KazambiState, misere: bool = False, node_limit: int | None = None) -> int:
    """1 if the side to move wins the position with perfect play, -1 if it loses
    (:class:`SolverLimitError` past ``node_limit``)."""
    return 1 if KazambiSolver(misere, node_limit).wins(state.copy()) else -1
