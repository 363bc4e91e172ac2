"""Kazambi: two identical open hands place dominoes on a board; no line holds a value twice.

Engines for ``kazambi``, ``kazambi-pairs``, ``anti-kazambi`` and ``anti-kazambi-pairs``.
"""

from games.engines.kazambi.engine import (
    AntiKazambiEngine,
    AntiKazambiPairsEngine,
    KazambiEngine,
    KazambiPairsEngine,
)
from games.engines.kazambi.notation import KazambiMove
from games.engines.kazambi.state import KazambiState

__all__ = [
    "AntiKazambiEngine",
    "AntiKazambiPairsEngine",
    "KazambiEngine",
    "KazambiMove",
    "KazambiPairsEngine",
    "KazambiState",
]
