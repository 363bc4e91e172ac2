"""Which tables changed, pushed by PostgreSQL: each web process learns of every committed
write to the watched tables without asking the database on each request.

A statement-level trigger on each watched table (``pages`` migration 0001) runs
``pg_notify('table_changed', <table>)``. PostgreSQL delivers a notification when, and only
when, the writing transaction commits, to every session listening on the channel. Each
process that asks (:func:`snapshot`) starts one listener thread with its own connection;
the thread counts the notifications per table (a *generation*). A read that was cached
under a snapshot of generations is current as long as the snapshot is unchanged: the
invalidation is an event from the database, never a time-out.

When the listener is not connected (starting, the server restarting, not PostgreSQL,
switched off with ``TABLE_EVENTS=false``), :func:`snapshot` answers None and callers read
the database as if nothing were cached. A reconnection starts a new *epoch*, which makes
every snapshot taken before it stale: notifications sent while nobody listened are lost.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

CHANNEL = "table_changed"
APPLICATION_NAME = "table-events"  # how the listener shows in pg_stat_activity
#: Seconds between the listener's checks that its connection is alive, and between its
#: looks at whether it was asked to stop.
_IDLE_CHECK_SECONDS = 5.0
_WAKE_SECONDS = 0.5
_RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)

Snapshot = tuple[int, ...]


class TableEvents:
    """One process's listener and the generations it counted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generations: dict[str, int] = {}
        self._epoch = 0
        self._listening = False
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._stop = threading.Event()

    # -- what readers see -------------------------------------------------------------

    def snapshot(self, tables: Iterable[str]) -> Snapshot | None:
        """The generations of ``tables`` now, or None when changes are not being heard."""
        self._ensure_started()
        with self._lock:
            if not self._listening:
                return None
            return (self._epoch, *(self._generations.get(table, 0) for table in tables))

    def changed(self, table: str) -> None:
        """Count one change of ``table`` (the listener calls this for each notification)."""
        with self._lock:
            self._generations[table] = self._generations.get(table, 0) + 1

    # -- the listener -----------------------------------------------------------------

    def _ensure_started(self) -> None:
        if self._pid == os.getpid() and self._thread is not None:
            return
        with self._lock:
            if self._pid == os.getpid() and self._thread is not None:
                return
            # A fork copied the parent's state, not its thread: start afresh.
            self._pid, self._listening, self._generations = os.getpid(), False, {}
            self._stop = threading.Event()
            if not enabled():
                self._thread = threading.Thread()  # a marker: never started
                return
            self._thread = threading.Thread(target=self._run, name="table-events",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening (tests); the next snapshot starts a new listener."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive():
            thread.join(timeout=10)
        with self._lock:
            self._thread, self._listening, self._pid = None, False, 0

    def _run(self) -> None:
        import psycopg

        attempt = 0
        while not self._stop.is_set():
            try:
                with psycopg.connect(**_connect_kwargs(), autocommit=True,
                                     application_name=APPLICATION_NAME) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    with self._lock:
                        self._epoch += 1  # whatever was sent while we did not listen is lost
                        self._listening = True
                    attempt = 0
                    checked = time.monotonic()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=_WAKE_SECONDS):
                            self.changed(note.payload)
                        if time.monotonic() - checked > _IDLE_CHECK_SECONDS:
                            conn.execute("SELECT 1")  # a silently dead server raises here
                            checked = time.monotonic()
            except Exception:  # any failure: stop trusting snapshots, reconnect
                if not self._stop.is_set():
                    log.warning("table events: listener lost its connection", exc_info=True)
            with self._lock:
                self._listening = False
            if self._stop.wait(_RETRY_SECONDS[min(attempt, len(_RETRY_SECONDS) - 1)]):
                break
            attempt += 1

    def wait_listening(self, timeout: float = 10.0) -> bool:
        """Start the listener and wait until it listens (tests, warm-up)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._ensure_started()
            with self._lock:
                if self._listening:
                    return True
            time.sleep(0.02)
        return False


def enabled() -> bool:
    return bool(getattr(settings, "TABLE_EVENTS", False)) and \
        connections["default"].vendor == "postgresql"


def _connect_kwargs() -> dict[str, Any]:
    params = dict(connections["default"].get_connection_params())
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("server_side_binding", None)
    params.pop("prepare_threshold", None)
    return params


events = TableEvents()


def snapshot(tables: Iterable[str]) -> Snapshot | None:
    return events.snapshot(tables)
