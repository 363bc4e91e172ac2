from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils import translation
from django.utils.translation import gettext_lazy


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
        user_logged_in.connect(_restore_language, dispatch_uid="pages-restore-language")
