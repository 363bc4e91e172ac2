from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from tournaments import freshness


def _reinstall_sqlite_triggers(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """SQLite drops a table's triggers when a migration rebuilds it: put them back."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    if not MigrationRecorder(connection).migration_qs.filter(
            app="tournaments", name="0005_freshness_triggers").exists():
        return  # not migrated that far (or migrated back)
    freshness.install_existing(connection)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Sent once per app with models: installing is idempotent.
        post_migrate.connect(_reinstall_sqlite_triggers,
                             dispatch_uid="tournaments-sqlite-triggers")
