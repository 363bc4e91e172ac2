"""Anonymous reads of the API's busiest public lists, answered from memory while the tables
they are read from are unchanged.

``CACHED_LISTS`` maps a path (``/api/players/``) to the tables its answer is read from. A
GET with no credentials (no ``Authorization`` header, no session cookie) whose JSON answer
was kept under the same absolute URL (scheme, host and port included: the answer's
``next`` and ``previous`` links are built from them), query string, ``Accept`` header,
language and generations of those tables (read in one query on every request:
``tournaments.freshness``) gets that answer again; a write to one of the tables moves its
generation as it commits, so a request that starts after the commit never gets the older
answer, in any process. Only ``200`` JSON answers that set no cookie are kept, in a
per-process store. Where generations cannot tell (not PostgreSQL) every request goes to
the view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from tournaments import freshness

_KEPT_HEADERS = ("Content-Type", "Vary", "Allow")
_store = LocMemCache("config-list-cache", {"TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 500}})


def _anonymous(request: HttpRequest) -> bool:
    return "Authorization" not in request.headers and \
        settings.SESSION_COOKIE_NAME not in request.COOKIES


class CachedListsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        tables = settings.CACHED_LISTS.get(request.path) if request.method == "GET" else None
        if tables is None or not _anonymous(request):
            return self.get_response(request)
        snap = freshness.generations(connection, tables)
        if snap is None:
            return self.get_response(request)
        # the absolute URL: the answer's links carry the request's scheme, host and port
        key = hashlib.blake2b(repr((request.build_absolute_uri(),
                                    request.headers.get("Accept", ""),
                                    translation.get_language(), snap)).encode(),
                              digest_size=16).hexdigest()
        kept: tuple[bytes, dict[str, str]] | None = _store.get(key)
        if kept is not None:
            body, headers = kept
            response = HttpResponse(body)
            for name, value in headers.items():
                response[name] = value
            return response
        response = self.get_response(request)
        if _keepable(response):
            headers = {name: response[name] for name in _KEPT_HEADERS if name in response}
            _store.set(key, (response.content, headers))
        return response


def _keepable(response: Any) -> bool:
    return (response.status_code == 200 and not response.streaming and not response.cookies
            and response.get("Content-Type", "").startswith("application/json"))


def clear() -> None:
    _store.clear()
