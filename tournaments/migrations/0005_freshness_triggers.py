"""The one freshness mechanism (``tournaments.freshness``): version triggers on the
tournaments' and players' tables, table generations for the API lists. Drops what the
``pages`` app installed before (its LISTEN/NOTIFY and version triggers)."""

from typing import Any

from django.db import migrations

from tournaments import freshness


def create(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    freshness.drop_pages_triggers(connection)
    freshness.install(connection, freshness.TOURNAMENTS_TABLES)


def drop(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    freshness.uninstall(connection, freshness.TOURNAMENTS_TABLES)
    freshness.uninstall_shared(connection)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_verbose_names_translated"),
        ("players", "0006_verbose_names_translated"),
    ]

    operations = [migrations.RunPython(create, drop)]
