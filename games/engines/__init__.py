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
from games.engines.facts import GameFacts
from games.i18n import N_

__all__ = [
    "ENGINE_NAMES",
    "GAME_FAMILY",
    "GameFacts",
    "DocumentError",
    "Engine",
    "EngineError",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "RecordError",
    "UnknownGameError",
    "game_facts",
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

# Each engine package's ``facts`` module: what the service knows of its games.
_FACT_MODULES = ("games.engines.kazambi.facts", "games.engines.kugamai.facts",
                 "games.engines.stolbiki.facts")
_FACTS: dict[str, GameFacts] = {
    facts.name: facts for module in _FACT_MODULES for facts in import_module(module).FACTS
}
assert set(_FACTS) == set(_REGISTRY), "every engine needs its facts, and only engines"

#: The rating pool family of each engine name (see ratings.maths).
GAME_FAMILY: dict[str, str] = {name: _FACTS[name].family for name in ENGINE_NAMES}

_instances: dict[str, Engine[Any]] = {}


def game_facts(name: str) -> GameFacts:
    """The facts of the game registered under ``name``; :class:`UnknownGameError` otherwise."""
    try:
        return _FACTS[name]
    except KeyError:
        known = ", ".join(ENGINE_NAMES)
        raise UnknownGameError(N_("unknown game %(name)r (games: %(known)s)"),
                               name=name, known=known) from None


def get_engine(name: str) -> Engine[Any]:
    """The engine registered under ``name``; :class:`UnknownGameError` otherwise."""
    engine = _instances.get(name)
    if engine is None:
        try:
            module_name, attribute = _REGISTRY[name]
        except KeyError:
            known = ", ".join(ENGINE_NAMES)
            raise UnknownGameError(N_("unknown game %(name)r (games: %(known)s)"),
                                   name=name, known=known) from None
        factory: Callable[[], Engine[Any]] = getattr(import_module(module_name), attribute)
        engine = _instances[name] = factory()
    return engine
