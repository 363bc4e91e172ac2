"""What the public pages remember of a signed-in user: the language they chose."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LanguagePreference(models.Model):
    """The language a user chose with the language switch; set again at each login."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="language_preference", verbose_name=_("user"))
    language = models.CharField(_("language"), max_length=16, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
