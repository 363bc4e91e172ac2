"""Exact Kazambi endgames: win or loss for the side to move once few tiles remain.

Only the live tiles' placements, the hands and the seat to move decide the rest of a
game: a placement survives a move unless the move takes one of its cells or puts one of
its values on a line through it, which the geometry alone tells. So the search runs on
each live tile's placements packed in one int (:mod:`games.bots.kazambi_placements`): a
child is every tile's placements ANDed with what the move keeps of them, tiles left
with none are burnt and drop out, and the packed placements, the live hands, the seat,
the board size and the variant key the transposition table (positions whose masks
differ only where no live tile can go share an entry). Works for the pairs and misère
variants too: seats alternate sides, so negamax over sides holds.

Children are tried in the order of the live tiles they leave the next seat, ties broken
by how near to burning those tiles are (fewest and nearest first; the other way round
in misère), and a placement that leaves the next seat stuck ends the search at once
when that wins. Some positions are settled without children: the next seat already
stuck, and (two seats) a seat with one live tile left, which after it is stuck itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from games.bots.kazambi_placements import Placement, board_placements
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
#: ``_CAPPED[count]``: a placement count capped at ``FAR_FROM_BURNT`` (any board's).
_CAPPED = tuple(min(count, FAR_FROM_BURNT) for count in range(4 * 12 * 12 + 1))
#: New positions between two looks at the clock when a deadline is set.
CLOCK_EVERY = 256

#: A child in the search's order: (order key, rank, placement, what the placement keeps
#: of each tile's packed placements).
_Child = tuple[int, int, Placement, tuple[int, ...]]


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


def near_burnt(allowed: Sequence[int], hand: int, rows: int, cols: int) -> int:
    """How far the live tiles of ``hand`` are from burning on a ``rows`` x ``cols`` board:
    their placements, each tile's counted up to :data:`FAR_FROM_BURNT` (more says little).
    The search orders children by this measure of the next seat's hand."""
    board = board_placements(rows, cols)
    not_last_col = geometry(rows, cols).not_last_col
    total = 0
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        total += _CAPPED[board.packed(allowed, low.bit_length() - 1, not_last_col).bit_count()]
    return total


def live_hand(state: KazambiState, seat: int) -> int:
    """``seat``'s hand without its burnt tiles."""
    geometry = state.geometry
    return _live(state.allowed, state.hands[seat], geometry.cols, geometry.not_last_col)


def live_tile_count(state: KazambiState) -> int:
    """Tiles in all hands that still fit somewhere."""
    return sum(live_hand(state, seat).bit_count() for seat in range(state.seats))


class KazambiSolver:
    """Memoised negamax with win/loss values. ``node_limit`` bounds one call's work, and so
    does ``deadline`` (a :func:`time.thread_time` value) when set; past either the search
    raises :class:`SolverLimitError` and keeps what it proved in its table."""

    def __init__(self, misere: bool, node_limit: int | None = None) -> None:
        self.misere = misere
        self.node_limit = node_limit
        self.deadline: float | None = None
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}
        self._board: tuple[int, int, bool, int] = (0, 0, misere, 0)
        self._cols = 0
        self._placements = board_placements(2, 2)

    def _use_board(self, state: KazambiState) -> _Position:
        """Take ``state``'s board; return its position (live hands, live tiles, their
        packed placements)."""
        board = state.geometry
        self._board = (board.rows, board.cols, self.misere, state.seats)
        self._cols = board.cols
        placements = self._placements = board_placements(board.rows, board.cols)
        hands = [live_hand(state, seat) for seat in range(state.seats)]
        held = 0
        for hand in hands:
            held |= hand
        tiles: list[int] = []
        packs: list[int] = []
        while held:
            low = held & -held
            held ^= low
            tile = low.bit_length() - 1
            tiles.append(tile)
            packs.append(placements.packed(state.allowed, tile, board.not_last_col))
        return hands, tuple(tiles), tuple(packs)

    def key(self, state: KazambiState) -> tuple[object, ...]:
        """The transposition-table key of ``state``: board size and variant, seat to move,
        live hands and the live tiles' packed placements."""
        hands, _, packs = self._use_board(state)
        return (self._board, state.to_move, tuple(hands), packs)

    def wins(self, state: KazambiState) -> bool:
        """True if the side to move wins with perfect play (``state`` is unchanged)."""
        hands, tiles, packs = self._use_board(state)
        return self._wins(hands, tiles, packs, state.to_move)

    def _wins(self, hands: list[int], tiles: tuple[int, ...], packs: tuple[int, ...],
              seat: int) -> bool:
        key = (self._board, seat, tuple(hands), packs)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SolverLimitError
        if (
            self.deadline is not None
            and not self.nodes % CLOCK_EVERY
            and time.thread_time() > self.deadline
        ):
            raise SolverLimitError
        if not hands[seat]:
            result = self.misere
        elif not hands[(seat + 1) % len(hands)]:
            # Whatever the seat plays, the next one is stuck.
            result = not self.misere
        else:
            result = self._solve_children(hands, tiles, packs, seat) is not None
        self.table[key] = result
        return result

    def _solve_children(self, hands: list[int], tiles: tuple[int, ...],
                        packs: tuple[int, ...], seat: int) -> Placement | None:
        """A winning placement of ``seat``, or ``None``."""
        if len(hands) == 2 and not hands[seat] & (hands[seat] - 1):
            return self._last_tile(hands, tiles, packs, seat)
        winning, ordered = self._ordered_children(hands, tiles, packs, seat)
        if winning is not None:
            return winning
        misere = self.misere
        nxt = (seat + 1) % len(hands)
        two_seats = len(hands) == 2
        for _, _, move, keeps in ordered:
            child_hands, child_tiles, child_packs = _child(hands, tiles, packs, seat, move,
                                                           keeps)
            if not child_hands[nxt]:
                continue  # misère, and the next seat is stuck: it wins
            if two_seats and not child_hands[seat]:
                # The opponent moves and then the seat is stuck.
                if misere:
                    return move
                continue
            if not self._wins(child_hands, child_tiles, child_packs, nxt):
                return move
        return None

    def _ordered_children(self, hands: list[int], tiles: tuple[int, ...],
                          packs: tuple[int, ...], seat: int
                          ) -> tuple[Placement | None, list[_Child]]:
        """(a placement that leaves the next seat stuck, if that wins, else ``None``; the
        placements in the order the search tries them)."""
        entries_of = self._placements.entries
        misere = self.misere
        sign = -1 if misere else 1
        own, next_hand = hands[seat], hands[(seat + 1) % len(hands)]
        next_tiles = [(tile, packed) for tile, packed in zip(tiles, packs, strict=True)
                      if next_hand >> tile & 1]
        ordered: list[_Child] = []
        rank = 0
        for tile, packed_moves in zip(tiles, packs, strict=True):
            if not own >> tile & 1:
                continue
            # BoardPlacements.each inlined: this loop is the solver's hot path.
            entries = entries_of(tile)
            while packed_moves:
                bit = packed_moves & -packed_moves
                packed_moves ^= bit
                move, keeps = entries[bit.bit_length() - 1]
                live = near = 0
                for other, packed in next_tiles:
                    count = (packed & keeps[other]).bit_count()
                    if count:
                        live += 1
                        near += count if count < FAR_FROM_BURNT else FAR_FROM_BURNT
                if not live and not misere:
                    return move, []
                ordered.append((sign * (live * ORDER_SCALE + near), rank, move, keeps))
                rank += 1
        ordered.sort()  # by the first two entries: the ranks differ
        return None, ordered

    def _last_tile(self, hands: list[int], tiles: tuple[int, ...], packs: tuple[int, ...],
                   seat: int) -> Placement | None:
        """:meth:`_solve_children` of a seat with one live tile left (two seats): after it
        the seat is stuck, so a placement wins if it leaves the opponent stuck too (in
        misère: if it leaves the opponent a move)."""
        misere = self.misere
        own, next_hand = hands[seat], hands[1 - seat]
        next_tiles = [(tile, packed) for tile, packed in zip(tiles, packs, strict=True)
                      if next_hand >> tile & 1]
        tile = own.bit_length() - 1
        for move, keeps in self._placements.each(tile, packs[tiles.index(tile)]):
            stuck = True
            for other, packed in next_tiles:
                if packed & keeps[other]:
                    stuck = False
                    break
            if stuck != misere:
                return move
        return None

    def ordered_moves(self, state: KazambiState) -> list[KazambiMove]:
        """The moves of the seat to move in the order the search tries them (a move that
        leaves the next seat stuck first when that wins), the moves that lose at once
        last: after them the seat's side is stuck at its next turn, or in misère the
        next seat is stuck now."""
        hands, tiles, packs = self._use_board(state)
        seat = state.to_move
        cols = self._cols
        winning, ordered = self._ordered_children(hands, tiles, packs, seat)
        if winning is not None:
            return [_move_of(winning, cols)]
        nxt = (seat + 1) % len(hands)
        hopeful: list[KazambiMove] = []
        hopeless: list[KazambiMove] = []
        for _, _, move, keeps in ordered:
            child_hands, _, _ = _child(hands, tiles, packs, seat, move, keeps)
            stuck_next_turn = len(hands) == 2 and not child_hands[seat]
            loses_now = not child_hands[nxt] if self.misere else stuck_next_turn
            (hopeless if loses_now else hopeful).append(_move_of(move, cols))
        return hopeful + hopeless

    def known_results(self, state: KazambiState) -> dict[KazambiMove, bool]:
        """What the table already proves about the moves of the seat to move, without
        searching: move -> True (the move wins) or False (it loses); moves the table
        does not settle are left out (a move after which a seat is stuck is settled)."""
        hands, tiles, packs = self._use_board(state)
        seat = state.to_move
        nxt = (seat + 1) % len(hands)
        known: dict[KazambiMove, bool] = {}
        for tile, packed_moves in zip(tiles, packs, strict=True):
            if not hands[seat] >> tile & 1:
                continue
            for move, keeps in self._placements.each(tile, packed_moves):
                child_hands, _, child_packs = _child(hands, tiles, packs, seat, move, keeps)
                if not child_hands[nxt]:
                    value: bool | None = not self.misere
                elif len(child_hands) == 2 and not child_hands[seat]:
                    value = self.misere  # the opponent moves, then the seat is stuck
                else:
                    opponent = self.table.get(
                        (self._board, nxt, tuple(child_hands), child_packs)
                    )
                    value = None if opponent is None else not opponent
                if value is not None:
                    known[_move_of(move, self._cols)] = value
        return known

    def best(self, state: KazambiState) -> tuple[bool, KazambiMove | None]:
        """(does the side to move win?, a winning move if so, else ``None``)."""
        hands, tiles, packs = self._use_board(state)
        seat = state.to_move
        if not hands[seat]:
            return self.misere, None
        move = self._solve_children(hands, tiles, packs, seat)
        if move is None:
            return False, None
        return True, _move_of(move, self._cols)


#: A position in the search: (each seat's live tiles as a hand mask, the tiles held live
#: by any seat in increasing order, their packed placements in the same order).
_Position = tuple[list[int], tuple[int, ...], tuple[int, ...]]


def _child(hands: list[int], tiles: tuple[int, ...], packs: tuple[int, ...], seat: int,
           move: Placement, keeps: tuple[int, ...]) -> _Position:
    """The position after ``seat`` plays ``move`` (which keeps ``keeps``): the tile leaves
    the seat's hand, tiles left without placements burn, and tiles nobody holds any more
    leave the position."""
    played = move[4]
    own = hands[seat] & ~(1 << played)
    held = own
    for other, hand in enumerate(hands):
        if other != seat:
            held |= hand
    child_tiles: list[int] = []
    child_packs: list[int] = []
    alive = 0
    for tile, packed in zip(tiles, packs, strict=True):
        if held >> tile & 1:
            packed &= keeps[tile]
            if packed:
                child_tiles.append(tile)
                child_packs.append(packed)
                alive |= 1 << tile
    child_hands = [hand & alive for hand in hands]
    child_hands[seat] = own & alive
    return child_hands, tuple(child_tiles), tuple(child_packs)


def _move_of(move: Placement, cols: int) -> KazambiMove:
    cell_x, cell_y, value_x, value_y, _ = move
    row, col = divmod(cell_x, cols)
    return KazambiMove(value_x, value_y, row, col, cell_y - cell_x == cols)


def solve(state: KazambiState, misere: bool = False, node_limit: int | None = None) -> int:
    """1 if the side to move wins the position with perfect play, -1 if it loses
    (:class:`SolverLimitError` past ``node_limit``)."""
    return 1 if KazambiSolver(misere, node_limit).wins(state.copy()) else -1
