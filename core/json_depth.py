"""JSON nested at most :data:`MAX_JSON_DEPTH` levels, checked before anything parses it.

Python's ``json`` module recurses once per level: a 10 KB document nested 5,000 levels
raises ``RecursionError`` (a 500 with a long traceback). :func:`nesting_overflow` measures
the nesting with one regular-expression pass over the raw text (brackets outside strings),
without recursion, so every JSON request body, the login guard's look at the user name,
JSON typed into the admin and pasted game records are refused with a clear error first.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

MAX_JSON_DEPTH = 64

# A string (its end may be missing) or one bracket: strings are skipped whole.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def nesting_overflow(document: str | bytes, limit: int = MAX_JSON_DEPTH) -> int | None:
    """The offset of the first bracket that nests ``document`` deeper than ``limit``
    levels, or None. Works on any text or bytes, valid JSON or not."""
    # Latin-1 keeps every byte as one character: quotes, backslashes and brackets are ASCII,
    # and no UTF-8 sequence holds an ASCII byte.
    text = document.decode("latin-1") if isinstance(document, bytes) else document
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > limit:
                return token.start()
        elif bracket in ("]", "}"):
            depth = max(depth - 1, 0)
    return None


def too_deep_message(limit: int = MAX_JSON_DEPTH) -> str:
    return gettext("The JSON is nested deeper than %(limit)d levels.") % {"limit": limit}


class JSONTooDeep(json.JSONDecodeError):
    """Raised instead of parsing; a ``JSONDecodeError``, so callers that handle bad JSON
    handle this too."""


def check_depth(document: str | bytes) -> None:
    """Raise :class:`JSONTooDeep` when ``document`` nests deeper than the limit."""
    position = nesting_overflow(document)
    if position is not None:
        text = document.decode("latin-1") if isinstance(document, bytes) else document
        raise JSONTooDeep(too_deep_message(), text, position)


def loads(document: str | bytes, **options: Any) -> Any:
    """``json.loads`` after :func:`check_depth`."""
    check_depth(document)
    return json.loads(document, **options)


class DepthCheckedDecoder(json.JSONDecoder):
    """A decoder for Django's JSON form fields: checks the depth first."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        check_depth(s)
        return super().decode(s, *args, **kwargs)


class DepthCheckedJSONField(forms.JSONField):
    """The admin's JSON form field: a too-deep value is a form error that says so."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["decoder"] = kwargs.get("decoder") or DepthCheckedDecoder
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and nesting_overflow(value) is not None:
            raise ValidationError(too_deep_message(), code="too_deep")
        return super().to_python(value)
