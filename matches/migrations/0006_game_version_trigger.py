"""A game written bumps the version of its tournament (``tournaments.freshness``)."""

from typing import Any

from django.db import migrations

from tournaments import freshness


def create(apps: Any, schema_editor: Any) -> None:
    freshness.install(schema_editor.connection, freshness.MATCHES_TABLES)


def drop(apps: Any, schema_editor: Any) -> None:
    freshness.uninstall(schema_editor.connection, freshness.MATCHES_TABLES)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_verbose_names_translated"),
        ("tournaments", "0005_freshness_triggers"),
    ]

    operations = [migrations.RunPython(create, drop)]
