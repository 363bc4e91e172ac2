"""Answers for clients that poll a tournament: ETags and 304s, and bodies rendered once per
tournament version, kept compressed in the cache and sent as they are to every client that
accepts gzip (every browser does).

What these bodies hold is public and the same for every visitor: no CSRF token, no CSP
nonce, nothing about the user, so compressing them exposes no secret (BREACH).
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from tournaments import cache as tournament_cache
from tournaments.etags import TournamentState, etag_matches
from tournaments.models import Tournament

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_INDENTATION = re.compile(r"[ \t]*\n\s*")


def not_modified(request: HttpRequest, etag: str | None) -> HttpResponse | None:
    """A 304 when the client's copy is the current one (its If-None-Match names ``etag``)."""
    if etag is None or not etag_matches(request.headers.get("If-None-Match"), etag):
        return None
    return tagged(HttpResponseNotModified(), etag)


def tagged(response: HttpResponse, etag: str | None) -> HttpResponse:
    """Clients may keep the answer but must ask each time (``no-cache``): a 304 if unchanged."""
    if etag is not None:
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
    return response


def compact(html: str) -> str:
    """Template indentation removed: a line break and the blanks around it become one line
    break (which separates inline content like the blanks did). Our templates hold no
    ``<pre>`` or ``<textarea>``, whose blanks would matter."""
    return _INDENTATION.sub("\n", html)


def pack(html: str) -> bytes:
    return gzip.compress(compact(html).encode(), compresslevel=6, mtime=0)


def packed_response(request: HttpRequest, body: bytes,
                    content_type: str = "text/html; charset=utf-8") -> HttpResponse:
    """The gzip ``body`` as it is for clients that accept gzip, unpacked for the others."""
    if _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(body, content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(body), content_type=content_type)
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def versioned_page(request: HttpRequest, tournament: Tournament | TournamentState, kind: str,
                   render: Callable[[], str]) -> HttpResponse:
    """``render()`` as an answer with the ETag of the tournament's state: a 304 for a client
    that has it, else the body rendered once for this state and kept packed in the cache."""
    etag = tournament_cache.etag(tournament, kind)
    if (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    body = tournament_cache.cached(tournament, f"{kind}-gz", lambda: pack(render()))
    return tagged(packed_response(request, body), etag)
