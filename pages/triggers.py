"""Database triggers that bump the version of every tournament whose public page shows a
row that changed outside the tournament's own writers: a player renamed, a team renamed, a
team's members changed, an entrant's row written (an entry, a withdrawal, seeds), a bye
requested. (``tournaments.cache.tournament_changed`` is called by the result, game, round
and entrant services themselves.) The host club's name and slug are not bumped into its
tournaments' versions: the pages read them with the tournament's state
(``pages.selectors.page_state``), so a club renamed never waits for the locks of its
tournaments' writers; migration 0004 dropped that trigger (:data:`RETIRED`).

Whatever writes the row (a service, the admin, a shell), the tournament's cached pages and
ETags move on in the same transaction. The bump updates the tournament row, so on
PostgreSQL the ``table_changed`` notification of migration 0001 follows at commit and
every process's cached tournament state (``config.table_events``) is read again.

PostgreSQL: statement triggers with transition tables (one bump per tournament and
statement, tournaments locked in id order). SQLite (the embedded default): row triggers;
SQLite drops a table's triggers when a migration rebuilds the table (as it does to add a
column), so they are installed again after every ``migrate`` (``PagesConfig``).

Installed by ``pages`` migration 0002; :func:`install` is idempotent. The SQL is built
from the constant tables below only (no outside input).
"""

from __future__ import annotations

from typing import Any

PG_BUMP = """
CREATE OR REPLACE FUNCTION pages_tournaments_changed(ids bigint[]) RETURNS void AS $$
BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM tournaments_tournament WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
    UPDATE tournaments_tournament SET version = version + 1 WHERE id = ANY(ids);
END;
$$ LANGUAGE plpgsql;
"""

#: Per watched table: the ids of the tournaments that show its changed rows, as a query
#: over ``{rows}`` (the inserted, deleted or changed rows), and which operations count.
PG_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tournaments_entrant": ("SELECT r.tournament_id FROM {rows} r",
                            ("INSERT", "UPDATE", "DELETE")),
    "tournaments_requestedbye": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.entrant_id = e.id",
        ("INSERT", "UPDATE", "DELETE")),
    "players_teammembership": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.team_id = e.team_id",
        ("INSERT", "UPDATE", "DELETE")),
    "players_team": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.id = e.team_id",
        ("UPDATE",)),
    "players_player": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.id = e.player_id"
        " UNION SELECT e.tournament_id FROM tournaments_entrant e"
        " JOIN players_teammembership m ON m.team_id = e.team_id"
        " JOIN {rows} r ON r.id = m.player_id",
        ("UPDATE",)),
}

#: An update counts only where a column the pages show changed (old row against new).
PG_CHANGED = {
    "tournaments_entrant": "n IS DISTINCT FROM o",
    "tournaments_requestedbye": "n IS DISTINCT FROM o",
    "players_teammembership": "n IS DISTINCT FROM o",
    "players_team": "n.name IS DISTINCT FROM o.name",
    "players_player": "n.display_name IS DISTINCT FROM o.display_name",
}

#: Triggers of earlier versions, per table and operation: dropped, never installed again.
RETIRED: dict[str, tuple[str, ...]] = {"players_club": ("UPDATE",)}


def _pg_function(table: str) -> str:
    query, _ops = PG_TOURNAMENTS[table]
    pairs = f"FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE {PG_CHANGED[table]}"
    # an updated row counts with its old values too (a membership moved to another team)
    on_update = (query.format(rows=f"(SELECT n.* {pairs})") + " UNION "
                 + query.format(rows=f"(SELECT o.* {pairs})"))
    return f"""
CREATE OR REPLACE FUNCTION pages_{table}_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pages_tournaments_changed(ARRAY({query.format(rows="new_rows")}));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pages_tournaments_changed(ARRAY({query.format(rows="old_rows")}));
    ELSE
        PERFORM pages_tournaments_changed(ARRAY({on_update}));
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


def _pg_triggers(table: str) -> list[str]:
    _query, ops = PG_TOURNAMENTS[table]
    referencing = {"INSERT": "NEW TABLE AS new_rows",
                   "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
                   "DELETE": "OLD TABLE AS old_rows"}
    return [
        f"CREATE OR REPLACE TRIGGER pages_{table}_{op.lower()} AFTER {op} ON {table} "
        f"REFERENCING {referencing[op]} FOR EACH STATEMENT "
        f"EXECUTE FUNCTION pages_{table}_changed()"
        for op in ops
    ]


#: SQLite: row triggers, the same choices. ``{row}`` is NEW or OLD.
SQLITE_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "tournaments_entrant": ("SELECT {row}.tournament_id", ("INSERT", "UPDATE", "DELETE"), ""),
    "tournaments_requestedbye": (
        "SELECT tournament_id FROM tournaments_entrant WHERE id = {row}.entrant_id",
        ("INSERT", "UPDATE", "DELETE"), ""),
    "players_teammembership": (
        "SELECT tournament_id FROM tournaments_entrant WHERE team_id = {row}.team_id",
        ("INSERT", "UPDATE", "DELETE"), ""),
    "players_team": ("SELECT tournament_id FROM tournaments_entrant WHERE team_id = {row}.id",
                     ("UPDATE",), "OLD.name IS NOT NEW.name"),
    "players_player": (
        "SELECT tournament_id FROM tournaments_entrant WHERE player_id = {row}.id OR team_id IN "
        "(SELECT team_id FROM players_teammembership WHERE player_id = {row}.id)",
        ("UPDATE",), "OLD.display_name IS NOT NEW.display_name"),
}


def _sqlite_triggers(table: str) -> list[str]:
    query, ops, when = SQLITE_TOURNAMENTS[table]
    statements = []
    for op in ops:
        rows = {"INSERT": ["NEW"], "DELETE": ["OLD"], "UPDATE": ["NEW", "OLD"]}[op]
        ids = " UNION ".join(query.format(row=row) for row in rows)
        condition = f"WHEN {when} " if when else ""
        bump = ("UPDATE tournaments_tournament SET version = version + 1 "  # nosec B608
                f"WHERE id IN ({ids});")  # this module's constants only, no outside input
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS pages_{table}_{op.lower()} AFTER {op} ON {table} "
            f"FOR EACH ROW {condition}BEGIN {bump} END")
    return statements


def install(connection: Any) -> None:
    """Create (or replace) the triggers on ``connection``'s database; other databases have
    none (nothing caches from them between writes)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(PG_BUMP)
            for table in PG_TOURNAMENTS:
                cursor.execute(_pg_function(table))
                for statement in _pg_triggers(table):
                    cursor.execute(statement)
        elif connection.vendor == "sqlite":
            for table in SQLITE_TOURNAMENTS:
                for statement in _sqlite_triggers(table):
                    cursor.execute(statement)


def _drop(connection: Any, tables: dict[str, tuple[str, ...]]) -> None:
    vendor = connection.vendor
    with connection.cursor() as cursor:
        for table, ops in tables.items():
            on = f" ON {table}" if vendor == "postgresql" else ""
            for op in ops:
                cursor.execute(f"DROP TRIGGER IF EXISTS pages_{table}_{op.lower()}{on}")
            if vendor == "postgresql":
                cursor.execute(f"DROP FUNCTION IF EXISTS pages_{table}_changed()")


def uninstall_retired(connection: Any) -> None:
    """Drop the triggers of :data:`RETIRED` (left by earlier versions), if any."""
    if connection.vendor in ("postgresql", "sqlite"):
        _drop(connection, RETIRED)


def uninstall(connection: Any) -> None:
    vendor = connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        return
    tables = {table: ops for table, (_query, ops) in PG_TOURNAMENTS.items()}
    tables.update({table: ops for table, (_query, ops, _when) in SQLITE_TOURNAMENTS.items()})
    _drop(connection, tables)
    uninstall_retired(connection)
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("DROP FUNCTION IF EXISTS pages_tournaments_changed(bigint[])")
