"""Uniformly random playouts on the incremental state (for bots and benchmarks)."""

from __future__ import annotations

import random
from typing import Any

from games.engines.stolbiki.engine import StolbikiEngine, score
from games.engines.stolbiki.state import StolbikiState, pass_turn, place, placeable_cards

_ENGINE = StolbikiEngine()


def play_randomly(
    state: StolbikiState, rng: random.Random, counts: list[int] | None = None
) -> None:
    """Play ``state`` to its end in place: each turn, every legal placement of the seat
    to move is equally likely; a seat that cannot lay a card passes. ``counts``, if
    given, receives the number of legal moves of every turn (1 for a pass)."""
    masks = state.masks
    frontier = state.frontier
    hands = state.hands
    uniform = rng.random
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    while in_hands:
        hand = hands[state.to_move]
        choices = []
        total = 0
        for cell in frontier:
            mask = masks[cell] & hand
            if mask:
                count = mask.bit_count()
                total += count
                choices.append((cell, mask, count))
        if not total:
            if not placeable_cards(state) & in_hands:
                return
            pass_turn(state)
            if counts is not None:
                counts.append(1)
            continue
        if counts is not None:
            counts.append(total)
        pick = int(uniform() * total)
        index = 0
        while pick >= choices[index][2]:
            pick -= choices[index][2]
            index += 1
        cell, mask, _ = choices[index]
        while pick:
            mask &= mask - 1
            pick -= 1
        card = (mask & -mask).bit_length() - 1
        place(state, card, cell)
        in_hands ^= 1 << card


def random_playout(rng: random.Random, **options: Any) -> dict[str, Any]:
    """Deal a game from ``rng``, play it out at random, and return its result."""
    state = _ENGINE.deal_from(rng, _ENGINE.options(**options))
    play_randomly(state, rng)
    return score(state)
