from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _reinstall_sqlite_triggers(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """SQLite drops a table's triggers when a migration rebuilds it: put them back."""
    from leagues import freshness

    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    if not MigrationRecorder(connection).migration_qs.filter(
            app="leagues", name="0002_leaguepages_freshness").exists():
        return
    freshness.install_existing(connection)


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        post_migrate.connect(_reinstall_sqlite_triggers, dispatch_uid="leagues-sqlite-triggers")
