"""Errors raised by the game engines.

Every error a caller can provoke with bad input subclasses ``ValueError`` and carries a
message a tournament director can act on.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error caused by bad input to an engine."""


class UnknownGameError(EngineError):
    """No engine is registered under the requested name."""


class OptionError(EngineError):
    """A game option is unknown or out of range."""


class NotationError(EngineError):
    """A tile, card, cell or move text cannot be parsed."""


class DocumentError(EngineError):
    """A state document or game record is malformed or inconsistent."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid in the given position.

    ``rule`` says which rule is broken, in words; ``move`` is the move text as given.
    """

    def __init__(self, move: str, rule: str) -> None:
        super().__init__(f"{move}: {rule}")
        self.move = move
        self.rule = rule


class RecordError(EngineError):
    """A game record that does not replay: names the move number (1-based) and the rule."""

    def __init__(self, move_number: int, move: str, rule: str) -> None:
        super().__init__(f"move {move_number}, {move}: {rule}")
        self.move_number = move_number
        self.move = move
        self.rule = rule
