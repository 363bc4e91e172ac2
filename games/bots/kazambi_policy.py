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
from games.bots.kazambi_masks import after_placement, nth_placement, placement_groups
from games.bots.kazambi_value import leaf_value
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove
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


def live_tiles(
    allowed: Sequence[int], tiles: Sequence[int], cols: int, not_last_col: int
) -> list[int]:
    """The ``tiles`` (ids) that fit somewhere with the ``allowed`` masks."""
    live = []
    for tile in tiles:
        a, b = TILE_VALUES[tile]
        mask_a = allowed[a]
        if a == b:
            if mask_a & (mask_a >> 1) & not_last_col or mask_a & (mask_a >> cols):
                live.append(tile)
            continue
        mask_b = allowed[b]
        if (
            (mask_a & (mask_b >> 1) | mask_b & (mask_a >> 1)) & not_last_col
            or mask_a & (mask_b >> cols)
            or mask_b & (mask_a >> cols)
        ):
            live.append(tile)
    return live


def live_count(
    allowed: Sequence[int], tiles: Sequence[int], cols: int, not_last_col: int, skip: int = -1
) -> int:
    """How many of ``tiles`` but ``skip`` fit somewhere (:func:`live_tiles`, counted)."""
    count = 0
    for tile in tiles:
        if tile == skip:
            continue
        a, b = TILE_VALUES[tile]
        mask_a = allowed[a]
        if a == b:
            if mask_a & (mask_a >> 1) & not_last_col or mask_a & (mask_a >> cols):
                count += 1
            continue
        mask_b = allowed[b]
        if (
            (mask_a & (mask_b >> 1) | mask_b & (mask_a >> 1)) & not_last_col
            or mask_a & (mask_b >> cols)
            or mask_b & (mask_a >> cols)
        ):
            count += 1
    return count


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
    geometry = state.geometry
    cols, not_last_col, lines = geometry.cols, geometry.not_last_col, geometry.lines
    allowed = state.allowed
    groups, total, _ = placement_groups(
        allowed, hand_tiles(state.hands[state.to_move]), cols, not_last_col
    )
    picks = rng.sample(range(total), min(total, width))
    nxt = hand_tiles(state.hands[(state.to_move + 1) % state.seats])
    nxt = live_tiles(allowed, nxt, cols, not_last_col)
    sign = -1 if game.misere else 1
    scored: list[tuple[int, int, KazambiMove]] = []
    rest: list[KazambiMove] = []
    for rank, index in enumerate(picks):
        cell_x, step, value_x, value_y = nth_placement(groups, index)
        row, col = divmod(cell_x, cols)
        move = KazambiMove(value_x, value_y, row, col, step != 1)
        if rank >= scored_width:
            rest.append(move)
            continue
        after = after_placement(allowed, lines, cell_x, cell_x + step, value_x, value_y)
        left = len(live_tiles(after, nxt, cols, not_last_col))
        scored.append((sign * left, rank, move))
    scored.sort()
    return [move for _, _, move in scored] + rest


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
    moves the learned guess (:func:`~games.bots.kazambi_value.leaf_value`)."""
    board = state.geometry
    cols, not_last_col, lines = board.cols, board.not_last_col, board.lines
    seats = state.seats
    hands = [hand_tiles(hand) for hand in state.hands]
    allowed = list(state.allowed)
    seat = state.to_move
    randrange = rng.randrange
    random_ = rng.random
    misere = game.misere
    sign = -1 if misere else 1
    moves_left = -1 if depth is None else depth
    while True:
        groups, total, live = placement_groups(allowed, hands[seat], cols, not_last_col)
        hands[seat] = live
        if not total:
            return float(game.stuck_winner(seat) == 0)
        nxt = (seat + 1) % seats
        if not moves_left:
            chance = leaf_value(board, allowed, live, hands[nxt])
            if misere:
                chance = 1.0 - chance
            return chance if seat % 2 == 0 else 1.0 - chance
        moves_left -= 1
        best_after: list[int] = []
        best_left = 0
        best_values = (0, 0)
        for _ in range(1 if random_() < EPSILON else samples):
            cell_x, step, value_x, value_y = nth_placement(groups, randrange(total))
            after = after_placement(allowed, lines, cell_x, cell_x + step, value_x, value_y)
            theirs = live_count(after, hands[nxt], cols, not_last_col)
            if not theirs and sign > 0:
                best_after, best_values = after, (value_x, value_y)
                break
            left = theirs
            if OWN_WEIGHT:
                placed = _TILE_ID[value_x][value_y]
                left -= OWN_WEIGHT * live_count(after, live, cols, not_last_col, placed)
            left *= sign
            if not best_after or left < best_left:
                best_after, best_left, best_values = after, left, (value_x, value_y)
        live.remove(_TILE_ID[best_values[0]][best_values[1]])
        allowed = best_after
        seat = nxt


_TILE_ID: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next(t for t, (a, b) in enumerate(TILE_VALUES) if {a, b} == {x, y}) for y in range(7)
    )
    for x in range(7)
)


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
