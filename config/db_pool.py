"""The check the connection pool runs before lending a connection, without a round trip.

psycopg's own check (``ConnectionPool.check_connection``) sends an empty query to the server
each time a connection leaves the pool: on a busy machine that round trip cost as much as
the query a request came for (``/healthz`` spent half its time in it). A connection that
sits idle in the pool receives nothing from the server unless something went wrong: a
restarted or stopped server, or a backend ended by ``pg_terminate_backend``, first sends a
termination notice and then closes the socket. So a readable socket, or a hang-up, means
trouble, and only then does :func:`check_connection` run psycopg's check, which raises for
a broken connection (the pool then discards it and lends another). A quiet socket is lent
at once.
"""

from __future__ import annotations

import select
from typing import Any

_TROUBLE = select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP | select.POLLNVAL


def socket_has_news(fileno: int) -> bool:
    """Whether the socket has something to read, or was hung up or closed (no waiting)."""
    poller = select.poll()
    poller.register(fileno, _TROUBLE)
    return bool(poller.poll(0))


def check_connection(conn: Any) -> None:
    """Raise if the idle connection ``conn`` is broken; a round trip only when in doubt."""
    from psycopg import OperationalError
    from psycopg.pq import ConnStatus, TransactionStatus
    from psycopg_pool import ConnectionPool

    if conn.closed or conn.broken or conn.pgconn.status != ConnStatus.OK:
        raise OperationalError("the pooled connection is closed")
    if conn.info.transaction_status != TransactionStatus.IDLE or socket_has_news(
            conn.pgconn.socket):
        ConnectionPool.check_connection(conn)
