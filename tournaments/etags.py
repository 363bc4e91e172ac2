"""Entity tags for a tournament's pages and API answers, and the ``If-None-Match`` test.

Pure: no Django. A tag names what the answer was made from: the tournament, its version
(bumped by every result, game, round and entrant write), when the tournament itself was
last saved, which kind of answer it is and the code revision that rendered it. Tags are
weak (``W/"..."``): the same data can be sent compressed or not, and an HTML page carries a
fresh CSP nonce, so two answers under one tag are equivalent, not byte-identical.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TournamentState:
    """What a tournament's cached answers depend on, read with the tournament row."""

    tournament_id: int
    version: int
    saved_at: str  # the tournament row's updated_at, ISO 8601
    #: The host club as the pages show it (slug and name), read with the tournament: a
    #: club renamed changes the pages' state without writing any tournament row.
    host: str = ""

    def key(self, kind: str, revision: str) -> str:
        """A cache key part: this state of the tournament, for ``kind`` and ``revision``."""
        digest = _digest(self.saved_at, self.host, revision)
        return f"{kind}:{self.tournament_id}:{self.version}:{digest}"

    def etag(self, kind: str, revision: str) -> str:
        digest = _digest(kind, self.saved_at, self.host, revision)
        return f'W/"t{self.tournament_id}-v{self.version}-{digest}"'


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()


def opaque(tag: str) -> str:
    """The tag without its weakness prefix (RFC 9110 weak comparison compares these)."""
    tag = tag.strip()
    return tag[2:] if tag[:2] in ("W/", "w/") else tag


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weak comparison), or is ``*``."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    wanted = opaque(etag)
    return any(opaque(candidate) == wanted for candidate in _split_tags(if_none_match))


def _split_tags(header: str) -> list[str]:
    """The entity tags of a header value; commas inside quotes do not split."""
    tags: list[str] = []
    current: list[str] = []
    quoted = False
    for char in header:
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            tags.append("".join(current))
            current = []
        else:
            current.append(char)
    tags.append("".join(current))
    return [tag.strip() for tag in tags if tag.strip()]
