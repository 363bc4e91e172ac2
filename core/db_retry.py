"""A safe request whose database connection was cut while it ran is tried once more.

A PostgreSQL restart (or failover) ends every open connection: the requests in flight
then fail inside a query with an ``OperationalError``, and the pool's check
(``config/db_pool.py``) only protects the requests that start after it. A GET or HEAD
changes nothing, so this outermost middleware answers it by a second run on a fresh
connection instead of a 500; other methods are never repeated (a write may have been
half sent). Only a lost connection counts (the connection no longer answers); an error
of the query itself (a time-out, a bad statement) is the 500 it was
(:func:`connection_lost`).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from psycopg_pool import PoolTimeout

logger = logging.getLogger(__name__)

_SAFE_METHODS = frozenset({"GET", "HEAD"})
_LOST_SQLSTATES = ("08", "57P")
_LOST = "_database_connection_lost"


def connection_lost(error: BaseException | None) -> bool:
    """Whether ``error`` is a database error of a connection that no longer answers (a
    restart, a failover, a network cut), not of its query: the one case worth a retry on a
    fresh connection (the bot workers use it too). Told by the driver's error: SQLSTATE
    class 08 (connection exception) or 57P (the server shutting down), or no SQLSTATE at
    all (the server never answered: closed, refused, reset); a pool that waited in vain
    for a free connection is overload, not a loss."""
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    cause = error.__cause__
    if cause is None:
        return isinstance(error, InterfaceError)  # Django's "connection already closed"
    if isinstance(cause, PoolTimeout):
        return False
    sqlstate = getattr(cause, "sqlstate", "")  # psycopg's errors have one, maybe None
    return sqlstate is None or str(sqlstate).startswith(_LOST_SQLSTATES)


def _on_request_exception(sender: Any, request: HttpRequest | None = None,
                          **kwargs: Any) -> None:
    if request is not None and connection_lost(sys.exc_info()[1]):
        setattr(request, _LOST, True)


got_request_exception.connect(_on_request_exception, dispatch_uid="core.db_retry")


class RetrySafeRequestsMiddleware:
    """First in ``MIDDLEWARE``: a GET or HEAD that failed because its database connection
    was lost runs once more, after the broken connections are closed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in _SAFE_METHODS or not getattr(request, _LOST, False):
            return response
        setattr(request, _LOST, False)
        for conn in connections.all(initialized_only=True):
            conn.close_if_unusable_or_obsolete()
        logger.warning("database connection lost during %s %s: trying it once more",
                       request.method, request.path)
        return self.get_response(request)
