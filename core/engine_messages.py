"""The games' texts in the active language: the pure cores (games/) mark their texts with
``N_`` and keep the parameters apart (:class:`games.i18n.Message`); this shell translates
the template, and every message nested in its parameters (the rule inside a record
error), with gettext, then fills the parameters in.

The catalogue is games/locale (``make messages``). A text that is not in the catalogue,
or a translation that does not fit its parameters, is shown in English.
"""

from __future__ import annotations

from typing import cast

from django.utils.functional import lazy
from django.utils.translation import gettext

from games.engines import game_facts
from games.i18n import Message, MessageError


def translated(text: Message | str) -> str:
    """A marked message (or a plain marked text) in the active language."""
    if isinstance(text, Message):
        return text.render(gettext)
    return gettext(text) if text else text


def engine_error_message(error: BaseException) -> str:
    """What to tell the user about ``error``, in the active language.

    Engine, series, clock and bot errors (:class:`games.i18n.MessageError`) are
    translated; any other error is shown as its own text.
    """
    if isinstance(error, MessageError):
        return error.message.render(gettext)
    return str(error)


def game_label(name: str) -> str:
    """The name of the game registered as ``name`` (``kazambi-pairs``), translated now."""
    return gettext(game_facts(name).label)


_lazy_label = lazy(game_label, str)


def game_label_lazy(name: str) -> str:
    """:func:`game_label` translated when shown (choices and other import-time texts)."""
    return cast(str, _lazy_label(name))
