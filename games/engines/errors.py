"""Errors raised by the game engines.

Every error a caller can provoke with bad input subclasses ``ValueError`` and carries a
message a tournament director can act on. The message is a marked template with its
parameters kept apart (:class:`games.i18n.MessageError`): ``str(error)`` is the English
text, and the Django shell shows it translated (``core.engine_messages``).
"""

from __future__ import annotations

from games.i18n import N_, Message, MessageError, as_message


class EngineError(MessageError):
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

    ``rule`` says which rule is broken, in English words (``rule_message`` keeps its
    template and parameters apart); ``move`` is the move text as given.
    """

    def __init__(self, move: str, rule: str | Message, /, **rule_params: object) -> None:
        self.move = move
        self.rule_message = as_message(rule, rule_params)
        self.rule = str(self.rule_message)
        super().__init__(N_("%(move)s: %(rule)s"), move=move, rule=self.rule_message)

    @property
    def rule_template(self) -> str:
        return self.rule_message.template

    @property
    def rule_params(self) -> dict[str, object]:
        return dict(self.rule_message.params)


class RecordError(EngineError):
    """A game record that does not replay: names the move number (1-based) and the rule."""

    def __init__(self, move_number: int, move: str, rule: str | Message, /,
                 **rule_params: object) -> None:
        self.move_number = move_number
        self.move = move
        self.rule_message = as_message(rule, rule_params)
        self.rule = str(self.rule_message)
        super().__init__(N_("move %(number)d, %(move)s: %(rule)s"),
                         number=move_number, move=move, rule=self.rule_message)

    @property
    def rule_template(self) -> str:
        return self.rule_message.template

    @property
    def rule_params(self) -> dict[str, object]:
        return dict(self.rule_message.params)
