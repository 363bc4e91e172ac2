"""Exact Kazambi endgames: win or loss for the side to move once few tiles remain.

Only the ``allowed`` masks (where each value may still lie), the hands and the seat to
move decide the rest of a game on a given board, so they key the transposition table,
with the board size and the variant (the same masks mean other cells on another board);
tiles that fit nowhere (burnt) never play again and are dropped from the key. Works for
the pairs and misère variants too: seats alternate sides, so negamax over sides holds.

The search runs on the masks alone (no move objects, no make/unmake): a child's masks
are a fresh list. Children are tried in the order of the live tiles they leave the next
seat, ties broken by how near to burning those tiles are (fewest and nearest first;
the other way round in misère), and a placement that leaves the next seat stuck ends
the search at once when that wins. Some positions are settled without children: the next
seat already stuck, and (two seats) a seat with one live tile left, which after it is
stuck itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from games.bots.solvers.kugamai import SolverLimitError
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
#: A child in the search's order: (order key, rank, masks after, placement, the next
#: seat's live tiles after).
_Child = tuple[int, int, list[int], Placement, int]


#: Each tile's two values, by tile id (the search reads them in its innermost loops).
_VALUE_A = tuple(a for a, _ in TILE_VALUES)
_VALUE_B = tuple(b for _, b in TILE_VALUES)


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


def _after(allowed: Sequence[int], lines: Sequence[int], move: Placement) -> list[int]:
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
        winning, ordered = self._ordered_children(allowed, hands, seat)
        if winning is not None:
            return winning
        cols, not_last_col = self._cols, self._not_last_col
        misere = self.misere
        nxt = (seat + 1) % len(hands)
        two_seats = len(hands) == 2
        for _, _, after, move, left in ordered:
            if not left:
                continue  # misère, and the next seat is stuck: it wins
            child = [
                left if other == nxt else _live(
                    after, hand & ~(1 << move[4]) if other == seat else hand, cols, not_last_col
                )
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

    def _ordered_children(self, allowed: list[int], hands: list[int], seat: int
                          ) -> tuple[Placement | None, list[_Child]]:
        """(a placement that leaves the next seat stuck, if that wins; else ``None``, and
        the placements in the order the search tries them)."""
        cols, not_last_col, lines = self._cols, self._not_last_col, self._lines
        misere = self.misere
        sign = -1 if misere else 1
        next_hand = hands[(seat + 1) % len(hands)]
        ordered: list[_Child] = []
        for rank, move in enumerate(_placements(allowed, hands[seat], cols, not_last_col)):
            cell_x, cell_y, value_x, value_y, _ = move
            # _after inlined: this loop is the solver's hot path.
            keep = ~((1 << cell_x) | (1 << cell_y))
            after = [mask & keep for mask in allowed]
            after[value_x] &= ~lines[cell_x]
            after[value_y] &= ~lines[cell_y]
            left, near = _live_near_burnt(after, next_hand, cols, not_last_col)
            if not left and not misere:
                return move, []
            pressure = left.bit_count() * ORDER_SCALE + near
            ordered.append((sign * pressure, rank, after, move, left))
        ordered.sort()  # by the first two entries: the ranks differ
        return None, ordered

    def ordered_moves(self, state: KazambiState) -> list[KazambiMove]:
        """The moves of the seat to move in the order the search tries them (a move that
        leaves the next seat stuck first when that wins)."""
        self._use_board(state)
        cols, not_last_col = self._cols, self._not_last_col
        hands = [_live(state.allowed, hand, cols, not_last_col) for hand in state.hands]
        winning, ordered = self._ordered_children(list(state.allowed), hands, state.to_move)
        if winning is not None:
            return [_move_of(winning, cols)]
        return [_move_of(move, cols) for _, _, _, move, _ in ordered]

    def _last_tile(self, allowed: list[int], hand: int, next_hand: int) -> Placement | None:
        """:meth:`_solve_children` of a seat with one live tile left (two seats): after it
        the seat is stuck, so a placement wins if it leaves the opponent stuck too (in
        misère: if it leaves the opponent a move)."""
        cols, not_last_col, lines = self._cols, self._not_last_col, self._lines
        misere = self.misere
        for move in _placements(allowed, hand, cols, not_last_col):
            if (not _live(_after(allowed, lines, move), next_hand, cols, not_last_col)
                    ) != misere:
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
            after = _after(allowed, lines, move)
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
