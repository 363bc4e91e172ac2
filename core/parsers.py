"""Request parsers that refuse, with a 400 naming the field, what the database cannot store.

PostgreSQL refuses a NUL character in text and in ``jsonb`` (a 500 from deep inside a
save), and JSON numbers such as ``1e400`` or ``NaN`` become infinities that no integer or
bounded field can hold (``OverflowError`` in a lookup). The parsers walk the parsed body and
raise a validation error at the first such value, named by its path (``bot_settings.list.1``).
A JSON body nested deeper than ``core.json_depth.MAX_JSON_DEPTH`` is refused before it is
parsed (the parser would recurse once per level).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

from core.json_depth import MAX_JSON_DEPTH, nesting_overflow, too_deep_message


def problems(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """``(field path, message)`` for every NUL character and non-finite number in ``value``."""
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            yield where or "non_field_errors", too_deep_message()
            continue
        if isinstance(item, str):
            if "\x00" in item:
                yield where or "non_field_errors", "NUL characters (\\u0000) are not allowed."
        elif isinstance(item, float):
            if not math.isfinite(item):
                yield where or "non_field_errors", (
                    f"{item!r} is not a number any field can hold (too large, or not finite)."
                )
        elif isinstance(item, Mapping):
            for key, child in item.items():
                key_text = str(key)
                if "\x00" in key_text:
                    yield where or "non_field_errors", "NUL characters (\\u0000) are not allowed."
                    continue
                stack.append((child, f"{where}.{key_text}" if where else key_text, depth + 1))
        elif isinstance(item, list | tuple):
            for index, child in enumerate(item):
                stack.append((child, f"{where}.{index}" if where else str(index), depth + 1))


def check(value: Any) -> Any:
    found = next(problems(value), None)
    if found is not None:
        field, message = found
        raise ValidationError({field: [message]})
    return value


class StrictJSONParser(parsers.JSONParser):
    strict = False  # NaN and Infinity parse, so that the check below can name their field

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        body = stream.read()
        if nesting_overflow(body) is not None:
            raise ParseError(too_deep_message())
        return check(super().parse(io.BytesIO(body), media_type, parser_context))


class StrictFormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        return check(super().parse(stream, media_type, parser_context))


class StrictMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        check(parsed.data)
        return parsed


def check_storable(value: Any, *, field: str) -> None:
    """Raise :class:`core.errors.ApplicationError` naming ``field`` (and the path inside
    it) if ``value`` holds a NUL character or a non-finite number: the services' own
    check, for the paths that do not come through these parsers (admin forms, imports)."""
    from core.errors import ApplicationError  # core.errors imports DRF's views

    found = next(problems(value, field), None)
    if found is not None:
        where, message = found
        raise ApplicationError(f"{where}: {message}", field=field)
