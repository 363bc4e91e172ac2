"""Exact Kazambi endgames: win or loss for the side to move once few tiles remain.

Only the ``allowed`` masks (where each value may still lie), the hands and the seat to
move decide the rest of a game, so they key the transposition table; tiles that fit
nowhere (burnt) never play again and are dropped from the key. Works for the pairs and
misère variants too: seats alternate sides, so negamax over sides holds.
"""

from __future__ import annotations

from games.bots.solvers.kugamai import SolverLimitError
from games.engines.kazambi.notation import KazambiMove
from games.engines.kazambi.rules import hand_tiles, moves_of, placement_masks, pop, push
from games.engines.kazambi.state import KazambiState

#: The endgame solver is tried when at most this many live tiles remain in all hands.
ENDGAME_TILES = 12


def live_hand(state: KazambiState, seat: int) -> int:
    """``seat``'s hand without its burnt tiles."""
    geometry, allowed = state.geometry, state.allowed
    live = 0
    for tile in hand_tiles(state.hands[seat]):
        if any(placement_masks(geometry, allowed, tile)):
            live |= 1 << tile
    return live


def live_tile_count(state: KazambiState) -> int:
    """Tiles in all hands that still fit somewhere."""
    return sum(live_hand(state, seat).bit_count() for seat in range(state.seats))


class KazambiSolver:
    """Memoised negamax with win/loss values; ``node_limit`` bounds one call's work."""

    def __init__(self, misere: bool, node_limit: int | None = None) -> None:
        self.misere = misere
        self.node_limit = node_limit
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}

    def wins(self, state: KazambiState) -> bool:
        """True if the side to move wins with perfect play (``state`` is restored)."""
        key = (
            tuple(state.allowed),
            tuple(live_hand(state, seat) for seat in range(state.seats)),
            state.to_move,
        )
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SolverLimitError
        moves = moves_of(state, state.to_move)
        result = self.misere if not moves else False
        for move in moves:
            push(state, move)
            try:
                lost = not self.wins(state)
            finally:
                pop(state)
            if lost:
                result = True
                break
        self.table[key] = result
        return result

    def best(self, state: KazambiState) -> tuple[bool, KazambiMove | None]:
        """(does the side to move win?, a winning move if so, else ``None``)."""
        work = state.copy()
        for move in moves_of(work, work.to_move):
            push(work, move)
            try:
                lost = not self.wins(work)
            finally:
                pop(work)
            if lost:
                return True, move
        return (self.misere if not moves_of(work, work.to_move) else False), None


def solve(state: KazambiState, misere: bool = False, node_limit: int | None = None) -> int:
    """1 if the side to move wins the position with perfect play, -1 if it loses
    (:class:`SolverLimitError` past ``node_limit``)."""
    return 1 if KazambiSolver(misere, node_limit).wins(state.copy()) else -1
