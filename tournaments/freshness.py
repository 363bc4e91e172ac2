"""How cached answers learn that the data under them changed: database triggers, the one
mechanism, whatever writes the row (a service, an admin form, a shell, raw SQL).

**Tournament versions.** A write to a row that a tournament's pages or API reads show bumps
``Tournament.version`` of every tournament showing it, in the same transaction: rounds,
pairings (with their results), games, entrants, requested byes, team memberships, a team's
name, a player's display name, prize groups and prizes (:data:`PG_TOURNAMENTS`), and the
tournament's own row (any column but the version). The pages and ``tournaments.cache``
key on that version, so the new version and the new data commit together and a reader
that starts after the commit reads both. The host club's name and slug are not bumped
in: the pages read them with the tournament's state (``pages.selectors.page_state``), so
a club renamed never waits for the row locks of its tournaments' writers
(:data:`RETIRED`).

PostgreSQL: statement triggers with transition tables, one bump per tournament and
statement (tournaments locked in id order). SQLite (the embedded default): row triggers,
put back after every ``migrate`` (``TournamentsConfig``), since SQLite drops a table's
triggers when a migration rebuilds it.

**Table generations** (PostgreSQL). The anonymous API lists (``config.list_cache``) are
kept under a counter per table they read (:data:`GENERATION_TABLES`), bumped once per
writing transaction and table by a deferred trigger, that is as the transaction commits:
the generation rows are locked (in name order, all of them) only for the commit itself, as
``NOTIFY`` did before, and a reader that starts after a commit reads its generation.

Installed by ``tournaments`` migration 0005 and ``matches`` migration 0006 (the games
table); :func:`install` is idempotent. The SQL is built from this module's constant
tables only (no outside input).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

PG_BUMP = """
CREATE OR REPLACE FUNCTION tournaments_bump_versions(ids bigint[]) RETURNS void AS $$
BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
        RETURN;
    END IF;
    PERFORM 1 FROM tournaments_tournament WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
    UPDATE tournaments_tournament SET version = version + 1 WHERE id = ANY(ids);
END;
$$ LANGUAGE plpgsql;
"""

#: The tournament's own row: a write of any other column moves its version on (the bump
#: itself, which raises the version, passes; a stale version saved back never lowers it).
PG_OWN_ROW = ("""
CREATE OR REPLACE FUNCTION tournaments_tournament_own_row() RETURNS trigger AS $$
BEGIN
    IF NEW.version <= OLD.version THEN
        NEW.version := OLD.version;
        IF NEW IS DISTINCT FROM OLD THEN
            NEW.version := OLD.version + 1;
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
""", """
CREATE OR REPLACE TRIGGER tournaments_version_own_row BEFORE UPDATE ON tournaments_tournament
FOR EACH ROW EXECUTE FUNCTION tournaments_tournament_own_row();
""")

_ALL_OPS = ("INSERT", "UPDATE", "DELETE")

#: Per watched table: the ids of the tournaments that show its changed rows, as a query
#: over ``{rows}`` (the inserted, deleted or changed rows), and which operations count.
PG_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tournaments_entrant": ("SELECT r.tournament_id FROM {rows} r", _ALL_OPS),
    "tournaments_requestedbye": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.entrant_id = e.id",
        _ALL_OPS),
    "tournaments_round": ("SELECT r.tournament_id FROM {rows} r", _ALL_OPS),
    "tournaments_pairing": (
        "SELECT d.tournament_id FROM tournaments_round d JOIN {rows} r ON r.round_id = d.id",
        _ALL_OPS),
    "games_game": (
        "SELECT d.tournament_id FROM tournaments_round d"
        " JOIN tournaments_pairing p ON p.round_id = d.id JOIN {rows} r ON r.pairing_id = p.id",
        _ALL_OPS),
    "players_teammembership": (
        "SELECT e.tournament_id FROM tournaments_entrant e JOIN {rows} r ON r.team_id = e.team_id",
        _ALL_OPS),
    "tournaments_prizegroup": ("SELECT r.tournament_id FROM {rows} r", _ALL_OPS),
    "tournaments_prize": (
        "SELECT g.tournament_id FROM tournaments_prizegroup g JOIN {rows} r ON r.group_id = g.id",
        _ALL_OPS),
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
    "players_team": "n.name IS DISTINCT FROM o.name",
    "players_player": "n.display_name IS DISTINCT FROM o.display_name",
}

#: The tables of each app's migration that installs their triggers (``players`` is below
#: ``tournaments``, so the tournaments migration installs them; ``matches`` is above).
TOURNAMENTS_TABLES = ("tournaments_tournament", "tournaments_entrant",
                      "tournaments_requestedbye", "tournaments_round", "tournaments_pairing",
                      "players_teammembership", "players_team", "players_player",
                      "players_club")
MATCHES_TABLES = ("games_game",)
#: The prize lists' tables (``tournaments`` migration 0011 installs their triggers).
PRIZES_TABLES = ("tournaments_prizegroup", "tournaments_prize")

#: Triggers of earlier versions, per table and operation: dropped, never installed again.
RETIRED: dict[str, tuple[str, ...]] = {"players_club": ("UPDATE",)}

#: The tables whose generations the API lists are kept under (``CACHED_LISTS``).
GENERATION_TABLES = ("players_club", "players_player", "tournaments_entrant",
                     "tournaments_tournament")

PG_GENERATIONS = ("""
CREATE TABLE IF NOT EXISTS tournaments_tablegeneration (
    table_name text PRIMARY KEY,
    generation bigint NOT NULL DEFAULT 0
)
""", """
CREATE OR REPLACE FUNCTION tournaments_table_changed() RETURNS trigger AS $$
DECLARE
    marker text := 'tournaments_generation.' || TG_TABLE_NAME;
BEGIN
    IF TG_OP <> 'TRUNCATE' AND current_setting(marker, true) = '1' THEN
        RETURN NULL;  -- counted once per transaction
    END IF;
    -- all generation rows, in name order: committing writers never deadlock on them
    PERFORM 1 FROM tournaments_tablegeneration ORDER BY table_name FOR UPDATE;
    UPDATE tournaments_tablegeneration SET generation = generation + 1
        WHERE table_name = TG_TABLE_NAME;
    IF TG_OP <> 'TRUNCATE' THEN
        PERFORM set_config(marker, '1', true);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
""")


def _pg_function(table: str) -> str:
    query, _ops = PG_TOURNAMENTS[table]
    return pg_bump_function(f"tournaments_{table}_changed", query,
                            PG_CHANGED.get(table, "n IS DISTINCT FROM o"))


def pg_bump_function(name: str, query: str, changed: str) -> str:
    """The statement trigger function ``name`` that bumps the versions of the tournaments
    ``query`` finds among a statement's rows (``{rows}``: the transition table), counting
    an update only where ``changed`` holds (``n``: the new row, ``o``: the old one). The
    floors above (leagues) build theirs with it."""
    pairs = f"FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE {changed}"
    # an updated row counts with its old values too (a membership moved to another team)
    on_update = (query.format(rows=f"(SELECT n.* {pairs})") + " UNION "
                 + query.format(rows=f"(SELECT o.* {pairs})"))
    return f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM tournaments_bump_versions(ARRAY({query.format(rows="new_rows")}));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM tournaments_bump_versions(ARRAY({query.format(rows="old_rows")}));
    ELSE
        PERFORM tournaments_bump_versions(ARRAY({on_update}));
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
        f"CREATE OR REPLACE TRIGGER tournaments_version_{op.lower()} AFTER {op} ON {table} "
        f"REFERENCING {referencing[op]} FOR EACH STATEMENT "
        f"EXECUTE FUNCTION tournaments_{table}_changed()"
        for op in ops
    ]


def _pg_generation_triggers(table: str) -> list[str]:
    # a constraint trigger cannot be replaced in place, nor fire on TRUNCATE
    return [
        f"INSERT INTO tournaments_tablegeneration (table_name) VALUES ('{table}') "  # nosec B608
        "ON CONFLICT DO NOTHING",  # this module's constants only, no outside input
        f"DROP TRIGGER IF EXISTS tournaments_generation ON {table}",
        f"CREATE CONSTRAINT TRIGGER tournaments_generation AFTER INSERT OR UPDATE OR DELETE "
        f"ON {table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
        "EXECUTE FUNCTION tournaments_table_changed()",
        f"CREATE OR REPLACE TRIGGER tournaments_generation_truncate AFTER TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_changed()",
    ]


#: SQLite: row triggers, the same choices. ``{row}`` is NEW or OLD.
SQLITE_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "tournaments_entrant": ("SELECT {row}.tournament_id", _ALL_OPS, ""),
    "tournaments_requestedbye": (
        "SELECT tournament_id FROM tournaments_entrant WHERE id = {row}.entrant_id",
        _ALL_OPS, ""),
    "tournaments_round": ("SELECT {row}.tournament_id", _ALL_OPS, ""),
    "tournaments_prizegroup": ("SELECT {row}.tournament_id", _ALL_OPS, ""),
    "tournaments_prize": (
        "SELECT tournament_id FROM tournaments_prizegroup WHERE id = {row}.group_id",
        _ALL_OPS, ""),
    "tournaments_pairing": (
        "SELECT tournament_id FROM tournaments_round WHERE id = {row}.round_id", _ALL_OPS, ""),
    "games_game": (
        "SELECT d.tournament_id FROM tournaments_round d JOIN tournaments_pairing p "
        "ON p.round_id = d.id WHERE p.id = {row}.pairing_id", _ALL_OPS, ""),
    "players_teammembership": (
        "SELECT tournament_id FROM tournaments_entrant WHERE team_id = {row}.team_id",
        _ALL_OPS, ""),
    "players_team": ("SELECT tournament_id FROM tournaments_entrant WHERE team_id = {row}.id",
                     ("UPDATE",), "OLD.name IS NOT NEW.name"),
    "players_player": (
        "SELECT tournament_id FROM tournaments_entrant WHERE player_id = {row}.id OR team_id IN "
        "(SELECT team_id FROM players_teammembership WHERE player_id = {row}.id)",
        ("UPDATE",), "OLD.display_name IS NOT NEW.display_name"),
}

#: SQLite: recursive triggers are off, so this update does not fire itself again.
SQLITE_OWN_ROW = (
    "CREATE TRIGGER IF NOT EXISTS tournaments_version_own_row AFTER UPDATE ON "
    "tournaments_tournament FOR EACH ROW WHEN NEW.version <= OLD.version BEGIN "
    "UPDATE tournaments_tournament SET version = OLD.version + 1 WHERE id = NEW.id; END")


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
            f"CREATE TRIGGER IF NOT EXISTS tournaments_version_{table}_{op.lower()} "
            f"AFTER {op} ON {table} FOR EACH ROW {condition}BEGIN {bump} END")
    return statements


def install(connection: Any, tables: Iterable[str]) -> None:
    """Create (or replace) the triggers of ``tables`` on ``connection``'s database; other
    databases than PostgreSQL and SQLite have none (nothing caches from them)."""
    tables = list(tables)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for statement in (PG_BUMP, *PG_GENERATIONS):
                cursor.execute(statement)
            for table in tables:
                if table == "tournaments_tournament":
                    for statement in PG_OWN_ROW:
                        cursor.execute(statement)
                if table in PG_TOURNAMENTS:
                    cursor.execute(_pg_function(table))
                    for statement in _pg_triggers(table):
                        cursor.execute(statement)
                if table in GENERATION_TABLES:
                    for statement in _pg_generation_triggers(table):
                        cursor.execute(statement)
        elif connection.vendor == "sqlite":
            for table in tables:
                if table == "tournaments_tournament":
                    cursor.execute(SQLITE_OWN_ROW)
                for statement in _sqlite_triggers(table) if table in SQLITE_TOURNAMENTS else []:
                    cursor.execute(statement)


def install_existing(connection: Any) -> None:
    """Install the triggers of every watched table the database has (SQLite, after a
    migration that may have rebuilt one)."""
    existing = set(connection.introspection.table_names())
    install(connection, [t for t in (*TOURNAMENTS_TABLES, *MATCHES_TABLES, *PRIZES_TABLES)
                         if t in existing])


def uninstall(connection: Any, tables: Iterable[str]) -> None:
    vendor = connection.vendor
    with connection.cursor() as cursor:
        for table in tables:
            if vendor == "postgresql":
                names = ["tournaments_version_insert", "tournaments_version_update",
                         "tournaments_version_delete", "tournaments_generation",
                         "tournaments_generation_truncate", "tournaments_version_own_row"]
                for name in names:
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
                cursor.execute(f"DROP FUNCTION IF EXISTS tournaments_{table}_changed()")
            elif vendor == "sqlite":
                cursor.execute("DROP TRIGGER IF EXISTS tournaments_version_own_row")
                for op in _ALL_OPS:
                    cursor.execute(
                        f"DROP TRIGGER IF EXISTS tournaments_version_{table}_{op.lower()}")


def uninstall_shared(connection: Any) -> None:
    """Drop the functions and the generations table the triggers share (PostgreSQL)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("DROP FUNCTION IF EXISTS tournaments_tournament_own_row()")
        cursor.execute("DROP FUNCTION IF EXISTS tournaments_table_changed()")
        cursor.execute("DROP FUNCTION IF EXISTS tournaments_bump_versions(bigint[])")
        cursor.execute("DROP TABLE IF EXISTS tournaments_tablegeneration")


#: What ``pages`` migrations 0001, 0002 and 0004 installed before this module owned the
#: mechanism: ``NOTIFY`` per statement on four tables, and version triggers per table.
_PAGES_NOTIFIED = ("tournaments_tournament", "tournaments_entrant", "players_player",
                   "players_club")
_PAGES_VERSIONED = {"tournaments_entrant": _ALL_OPS, "tournaments_requestedbye": _ALL_OPS,
                    "players_teammembership": _ALL_OPS, "players_team": ("UPDATE",),
                    "players_player": ("UPDATE",), **RETIRED}


def drop_pages_triggers(connection: Any) -> None:
    """Drop the triggers and functions the ``pages`` app installed (databases migrated
    before this module; a new database never had them)."""
    vendor = connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        return
    existing = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for table, ops in _PAGES_VERSIONED.items():
            if table not in existing:
                continue
            on = f" ON {table}" if vendor == "postgresql" else ""
            for op in ops:
                cursor.execute(f"DROP TRIGGER IF EXISTS pages_{table}_{op.lower()}{on}")
            if vendor == "postgresql":
                cursor.execute(f"DROP FUNCTION IF EXISTS pages_{table}_changed()")
        if vendor == "postgresql":
            for table in _PAGES_NOTIFIED:
                if table in existing:
                    cursor.execute(f"DROP TRIGGER IF EXISTS {table}_changed ON {table}")
            cursor.execute("DROP FUNCTION IF EXISTS notify_table_changed()")
            cursor.execute("DROP FUNCTION IF EXISTS pages_tournaments_changed(bigint[])")


def generations(connection: Any, tables: Sequence[str]) -> tuple[int, ...] | None:
    """The generations of ``tables`` now (one query), or None when they cannot tell: not
    PostgreSQL, or the reader's own transaction has written (its writes are counted only as
    it commits)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_current_xact_id_if_assigned(), array_agg(generation ORDER BY table_name)"
            " FROM tournaments_tablegeneration WHERE table_name = ANY(%s)", [list(tables)])
        own_writes, counts = cursor.fetchone()
    if own_writes is not None or counts is None or len(counts) != len(set(tables)):
        return None
    return tuple(counts)
