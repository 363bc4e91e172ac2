"""Each pytest-xdist worker's test database as a copy of one migrated template.

Without it every worker runs all the migrations into its own empty database at the start
of ``make test`` (four workers, four times the same work on two cores). Here the first
worker to take the lock migrates ``test_<name>_template`` once per run (marked with the
run's id, so a later run with other migrations builds it again); every worker then gets
``CREATE DATABASE test_<name>_gwN TEMPLATE test_<name>_template``, which copies the
tables, the data migrations' rows and the triggers the migrations create, and tells
pytest-django to keep that database (``django_db_keepdb``). The last worker to copy it
drops the template (the controller does at the end if a worker never asked for a
database, ``drop_template``); each worker drops its copy at the end."""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psycopg
from psycopg.sql import SQL, Composed, Identifier, Literal

TEMPLATE_SUFFIX = "_template"


def worker_database_from_template(config: Any) -> str | None:
    """Give this xdist worker its database copied from the run's template; returns the
    database's name, or None when the test run is not one for templates (no xdist, not
    PostgreSQL, ``--reuse-db``, ``--nomigrations``: pytest-django creates it as usual)."""
    from django.conf import settings
    from django.db import connection

    worker = getattr(config, "workerinput", {}).get("workerid")
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if (not worker or not run or connection.vendor != "postgresql"
            or config.getvalue("reuse_db") or config.getvalue("nomigrations")):
        return None
    creation: Any = connection.creation
    name = creation._get_test_db_name()
    template = name.removesuffix(f"_{worker}") + TEMPLATE_SUFFIX
    with _lock(template):
        if _comment(template) != run:
            test_settings = connection.settings_dict["TEST"]
            worker_name, real_name = test_settings.get("NAME"), connection.settings_dict["NAME"]
            test_settings["NAME"] = template
            try:
                creation.create_test_db(verbosity=0, autoclobber=True)
            finally:
                connection.close()
                connection.close_pool()  # type: ignore[attr-defined]
                test_settings["NAME"] = worker_name
                settings.DATABASES[connection.alias]["NAME"] = real_name
                connection.settings_dict["NAME"] = real_name
            _execute(SQL("COMMENT ON DATABASE {} IS {}").format(Identifier(template),
                                                                Literal(run)))
        _execute(SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(Identifier(name)))
        _execute(SQL("CREATE DATABASE {} TEMPLATE {}").format(Identifier(name),
                                                              Identifier(template)))
        copies = Path(tempfile.gettempdir()) / f"{template}-{run}.copies"
        with copies.open("a") as listed:
            listed.write(worker + "\n")
        if len(copies.read_text().split()) >= int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", 0)):
            # the last worker's copy is made: the template goes now, not after the run
            _execute(SQL("DROP DATABASE {}").format(Identifier(template)))
            copies.unlink()
    return str(name)


def drop_worker_database(name: str) -> None:
    from django.db import connections

    connections.close_all()
    for connection in connections.all():
        close_pool = getattr(connection, "close_pool", None)
        if close_pool is not None:
            close_pool()
    _execute(SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(Identifier(name)))


def drop_template() -> None:
    """The controller's cleanup after an xdist run on PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    test_name = connection.settings_dict.get("TEST", {}).get("NAME") \
        or f"test_{connection.settings_dict['NAME']}"
    # no server: the run needed no database, so it made no template either
    with suppress(psycopg.OperationalError):
        _execute(SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            Identifier(test_name + TEMPLATE_SUFFIX)))


def _comment(database: str) -> str | None:
    rows = _execute(SQL("SELECT shobj_description(oid, 'pg_database') FROM pg_database "
                        "WHERE datname = {}").format(Literal(database)))
    return rows[0][0] if rows else None


def _execute(statement: Composed) -> list[tuple[Any, ...]]:
    """One statement on the server's maintenance database, outside any transaction, on a
    connection of its own (database access may be blocked in the controller)."""
    from django.db import connection

    given = connection.settings_dict
    with psycopg.connect(dbname="postgres", host=given.get("HOST") or None,
                         port=given.get("PORT") or None, user=given.get("USER") or None,
                         password=given.get("PASSWORD") or None, autocommit=True) as db:
        cursor = db.execute(statement)
        return cursor.fetchall() if cursor.description else []


@contextmanager
def _lock(name: str) -> Iterator[None]:
    path = Path(tempfile.gettempdir()) / f"{name}.lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
