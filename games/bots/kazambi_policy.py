"""Kazambi knowledge for MCTS: the burnt-tiles idea, cheap enough for playouts.

A tile is *live* while it fits somewhere; the seat that runs out of live tiles on its
turn loses (wins in misère). :func:`policy_rollout` plays a game to its end like the
uniform rollout, but most of its moves are the best of a few sampled placements by the
live tiles they leave: as few as possible to the next seat (an opponent in every
variant; none is an immediate win) and as many as possible to the mover, the other way
round in misère. :func:`node_moves` gives a tree node a sample of its moves, ordered by
the live tiles they leave the next seat.

A playout may stop after :data:`PLAYOUT_DEPTH` moves (MCTS version 2) and leave the
rest to a learned guess of who wins (:func:`games.bots.kazambi_value.leaf_value`, fitted
on greedy self-play; mirrored, unmeasured, in misère). That guess after a few policy
moves measured better than playing every game out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from games.bots.adapters import KazambiSearch
from games.bots.kazambi_placements import BoardPlacements, Entry, board_placements, place
from games.bots.kazambi_value import counted_leaf_value
from games.engines.kazambi.board import Geometry
from games.engines.kazambi.codes import kth_bit
from games.engines.kazambi.notation import KazambiMove
from games.engines.kazambi.rules import hand_tiles
from games.engines.kazambi.state import KazambiState

#: Share of playout moves chosen uniformly at random (the rest by the burn measure).
EPSILON = 0.1
#: Placements sampled per playout move; the best of them is played.
SAMPLES = 5
#: Weight of the mover's own live tiles in the playout measure (0: the next seat's only).
OWN_WEIGHT = 1
#: A tree node tries at most this many moves (a seeded sample of its legal moves)...
NODE_WIDTH = 48
#: ... and orders the first of them by the burn measure.
NODE_SCORED = 24
#: Version 2: playout moves before the learned guess judges the rest...
PLAYOUT_DEPTH = 2
#: ... with this many placements sampled per playout move; its tree nodes try this many
#: moves, all ordered by the burn measure (narrower nodes measured stronger with the
#: short playouts).
SHORT_SAMPLES = 8
SHORT_NODE_WIDTH = 24


def node_moves(
    game: KazambiSearch,
    state: KazambiState,
    rng: random.Random,
    width: int = NODE_WIDTH,
    scored_width: int = NODE_SCORED,
) -> list[KazambiMove]:
    """Up to ``width`` distinct legal moves drawn at random (all of them when there are
    fewer), the first ``scored_width`` put best first by the live tiles they leave the
    next seat (fewest; most in misère)."""
    board = state.geometry
    cols = board.cols
    placements = board_placements(board.rows, board.cols)
    own = _packed_tiles(placements, board, state.allowed, state.hands[state.to_move])
    counts = [packed.bit_count() for _, packed in own]
    total = sum(counts)
    picks = rng.sample(range(total), min(total, width))
    nxt = _packed_tiles(
        placements, board, state.allowed, state.hands[(state.to_move + 1) % state.seats]
    )
    sign = -1 if game.misere else 1
    scored: list[tuple[int, int, KazambiMove]] = []
    rest: list[KazambiMove] = []
    for rank, index in enumerate(picks):
        (cell_x, cell_y, value_x, value_y, _), keeps = _nth_placement(
            placements, own, counts, index
        )
        row, col = divmod(cell_x, cols)
        move = KazambiMove(value_x, value_y, row, col, cell_y - cell_x != 1)
        if rank >= scored_width:
            rest.append(move)
            continue
        left = 0
        for tile, packed in nxt:
            if packed & keeps[tile]:
                left += 1
        scored.append((sign * left, rank, move))
    scored.sort()
    return [move for _, _, move in scored] + rest


def _packed_tiles(
    placements: BoardPlacements, board: Geometry, allowed: Sequence[int], hand: int
) -> list[tuple[int, int]]:
    """``(tile, packed placements)`` of the tiles of ``hand`` that fit somewhere."""
    found = []
    for tile in hand_tiles(hand):
        packed = placements.packed(allowed, tile, board.not_last_col)
        if packed:
            found.append((tile, packed))
    return found


def _nth_placement(
    placements: BoardPlacements, tiles: Sequence[tuple[int, int]], counts: Sequence[int],
    index: int,
) -> Entry:
    """Placement ``index`` of ``tiles`` (``(tile, packed)``, each with its placement count
    in ``counts``), in the order of the tiles and of their packed bits."""
    for (tile, packed), count in zip(tiles, counts, strict=True):
        if index < count:
            return placements.entries(tile)[kth_bit(packed, index)]
        index -= count
    raise IndexError(index)  # not reached: index < the counts' total


def policy_rollout(game: KazambiSearch, state: KazambiState, rng: random.Random) -> int:
    """Play ``state`` to its end (its masks are copied, ``state`` is unchanged) and return
    the winning side; see the module docstring for the policy."""
    value = policy_playout(game, state, rng)
    return 0 if value == 1.0 else 1


def policy_playout(
    game: KazambiSearch,
    state: KazambiState,
    rng: random.Random,
    depth: int | None = None,
    samples: int = SAMPLES,
) -> float:
    """Side 0's reward (0..1) of a policy playout from ``state`` (unchanged) that tries
    ``samples`` placements per move: 1 or 0 at the end of the game, or after ``depth``
    moves the learned guess (:func:`~games.bots.kazambi_value.leaf_value`).

    The playout keeps each tile's packed placements (:mod:`games.bots.kazambi_placements`)
    beside the masks, so a sampled placement's effect on a tile is one AND."""
    board = state.geometry
    lines, not_last_col = board.lines, board.not_last_col
    placements = board_placements(board.rows, board.cols)
    entries_of = placements.entries
    seats = state.seats
    hands = [hand_tiles(hand) for hand in state.hands]
    allowed = list(state.allowed)
    packs = {
        tile: placements.packed(allowed, tile, not_last_col)
        for hand in hands for tile in hand
    }
    seat = state.to_move
    randrange = rng.randrange
    random_ = rng.random
    misere = game.misere
    sign = -1 if misere else 1
    moves_left = -1 if depth is None else depth
    while True:
        live = [tile for tile in hands[seat] if packs[tile]]
        hands[seat] = live
        counts = [packs[tile].bit_count() for tile in live]
        total = sum(counts)
        if not total:
            return float(game.stuck_winner(seat) == 0)
        nxt = (seat + 1) % seats
        theirs_tiles = hands[nxt]
        if not moves_left:
            chance = counted_leaf_value(
                allowed, list(zip(live, counts, strict=True)),
                [(tile, packs[tile].bit_count()) for tile in theirs_tiles],
            )
            if misere:
                chance = 1.0 - chance
            return chance if seat % 2 == 0 else 1.0 - chance
        moves_left -= 1
        best: Entry | None = None
        best_left = 0
        for _ in range(1 if random_() < EPSILON else samples):
            index = randrange(total)
            position = 0
            while index >= counts[position]:
                index -= counts[position]
                position += 1
            placed = live[position]
            entry = entries_of(placed)[kth_bit(packs[placed], index)]
            keeps = entry[1]
            theirs = 0
            for tile in theirs_tiles:
                if packs[tile] & keeps[tile]:
                    theirs += 1
            if not theirs and sign > 0:
                best = entry
                break
            left = theirs
            if OWN_WEIGHT:
                own = 0
                for tile in live:
                    if tile != placed and packs[tile] & keeps[tile]:
                        own += 1
                left -= OWN_WEIGHT * own
            left *= sign
            if best is None or left < best_left:
                best, best_left = entry, left
        assert best is not None
        move, keeps = best
        live.remove(move[4])
        allowed = place(allowed, lines, move)
        packs = {tile: packed & keeps[tile] for tile, packed in packs.items()}
        seat = nxt


class KazambiPolicySearch(KazambiSearch):
    """:class:`KazambiSearch` with the burn policy in playouts and tree nodes; the
    better playouts deserve more trust, hence less exploration. ``playout_depth`` stops
    playouts early, after more careful moves, and narrows the nodes
    (:data:`SHORT_SAMPLES`, :data:`SHORT_NODE_WIDTH`; see :func:`policy_playout`);
    ``None`` plays them to the end."""

    exploration: ClassVar[float] = 0.4

    def __init__(self, name: str, playout_depth: int | None = None) -> None:
        super().__init__(name)
        self.playout_depth = playout_depth
        short = playout_depth is not None
        self.samples = SHORT_SAMPLES if short else SAMPLES
        self.node_width = SHORT_NODE_WIDTH if short else NODE_WIDTH
        self.node_scored = SHORT_NODE_WIDTH if short else NODE_SCORED

    def rollout(self, state: KazambiState, rng: random.Random) -> int:
        return policy_rollout(self, state, rng)

    def rollout_value(self, state: KazambiState, rng: random.Random) -> float:
        return policy_playout(self, state, rng, self.playout_depth, self.samples)

    def node_moves(self, state: KazambiState, rng: random.Random) -> list[KazambiMove]:
        return node_moves(self, state, rng, self.node_width, self.node_scored)


_policy_instances: dict[tuple[str, int | None], KazambiPolicySearch] = {}


def policy_search(name: str, playout_depth: int | None = None) -> KazambiPolicySearch:
    """The (shared, stateless) policy adapter of Kazambi variant ``name`` whose playouts
    stop after ``playout_depth`` moves (``None``: at the end of the game)."""
    key = (name, playout_depth)
    adapter = _policy_instances.get(key)
    if adapter is None:
        adapter = _policy_instances[key] = KazambiPolicySearch(name, playout_depth)
    return adapter
