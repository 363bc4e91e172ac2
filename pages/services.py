"""Writes of the public pages: a signed-in user's language."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from core.errors import ApplicationError
from pages.models import LanguagePreference
from players.permissions import Actor


def remember_language(*, actor: Actor, language: str) -> LanguagePreference | None:
    """Store the language ``actor`` chose (nothing for an anonymous visitor or the system,
    whose choice lives in the language cookie alone)."""
    if language not in dict(settings.LANGUAGES):
        raise ApplicationError(
            gettext("Unknown language %(language)s.") % {"language": language},
            field="language")
    user_id = getattr(actor, "pk", None)
    if not getattr(actor, "is_authenticated", False) or not isinstance(user_id, int):
        return None
    preference, _created = LanguagePreference.objects.update_or_create(
        user_id=user_id, defaults={"language": language})
    return preference
