"""Uniformly random Kugamai games on the fastest path (for bots and benchmarks).

:func:`random_playout` consumes the generator exactly like this use of the public API,
so both give the same game for the same generator state::

    state = engine.new_game(deal=..., low_doubles_seat=...)  # dealt by draw_deal(rng, ...)
    while not engine.is_over(state):
        moves = engine.legal_moves(state)
        if len(moves) > 1:
            move = moves[int(rng.random() * len(moves))]
        else:
            move = moves[0]                      # forced: draws nothing
        state = engine.play(state, move)
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.errors import OptionError
from games.engines.kugamai.dealing import draw_deal
from games.engines.kugamai.tiles import SUBSET_VALUES, TILE_MASK
from games.i18n import N_

BLOCKED = "blocked"
DOUBLES_OUT = "doubles out"

_SHIFT = tuple(7 * v for v in range(7))
#: _LAY[end][w]: the hand bits of tile end-w.
_LAY = tuple(tuple(TILE_MASK[end * 7 + w] for w in range(7)) for end in range(7))
_CLEAR = tuple(127 ^ (1 << v) for v in range(7))


def random_playout(rng: random.Random, **options: Any) -> dict[str, Any]:
    """Deal a game from ``rng``, play uniformly random legal moves to the end, and return
    the result (as ``KugamaiEngine.result`` would): ``{"winner", "reason", "moves"}``."""
    low_doubles_seat = options.pop("low_doubles_seat", None)
    if options:
        raise OptionError(N_("kugamai: unknown option %(key)r"), key=sorted(options)[0])
    if low_doubles_seat not in (None, 0, 1):
        raise OptionError(N_("kugamai: low_doubles_seat must be 0 or 1, not %(low_doubles_seat)r"),
                          low_doubles_seat=low_doubles_seat)
    _, hand0, hand1 = draw_deal(rng, low_doubles_seat)
    random_ = rng.random
    shift, lay, clear, subsets = _SHIFT, _LAY, _CLEAR, SUBSET_VALUES

    # The holder of 0-0 opens with it (bit 0 of the hand); seats then alternate.
    if hand0 & 1:
        seat, cur, oth = 1, hand1, hand0 ^ 1
    else:
        seat, cur, oth = 0, hand0, hand1 ^ 1
    remaining = [6, 7, 7, 7, 7, 7, 7]  # tiles of each value not yet on the table
    safe = 127  # values w with at least two tiles off the table: an end w is no fish
    cur_doubles = oth_doubles = 3
    end = 0
    moves = 1
    while True:
        playable = (cur >> shift[end]) & safe
        if playable:
            choices = subsets[playable]
            count = len(choices)
            new_end = choices[int(random_() * count)] if count > 1 else choices[0]
            cur ^= lay[end][new_end]
            left = remaining[new_end] - 1
            remaining[new_end] = left
            if left < 2:
                safe &= clear[new_end]
            if new_end == end:
                cur_doubles -= 1
                if not cur_doubles:
                    return {"winner": seat, "reason": DOUBLES_OUT, "moves": moves + 1}
            else:
                left = remaining[end] - 1
                remaining[end] = left
                if left < 2:
                    safe &= clear[end]
                end = new_end
        elif not (oth >> shift[end]) & safe:
            return {"winner": None, "reason": BLOCKED, "moves": moves}
        moves += 1
        seat ^= 1
        cur, oth = oth, cur
        cur_doubles, oth_doubles = oth_doubles, cur_doubles
