"""Texts of the pure cores, marked for translation without importing Django.

A pure core writes ``N_("move %(number)d: %(rule)s")`` and keeps the parameters apart;
``make messages`` collects ``N_`` as a gettext keyword. A :class:`Message` holds the
marked template and its parameters: ``str(message)`` is the English text filled in, and
``message.render(gettext)`` the same text translated by the Django shell at display
time. A parameter may itself be a :class:`Message` (or a :class:`MessageError`), which is
rendered the same way, so a record error translates the rule inside it too.

:class:`MessageError` is the base of the cores' user errors: it keeps its
:attr:`~MessageError.message`, and its ``str()`` stays the English text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Translate = Callable[[str], str]


def N_(message: str) -> str:  # noqa: N802 - the usual name of a no-op gettext marker
    """Return ``message`` unchanged; it only marks the text for the catalogue."""
    return message


def _english(text: str) -> str:
    return text


class Message:
    """A marked template and its named parameters, filled in only when shown."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params: Mapping[str, object] = params

    def render(self, translate: Translate | None = None) -> str:
        """The text through ``translate`` (English without it), nested messages too.

        A translation that does not fit its parameters falls back to the English
        template rather than failing (the catalogue tests keep this from happening).
        """
        translate = translate or _english
        values = {name: render_value(value, translate) for name, value in self.params.items()}
        text = translate(self.template)
        if not values:
            return text
        try:
            return text % values
        except (KeyError, ValueError, TypeError):
            if text == self.template:
                raise
            return self.template % values

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.template, dict(self.params)) == (other.template, dict(other.params))

    def __hash__(self) -> int:
        return hash(self.template)


def render_value(value: object, translate: Translate) -> object:
    """A parameter as shown: messages and message errors rendered, anything else as is."""
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, MessageError):
        return value.message.render(translate)
    return value


def as_message(
    text: str | Message | BaseException, params: Mapping[str, object] | None = None
) -> Message:
    """``text`` as a message: a message stays itself, a template gets ``params``, a
    :class:`MessageError` gives its message and any other error its text."""
    if isinstance(text, Message):
        return text
    if isinstance(text, MessageError):
        return text.message
    if isinstance(text, BaseException):
        return Message(str(text))
    return Message(text, **(params or {}))


def _rebuild(cls: type[MessageError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class MessageError(ValueError):
    """A user error whose text is a :class:`Message`: ``str(error)`` is the English text,
    :attr:`template` and :attr:`params` what a shell translates."""

    def __init__(self, template: str | Message, /, **params: object) -> None:
        self.message = as_message(template, params)
        super().__init__(str(self.message))

    @property
    def template(self) -> str:
        return self.message.template

    @property
    def params(self) -> Mapping[str, object]:
        return self.message.params

    def render(self, translate: Translate | None = None) -> str:
        return self.message.render(translate)

    def __reduce__(self) -> tuple[Any, ...]:
        # subclasses take other arguments: rebuild without calling __init__
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))
