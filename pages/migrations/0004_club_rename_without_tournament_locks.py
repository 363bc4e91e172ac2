"""Drop the trigger that bumped every tournament of a club renamed: the pages read the
club's name and slug with the tournament's state instead, so a rename no longer waits for
the row locks of its tournaments' writers (``pages.triggers.RETIRED``)."""

from typing import Any

from django.db import migrations

from pages import triggers


def drop_retired(apps: Any, schema_editor: Any) -> None:
    triggers.uninstall_retired(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("pages", "0003_language_preference")]

    operations = [migrations.RunPython(drop_retired, migrations.RunPython.noop)]
