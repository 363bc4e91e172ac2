"""Uniformly random games through the public engine interface (for tests and benchmarks).

:func:`public_playout` deals with ``new_game(seed=rng)`` and then asks ``legal_codes``
(or ``legal_moves``) and ``push`` until no move is left. It draws from ``rng`` exactly as
the game's fast playout (``games.engines.<game>.playout.random_playout``) does, so the
same generator state gives the same game on both paths (but for Stolbiki, whose fast
playout orders the moves by cell): the benchmark compares their speed, the tests their
results.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.engines import get_engine
from games.engines.base import Result
from games.engines.stolbiki.notation import PASS as STOLBIKI_PASS
from games.engines.stolbiki.state import PASS_CODE as STOLBIKI_PASS_CODE

#: How each game's fast playout draws a move: ``randrange`` (every move, Kazambi),
#: ``random`` unless the move is forced (Kugamai), ``random`` unless it is a pass
#: (Stolbiki).
_DRAWS: dict[str, str] = {
    "kazambi": "randrange",
    "kazambi-pairs": "randrange",
    "anti-kazambi": "randrange",
    "anti-kazambi-pairs": "randrange",
    "kugamai": "unless forced",
    "stolbiki": "unless a pass",
}
_PASSES = (STOLBIKI_PASS_CODE, STOLBIKI_PASS)


def public_playout(
    game: str, rng: random.Random, /, *, compact: bool = True, **options: Any
) -> Result:
    """Deal a game of ``game`` from ``rng`` and play uniformly random moves to its end
    through the engine's public methods: ``legal_codes`` (the compact move list) when
    ``compact``, else ``legal_moves``, and ``push`` with what they give. Return the
    result."""
    engine = get_engine(game)
    draw = _DRAWS[game]
    state = engine.new_game(seed=rng, **options)
    moves_of: Callable[[Any], Sequence[Any]] = (
        engine.legal_codes if compact else engine.legal_moves  # type: ignore[attr-defined]
    )
    push = engine.push  # type: ignore[attr-defined]
    if draw == "randrange":
        randrange = rng.randrange
        while moves := moves_of(state):
            push(state, moves[randrange(len(moves))])
    elif draw == "unless forced":
        uniform = rng.random
        while moves := moves_of(state):
            count = len(moves)
            push(state, moves[int(uniform() * count)] if count > 1 else moves[0])
    else:
        uniform = rng.random
        while moves := moves_of(state):
            move = moves[0]
            push(state, move if move in _PASSES else moves[int(uniform() * len(moves))])
    return engine.result(state)
