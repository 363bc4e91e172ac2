"""Triggers that announce committed writes to the tables the public pages and API lists are
cached from (``config.table_events``). PostgreSQL only: elsewhere nothing listens."""

from typing import Any

from django.db import migrations

WATCHED = ["tournaments_tournament", "tournaments_entrant", "players_player", "players_club"]

FUNCTION = """
CREATE OR REPLACE FUNCTION notify_table_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('table_changed', TG_TABLE_NAME);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    for table in WATCHED:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed()")


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in WATCHED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_changed ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS notify_table_changed()")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_version"),
        ("players", "0002_rating_ratingchange"),
    ]

    operations = [migrations.RunPython(create, drop)]
