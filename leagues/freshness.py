"""The league pages' freshness: the tournaments' one mechanism (``tournaments.freshness``)
extended to the league tables.

A season's public pages show its divisions' board tournaments (boards, results, games) and
the league rows around them (teams, rosters, the schedule, match boards, lineups, final
ranks, the league's and season's names). Every write to such a row bumps the version of
the board tournament of each division showing it, in the same transaction, by database
triggers (whatever writes it: a service, the admin, a shell), so the league pages, keyed
on their divisions' tournament states (``leagues.public.season_state``), are fresh the
moment a write commits, as the tournament pages are; the board tournament's own page,
which names its league and division, too.

A division has no board tournament before its season starts: nothing is bumped then, and
the pages of a season in planning are not cached. The SQL is built from this module's
constant tables only (no outside input).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments.freshness import pg_bump_function

_ALL_OPS = ("INSERT", "UPDATE", "DELETE")
_DIVISION_OF_TEAM = ("SELECT d.tournament_id FROM leagues_division d "
                     "JOIN leagues_seasonteam t ON t.division_id = d.id ")
_DIVISION_OF_MATCH = ("SELECT d.tournament_id FROM leagues_division d "
                      "JOIN leagues_teammatch m ON m.division_id = d.id ")

#: Per watched table: the board tournaments showing its changed rows, as a query over
#: ``{rows}``; which operations count; and, for an update, the columns that must change.
PG_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "leagues_league": (
        "SELECT d.tournament_id FROM leagues_division d JOIN leagues_season s"
        " ON s.id = d.season_id JOIN {rows} r ON r.id = s.league_id", ("UPDATE",), ""),
    "leagues_season": (
        "SELECT d.tournament_id FROM leagues_division d JOIN {rows} r ON r.id = d.season_id",
        _ALL_OPS, ""),
    "leagues_division": ("SELECT r.tournament_id FROM {rows} r", _ALL_OPS, ""),
    "leagues_seasonteam": (
        "SELECT d.tournament_id FROM leagues_division d JOIN {rows} r ON r.division_id = d.id",
        _ALL_OPS, ""),
    "leagues_rosterentry": (_DIVISION_OF_TEAM + "JOIN {rows} r ON r.season_team_id = t.id",
                            _ALL_OPS, ""),
    "leagues_teammatch": (
        "SELECT d.tournament_id FROM leagues_division d JOIN {rows} r ON r.division_id = d.id",
        _ALL_OPS, ""),
    "leagues_matchboard": (_DIVISION_OF_MATCH + "JOIN {rows} r ON r.match_id = m.id",
                           _ALL_OPS, ""),
    "leagues_lineup": (_DIVISION_OF_MATCH + "JOIN {rows} r ON r.match_id = m.id",
                       _ALL_OPS, ""),
    "players_team": (_DIVISION_OF_TEAM + "JOIN {rows} r ON r.id = t.team_id",
                     ("UPDATE",), "n.name IS DISTINCT FROM o.name"),
    "players_player": (
        _DIVISION_OF_TEAM + "JOIN leagues_rosterentry e ON e.season_team_id = t.id"
        " JOIN {rows} r ON r.id = e.player_id",
        ("UPDATE",), "n.display_name IS DISTINCT FROM o.display_name"),
}

#: SQLite: the same choices as row triggers (``{row}`` is NEW or OLD).
SQLITE_TOURNAMENTS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "leagues_league": (
        "SELECT d.tournament_id FROM leagues_division d JOIN leagues_season s"
        " ON s.id = d.season_id WHERE s.league_id = {row}.id", ("UPDATE",), ""),
    "leagues_season": ("SELECT tournament_id FROM leagues_division WHERE season_id = {row}.id",
                       _ALL_OPS, ""),
    "leagues_division": ("SELECT {row}.tournament_id", _ALL_OPS, ""),
    "leagues_seasonteam": (
        "SELECT tournament_id FROM leagues_division WHERE id = {row}.division_id", _ALL_OPS, ""),
    "leagues_rosterentry": (_DIVISION_OF_TEAM + "WHERE t.id = {row}.season_team_id",
                            _ALL_OPS, ""),
    "leagues_teammatch": (
        "SELECT tournament_id FROM leagues_division WHERE id = {row}.division_id", _ALL_OPS, ""),
    "leagues_matchboard": (_DIVISION_OF_MATCH + "WHERE m.id = {row}.match_id", _ALL_OPS, ""),
    "leagues_lineup": (_DIVISION_OF_MATCH + "WHERE m.id = {row}.match_id", _ALL_OPS, ""),
    "players_team": (_DIVISION_OF_TEAM + "WHERE t.team_id = {row}.id", ("UPDATE",),
                     "OLD.name IS NOT NEW.name"),
    "players_player": (
        _DIVISION_OF_TEAM + "JOIN leagues_rosterentry e ON e.season_team_id = t.id"
        " WHERE e.player_id = {row}.id", ("UPDATE",),
        "OLD.display_name IS NOT NEW.display_name"),
}

TABLES = tuple(PG_TOURNAMENTS)


def _pg_function(table: str) -> str:
    query, _ops, changed = PG_TOURNAMENTS[table]
    return pg_bump_function(f"leagues_{table}_changed", query,
                            changed or "n IS DISTINCT FROM o")


def _pg_triggers(table: str) -> list[str]:
    referencing = {"INSERT": "NEW TABLE AS new_rows",
                   "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
                   "DELETE": "OLD TABLE AS old_rows"}
    return [
        f"CREATE OR REPLACE TRIGGER leagues_version_{op.lower()} AFTER {op} ON {table} "
        f"REFERENCING {referencing[op]} FOR EACH STATEMENT "
        f"EXECUTE FUNCTION leagues_{table}_changed()"
        for op in PG_TOURNAMENTS[table][1]
    ]


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
            f"CREATE TRIGGER IF NOT EXISTS leagues_version_{table}_{op.lower()} "
            f"AFTER {op} ON {table} FOR EACH ROW {condition}BEGIN {bump} END")
    return statements


def install(connection: Any, tables: Iterable[str] = TABLES) -> None:
    """Create (or replace) the triggers of ``tables`` (after ``tournaments.freshness``'s,
    whose bump function they call); other databases have none."""
    with connection.cursor() as cursor:
        for table in tables:
            if connection.vendor == "postgresql":
                cursor.execute(_pg_function(table))
                for statement in _pg_triggers(table):
                    cursor.execute(statement)
            elif connection.vendor == "sqlite":
                for statement in _sqlite_triggers(table):
                    cursor.execute(statement)


def install_existing(connection: Any) -> None:
    """The triggers of every watched table the database has (SQLite, after a migration
    that may have rebuilt one)."""
    existing = set(connection.introspection.table_names())
    install(connection, [table for table in TABLES if table in existing])


def uninstall(connection: Any, tables: Iterable[str] = TABLES) -> None:
    with connection.cursor() as cursor:
        for table in tables:
            for op in PG_TOURNAMENTS[table][1]:
                if connection.vendor == "postgresql":
                    cursor.execute(f"DROP TRIGGER IF EXISTS leagues_version_{op.lower()} "
                                   f"ON {table}")
                elif connection.vendor == "sqlite":
                    cursor.execute(f"DROP TRIGGER IF EXISTS leagues_version_{table}_{op.lower()}")
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP FUNCTION IF EXISTS leagues_{table}_changed()")
