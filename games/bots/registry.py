"""Bots by kind: ``get_bot("mcts", seed=1)``.

Kinds: ``random``, ``greedy``, ``mcts`` and ``solver`` (the exact Kugamai solver; for
Kazambi the endgame solver once few tiles remain, MCTS before; MCTS for Stolbiki, which
has no solver). Their settings are documented in docs/bots.md; ``get_bot("mcts",
version=1)`` is the MCTS bot as it was before version 2.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from games.bots.base import Bot, BotError

_KINDS: dict[str, tuple[str, str]] = {
    "random": ("games.bots.random_bot", "RandomBot"),
    "greedy": ("games.bots.greedy", "GreedyBot"),
    "mcts": ("games.bots.mcts", "MctsBot"),
    "solver": ("games.bots.solvers", "SolverBot"),
}

BOT_KINDS: tuple[str, ...] = tuple(_KINDS)


def get_bot(kind: str, **settings: Any) -> Bot:
    """A new bot of ``kind``; ``settings`` (``seed`` and the kind's own) go to its class."""
    try:
        module_name, attribute = _KINDS[kind]
    except KeyError:
        raise BotError(f"unknown bot kind {kind!r} (kinds: {', '.join(BOT_KINDS)})") from None
    factory: Callable[..., Bot] = getattr(import_module(module_name), attribute)
    try:
        return factory(**settings)
    except TypeError as error:
        raise BotError(f"bad settings for a {kind} bot: {error}") from None
