"""The admin site: club organizers may use it without being staff.

Organizers run their clubs' events from the admin; each ModelAdmin still decides what they
may see and change (their own clubs' objects).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy


def _may_use_admin(user: Any) -> bool:
    from players.permissions import is_organizer  # models are not ready at import time

    return bool(user.is_active and (user.is_staff or is_organizer(user)))


class OrganizerAuthenticationForm(AdminAuthenticationForm):
    def confirm_login_allowed(self, user: Any) -> None:
        if not _may_use_admin(user):
            raise forms.ValidationError(
                self.error_messages["invalid_login"], code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class ClubAdminSite(admin.AdminSite):
    site_header = gettext_lazy("Club tournament service")
    site_title = gettext_lazy("Club tournaments")
    index_title = gettext_lazy("Run your club's events")
    login_form = OrganizerAuthenticationForm

    def has_permission(self, request: HttpRequest) -> bool:
        allowed = _may_use_admin(request.user)
        if allowed and not request.user.is_staff:
            # just read: an organizer (model admins may reuse it within the request)
            request.is_club_organizer = True  # type: ignore[attr-defined]
        return allowed

    def index(self, request: HttpRequest,
              extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        """The home, with the organizer's unfinished tournaments and their next steps."""
        from tournaments.dashboard import organizer_desk  # models are not ready at import

        desk = organizer_desk(request.user)
        return super().index(request, {**(extra_context or {}), "my_tournaments": desk})
