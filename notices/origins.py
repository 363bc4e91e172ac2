"""Pure: the origins a club allows to frame its embeds (``scheme://host[:port]``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_ORIGINS = 20
_ORIGIN = re.compile(
    r"^(https?)://"
    r"((?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
    r"|\[[0-9a-f:]+\])"
    r"(?::(\d{1,5}))?$")


class OriginError(ValueError):
    """An origin that is not ``scheme://host[:port]``; ``origin`` names it."""

    def __init__(self, origin: str, reason: str) -> None:
        super().__init__(f"{origin!r}: {reason}")
        self.origin = origin
        self.reason = reason


def normalise_origin(text: str) -> str:
    """``text`` as an origin: lower case, no trailing slash; refused when it has a path,
    a query, a user, spaces or control characters, or is not http(s)."""
    if not isinstance(text, str):
        raise OriginError(repr(text), "not text")
    origin = text.strip().lower().removesuffix("/")
    if len(origin) > 200:
        raise OriginError(origin[:40] + "...", "too long")
    match = _ORIGIN.match(origin)
    if match is None:
        raise OriginError(origin, "not scheme://host[:port] (http or https, no path)")
    port = match.group(3)
    if port is not None and not 0 < int(port) < 65536:
        raise OriginError(origin, "port out of range")
    return origin


def normalise_origins(texts: Iterable[str]) -> list[str]:
    """Each origin checked; duplicates dropped, order kept; at most MAX_ORIGINS."""
    out: list[str] = []
    for text in texts:
        origin = normalise_origin(text)
        if origin not in out:
            out.append(origin)
        if len(out) > MAX_ORIGINS:
            raise OriginError(origin, f"more than {MAX_ORIGINS} origins")
    return out
