"""Triggers that bump the versions of the tournaments whose pages show a row written
outside the tournaments' own writers (``pages.triggers``)."""

from typing import Any

from django.db import migrations

from pages import triggers


def create(apps: Any, schema_editor: Any) -> None:
    triggers.install(schema_editor.connection)


def drop(apps: Any, schema_editor: Any) -> None:
    triggers.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("pages", "0001_table_events"),
        ("tournaments", "0002_tournament_version"),
        ("players", "0002_rating_ratingchange"),
    ]

    operations = [migrations.RunPython(create, drop)]
