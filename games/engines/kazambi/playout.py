"""Uniformly random Kazambi games on the bit masks alone, for benchmarks and bots.

The moves are counted per tile with ``int.bit_count`` and the k-th is located without
building move objects, in the canonical order of ``legal_moves`` (tile id, kind, cell): the
same ``rng`` gives the same game as picking ``moves[rng.randrange(len(moves))]`` through
the public API from ``engine.new_game(deal=engine.draw_deal(rng))``.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.errors import OptionError
from games.engines.kazambi.board import geometry
from games.engines.kazambi.codes import kth_bit
from games.engines.kazambi.engine import (
    AntiKazambiEngine,
    AntiKazambiPairsEngine,
    KazambiEngine,
    KazambiPairsEngine,
    draw_deal,
)
from games.engines.kazambi.notation import TILE_VALUES
from games.engines.kazambi.rules import hand_tiles
from games.i18n import N_

ENGINES: dict[str, type[KazambiEngine]] = {
    engine.name: engine
    for engine in (KazambiEngine, KazambiPairsEngine, AntiKazambiEngine, AntiKazambiPairsEngine)
}


def random_playout(rng: random.Random, *, game: str = "kazambi", **options: Any) -> dict[str, Any]:
    """Deal a game of ``game`` from ``rng``, play uniformly random placements to the end and
    return its result (as ``engine.result`` would)."""
    try:
        engine_class = ENGINES[game]
    except KeyError:
        raise OptionError(N_("unknown Kazambi variant %(game)r (%(variants)s)"),
                          game=game, variants=', '.join(ENGINES)) from None
    merged = engine_class().options(**options)
    board = geometry(merged["rows"], merged["cols"])
    cols, not_last_col, lines = board.cols, board.not_last_col, board.lines
    seats = engine_class.seats
    hand_masks, seat = draw_deal(rng, seats)
    hands = [[TILE_VALUES[tile] for tile in hand_tiles(hand)] for hand in hand_masks]
    allowed = [board.full] * 7
    placed = 0
    randrange = rng.randrange
    while True:
        # Per value: where a left half may lie, and the masks shifted onto the X cells.
        left = [mask & not_last_col for mask in allowed]
        right = [mask >> 1 for mask in allowed]
        below = [mask >> cols for mask in allowed]
        # Count each tile's placements; drop tiles that fit nowhere (burnt for good).
        live: list[tuple[int, int]] = []
        counts: list[int] = []
        total = 0
        for tile in hands[seat]:
            a, b = tile
            if a == b:
                count = (left[a] & right[a]).bit_count() + (allowed[a] & below[a]).bit_count()
            else:
                count = (
                    (left[a] & right[b]).bit_count()
                    + (left[b] & right[a]).bit_count()
                    + (allowed[a] & below[b]).bit_count()
                    + (allowed[b] & below[a]).bit_count()
                )
            if count:
                live.append(tile)
                counts.append(count)
                total += count
        if not total:
            break
        k = randrange(total)
        index = 0
        while k >= counts[index]:
            k -= counts[index]
            index += 1
        a, b = live.pop(index)
        hands[seat] = live
        double = a == b
        kinds = (
            left[a] & right[b],
            0 if double else left[b] & right[a],
            allowed[a] & below[b],
            0 if double else allowed[b] & below[a],
        )
        kind = 0
        while k >= (count := kinds[kind].bit_count()):
            k -= count
            kind += 1
        mask = kinds[kind]
        cell_x = kth_bit(mask, k)
        cell_y = cell_x + (cols if kind >= 2 else 1)
        value_x, value_y = (b, a) if kind % 2 else (a, b)
        keep = ~((1 << cell_x) | (1 << cell_y))
        allowed = [mask & keep for mask in allowed]
        allowed[value_x] &= ~lines[cell_x]
        allowed[value_y] &= ~lines[cell_y]
        placed += 1
        seat = (seat + 1) % seats
    winner = seat % 2 if engine_class.misere else 1 - seat % 2
    return {"winner": winner, "stuck_seat": seat, "tiles_placed": placed}
