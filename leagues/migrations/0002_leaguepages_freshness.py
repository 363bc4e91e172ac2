"""A league row written bumps the version of its divisions' board tournaments
(``leagues.freshness``): the league pages are cached under those versions."""

from django.db import migrations

from leagues import freshness


def triggers(apps, schema_editor):
    freshness.install(schema_editor.connection)


def no_triggers(apps, schema_editor):
    freshness.uninstall(schema_editor.connection)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0001_initial"),
        ("matches", "0006_game_version_trigger"),
    ]

    operations = [migrations.RunPython(triggers, no_triggers)]
