from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.signals import post_migrate
from django.utils import translation
from django.utils.translation import gettext_lazy

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


def _restore_language(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """At login, the user's stored language becomes the session's (the middleware sets the
    cookie on the answer)."""
    from pages.middleware import LOGIN_LANGUAGE
    from pages.selectors import preferred_language

    if request is None or user is None:
        return
    language = preferred_language(user)
    if language:
        setattr(request, LOGIN_LANGUAGE, language)
        translation.activate(language)


class PagesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pages"
    verbose_name = gettext_lazy("Public pages")

    def ready(self) -> None:
        # Sent once per app with models (this one has none): installing is idempotent.
        post_migrate.connect(_reinstall_sqlite_triggers, dispatch_uid="pages-sqlite-triggers")
        user_logged_in.connect(_restore_language, dispatch_uid="pages-restore-language")
