"""Uniformly random games through the public engine interface (for tests and benchmarks).

:func:`public_playout` deals with ``new_game(seed=rng)`` and then asks ``legal_codes``
(or ``legal_moves``) and ``push`` until no move is left. It draws from ``rng`` exactly as
the game's fast playout (``games.engines.<game>.playout.random_playout``) does, so the
same generator state gives the same game on both paths: the benchmark compares their
speed, the tests their results.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.engines import get_engine
from games.engines.base import Result
from games.engines.stolbiki.notation import PASS as STOLBIKI_PASS
from games.engines.stolbiki.state import PASS_CODE as STOLBIKI_PASS_CODE

Pick = Callable[[random.Random, Sequence[Any]], Any]


def _pick_kazambi(rng: random.Random, moves: Sequence[Any]) -> Any:
    return moves[rng.randrange(len(moves))]


def _pick_kugamai(rng: random.Random, moves: Sequence[Any]) -> Any:
    """A forced move draws nothing."""
    count = len(moves)
    return moves[int(rng.random() * count)] if count > 1 else moves[0]


def _pick_stolbiki(rng: random.Random, moves: Sequence[Any]) -> Any:
    """A pass draws nothing."""
    first = moves[0]
    if first in (STOLBIKI_PASS_CODE, STOLBIKI_PASS):
        return first
    return moves[int(rng.random() * len(moves))]


_PICKS: dict[str, Pick] = {
    "kazambi": _pick_kazambi,
    "kazambi-pairs": _pick_kazambi,
    "anti-kazambi": _pick_kazambi,
    "anti-kazambi-pairs": _pick_kazambi,
    "kugamai": _pick_kugamai,
    "stolbiki": _pick_stolbiki,
}


def public_playout(
    game: str, rng: random.Random, /, *, compact: bool = True, **options: Any
) -> Result:
    """Deal a game of ``game`` from ``rng`` and play uniformly random moves to its end
    through the engine's public methods: ``legal_codes`` (the compact move list) when
    ``compact``, else ``legal_moves``, and ``push`` with what they give. Return the
    result."""
    engine = get_engine(game)
    pick = _PICKS[game]
    state = engine.new_game(seed=rng, **options)
    moves_of: Callable[[Any], Sequence[Any]] = (
        engine.legal_codes if compact else engine.legal_moves  # type: ignore[attr-defined]
    )
    push = engine.push  # type: ignore[attr-defined]
    while moves := moves_of(state):
        push(state, pick(rng, moves))
    return engine.result(state)
