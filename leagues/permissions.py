"""Who manages a league: the organizers of its host club and of its managing clubs."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from leagues.models import League


def managed_leagues(user: Any) -> QuerySet[League]:
    """The leagues ``user`` manages."""
    if not getattr(user, "is_authenticated", False):
        return League.objects.none()
    if user.is_superuser:
        return League.objects.all()
    return League.objects.filter(
        Q(host__organizers=user) | Q(clubs__organizers=user)).distinct()


def can_manage_league(user: Any, league: League) -> bool:
    """Whether ``user`` organizes the league's host club or one of its managing clubs."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return managed_leagues(user).filter(pk=league.pk).exists()


def ensure_can_manage_league(user: Any, league: League) -> None:
    if not can_manage_league(user, league):
        raise PermissionDenied(_("Only the organizers of the league's clubs may change this."))
