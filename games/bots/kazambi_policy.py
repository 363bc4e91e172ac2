"""Kazambi knowledge for MCTS: the burnt-tiles idea, cheap enough for playouts.

A tile is *live* while it fits somewhere; the seat that runs out of live tiles on its
turn loses (wins in misère). :func:`policy_rollout` plays a game to its end like the
uniform rollout, but most of its moves are the best of a few sampled placements by how
many live tiles they leave the next seat (an opponent in every variant): as few as
possible, none being an immediate win; in misère as many as possible. :func:`burn_order`
orders a tree node's moves by the same measure.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.bots.adapters import KazambiSearch
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove
from games.engines.kazambi.rules import hand_tiles, move_cells
from games.engines.kazambi.state import KazambiState

#: Share of playout moves chosen uniformly at random (the rest by the burn measure).
EPSILON = 0.25
#: Placements sampled per playout move; the best of them is played.
SAMPLES = 3
#: A tree node orders at most this many moves (a seeded sample) by the burn measure.
NODE_SCORED = 40


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


def _after(
    allowed: Sequence[int], lines: Sequence[int], cell_x: int, cell_y: int, vx: int, vy: int
) -> list[int]:
    keep = ~((1 << cell_x) | (1 << cell_y))
    after = [mask & keep for mask in allowed]
    after[vx] &= ~lines[cell_x]
    after[vy] &= ~lines[cell_y]
    return after


def burn_order(
    game: KazambiSearch, state: KazambiState, moves: list[KazambiMove], rng: random.Random
) -> list[KazambiMove]:
    """``moves`` shuffled, then a sample of :data:`NODE_SCORED` of them put first, best
    first by the live tiles they leave the next seat (fewest; most in misère)."""
    order = list(moves)
    rng.shuffle(order)
    head, tail = order[:NODE_SCORED], order[NODE_SCORED:]
    geometry = state.geometry
    cols, not_last_col, lines = geometry.cols, geometry.not_last_col, geometry.lines
    nxt = hand_tiles(state.hands[(state.to_move + 1) % state.seats])
    nxt = live_tiles(state.allowed, nxt, cols, not_last_col)
    sign = -1 if game.misere else 1
    scored = []
    for index, move in enumerate(head):
        cell_x, cell_y = move_cells(geometry, move)
        after = _after(state.allowed, lines, cell_x, cell_y, move.value_x, move.value_y)
        left = len(live_tiles(after, nxt, cols, not_last_col))
        scored.append((sign * left, index, move))
    scored.sort()
    return [move for _, _, move in scored] + tail


def policy_rollout(game: KazambiSearch, state: KazambiState, rng: random.Random) -> int:
    """Play ``state`` to its end (its masks are copied, ``state`` is unchanged) and return
    the winning side; see the module docstring for the policy."""
    board = state.geometry
    cols, not_last_col, lines = board.cols, board.not_last_col, board.lines
    seats = state.seats
    hands = [hand_tiles(hand) for hand in state.hands]
    allowed = list(state.allowed)
    seat = state.to_move
    randrange = rng.randrange
    random_ = rng.random
    misere = game.misere
    while True:
        live: list[int] = []
        options: list[tuple[int, int, int, int]] = []  # (count, mask, cell step, values)
        total = 0
        for tile in hands[seat]:
            a, b = TILE_VALUES[tile]
            mask_a = allowed[a]
            kinds: tuple[tuple[int, int, int, int], ...]
            if a == b:
                kinds = (
                    (mask_a & (mask_a >> 1) & not_last_col, 1, a, a),
                    (mask_a & (mask_a >> cols), cols, a, a),
                )
            else:
                mask_b = allowed[b]
                kinds = (
                    (mask_a & (mask_b >> 1) & not_last_col, 1, a, b),
                    (mask_b & (mask_a >> 1) & not_last_col, 1, b, a),
                    (mask_a & (mask_b >> cols), cols, a, b),
                    (mask_b & (mask_a >> cols), cols, b, a),
                )
            fits = False
            for mask, step, value_x, value_y in kinds:
                if mask:
                    count = mask.bit_count()
                    total += count
                    options.append((count, mask, step, value_x * 8 + value_y))
                    fits = True
            if fits:
                live.append(tile)
        hands[seat] = live
        if not total:
            return game.stuck_winner(seat)
        nxt = (seat + 1) % seats
        tries = 1 if random_() < EPSILON else SAMPLES
        best: tuple[int, int, int, int] | None = None
        best_left = -1
        for _ in range(tries):
            pick = randrange(total)
            for option in options:
                if pick < option[0]:
                    break
                pick -= option[0]
            _, mask, step, values = option
            while pick:
                mask &= mask - 1
                pick -= 1
            cell_x = (mask & -mask).bit_length() - 1
            value_x, value_y = divmod(values, 8)
            candidate = (cell_x, cell_x + step, value_x, value_y)
            if tries == 1:
                best = candidate
                break
            after = _after(allowed, lines, *candidate)
            left = len(live_tiles(after, hands[nxt], cols, not_last_col))
            if misere:
                left = -left
            if best is None or left < best_left:
                best, best_left = candidate, left
                if left == 0 and not misere:
                    break
        assert best is not None
        cell_x, cell_y, value_x, value_y = best
        live.remove(_TILE_ID[value_x][value_y])
        allowed = _after(allowed, lines, cell_x, cell_y, value_x, value_y)
        seat = nxt


_TILE_ID: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next(t for t, (a, b) in enumerate(TILE_VALUES) if {a, b} == {x, y}) for y in range(7)
    )
    for x in range(7)
)


class KazambiPolicySearch(KazambiSearch):
    """:class:`KazambiSearch` with the burn policy in playouts and tree nodes."""

    def rollout(self, state: KazambiState, rng: random.Random) -> int:
        return policy_rollout(self, state, rng)

    def order(
        self, state: KazambiState, moves: list[KazambiMove], rng: random.Random
    ) -> list[KazambiMove]:
        return burn_order(self, state, moves, rng)


_policy_instances: dict[str, KazambiPolicySearch] = {}


def policy_search(name: str) -> KazambiPolicySearch:
    """The (shared, stateless) policy adapter of Kazambi variant ``name``."""
    adapter = _policy_instances.get(name)
    if adapter is None:
        adapter = _policy_instances[name] = KazambiPolicySearch(name)
    return adapter
