"""The league tables' SQLite triggers (the embedded default) bump the board tournament of
the division showing the written row, and only that one. Checked on the tables' relevant
columns in an in-memory database (a full SQLite migration is tests/integration/pages/
test_invalidation_sqlite.py's)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from leagues import freshness

TABLES = """
create table tournaments_tournament(id integer primary key, version int default 1);
create table leagues_league(id integer primary key, name text);
create table leagues_season(id integer primary key, league_id int, name text);
create table leagues_division(id integer primary key, season_id int, tournament_id int);
create table leagues_seasonteam(id integer primary key, division_id int, team_id int,
                                final_rank int);
create table leagues_rosterentry(id integer primary key, season_team_id int, player_id int);
create table leagues_teammatch(id integer primary key, division_id int, venue text);
create table leagues_matchboard(id integer primary key, match_id int, board int);
create table leagues_lineup(id integer primary key, match_id int, late int);
create table players_team(id integer primary key, name text);
create table players_player(id integer primary key, display_name text);
insert into tournaments_tournament values (1, 1), (2, 1);
insert into leagues_league values (1, 'League');
insert into leagues_season values (1, 1, '2027');
insert into leagues_division values (1, 1, 1), (2, 1, null);
insert into players_team values (1, 'North'), (2, 'Elsewhere');
insert into players_player values (1, 'North 1'), (2, 'Nobody');
"""


class _Connection:
    vendor = "sqlite"

    def __init__(self, database: sqlite3.Connection) -> None:
        self.database = database

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        yield self.database.cursor()


def test_league_rows_bump_their_board_tournament() -> None:
    database = sqlite3.connect(":memory:")
    database.executescript(TABLES)
    freshness.install(_Connection(database))

    def versions() -> tuple[int, int]:
        rows = database.execute("select version from tournaments_tournament order by id")
        first, second = (row[0] for row in rows)
        return first, second

    writes = ["insert into leagues_seasonteam values (1, 1, 1, null)",
              "insert into leagues_rosterentry values (1, 1, 1)",
              "insert into leagues_teammatch values (1, 1, '')",
              "insert into leagues_matchboard values (1, 1, 1)",
              "insert into leagues_lineup values (1, 1, 0)",
              "update leagues_league set name = 'Renamed'",
              "update leagues_season set name = '2027/28'",
              "update leagues_teammatch set venue = 'Hall'",
              "update leagues_seasonteam set final_rank = 1",
              "update players_team set name = 'North Stars' where id = 1",
              "update players_player set display_name = 'N. One' where id = 1",
              "delete from leagues_lineup"]
    for write in writes:
        before = versions()
        database.execute(write)
        assert versions() == (before[0] + 1, 1), write
    before = versions()
    database.execute("update players_team set name = 'North Stars' where id = 1")
    database.execute("update players_team set name = 'Away' where id = 2")
    database.execute("update players_player set display_name = 'Someone' where id = 2")
    database.execute("insert into leagues_seasonteam values (2, 2, 2, null)")  # no tournament
    assert versions() == before
