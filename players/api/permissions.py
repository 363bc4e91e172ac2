"""API permission: anyone reads; writes need an organizer (object checks are the services')."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from players.permissions import is_organizer


class ReadOnlyOrOrganizer(BasePermission):
    message = _("Only organizers may change data.")

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return is_organizer(request.user)
