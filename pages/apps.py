from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.signals import post_migrate

from pages import triggers


def _reinstall_sqlite_triggers(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """SQLite drops a table's triggers when a migration rebuilds it: put them back."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    if not MigrationRecorder(connection).migration_qs.filter(
            app="pages", name="0002_tournament_version_triggers").exists():
        return  # not migrated that far (or migrated back)
    triggers.install(connection)


class PagesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pages"
    verbose_name = "Public pages"

    def ready(self) -> None:
        # Sent once per app with models (this one has none): installing is idempotent.
        post_migrate.connect(_reinstall_sqlite_triggers, dispatch_uid="pages-sqlite-triggers")
