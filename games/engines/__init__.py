"""Pure-Python rule engines for Kazambi, Kugamai and Stolbiki, found by name.

>>> from games.engines import get_engine
>>> engine = get_engine("kugamai")
>>> state = engine.new_game(seed=42)
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from games.engines.base import Engine
from games.engines.errors import (
    DocumentError,
    EngineError,
    IllegalMoveError,
    NotationError,
    OptionError,
    RecordError,
    UnknownGameError,
)

__all__ = [
    "ENGINE_NAMES",
    "DocumentError",
    "Engine",
    "EngineError",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "RecordError",
    "UnknownGameError",
    "get_engine",
]

# name -> (module, factory attribute): modules are imported on first use.
_REGISTRY: dict[str, tuple[str, str]] = {
    "kazambi": ("games.engines.kazambi", "KazambiEngine"),
    "kazambi-pairs": ("games.engines.kazambi", "KazambiPairsEngine"),
    "anti-kazambi": ("games.engines.kazambi", "AntiKazambiEngine"),
    "anti-kazambi-pairs": ("games.engines.kazambi", "AntiKazambiPairsEngine"),
    "kugamai": ("games.engines.kugamai", "KugamaiEngine"),
    "stolbiki": ("games.engines.stolbiki", "StolbikiEngine"),
}

ENGINE_NAMES: tuple[str, ...] = tuple(_REGISTRY)

#: The rating pool family of each engine name (see ratings.maths).
GAME_FAMILY: dict[str, str] = {
    "kazambi": "kazambi",
    "kazambi-pairs": "kazambi",
    "anti-kazambi": "kazambi",
    "anti-kazambi-pairs": "kazambi",
    "kugamai": "kugamai",
    "stolbiki": "stolbiki",
}

_instances: dict[str, Engine[Any]] = {}


def get_engine(name: str) -> Engine[Any]:
    """The engine registered under ``name``; :class:`UnknownGameError` otherwise."""
    engine = _instances.get(name)
    if engine is None:
        try:
            module_name, attribute = _REGISTRY[name]
        except KeyError:
            known = ", ".join(ENGINE_NAMES)
            raise UnknownGameError(f"unknown game {name!r} (games: {known})") from None
        factory: Callable[[], Engine[Any]] = getattr(import_module(module_name), attribute)
        engine = _instances[name] = factory()
    return engine
