"""Who may change what: organizers manage their own club's players, teams and events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from players.models import Club

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser


def is_organizer(user: Any) -> bool:
    """True for staff and for any user who organizes at least one club."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    # Read once per user object (a request's user): the admin asks for every model it lists.
    known = getattr(user, "_organizes_a_club", None)
    if known is None:
        known = user.organized_clubs.exists()
        user._organizes_a_club = known
    return bool(known)


def can_manage_club(user: Any, club: Club | None) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    if club is None:
        return False
    return club.organizers.filter(pk=user.pk).exists()


def ensure_can_manage_club(user: Any, club: Club | None) -> None:
    if not can_manage_club(user, club):
        if club is None:
            raise PermissionDenied(_("Only site administrators may change players without a "
                                     "club."))
        raise PermissionDenied(_("Only the organizers of %(club)s may change this.")
                               % {"club": club.name})


def may_enter_from(user: Any, host: Club, club: Club | None) -> bool:
    """May ``user`` put a player or team of ``club`` into a tournament or team of ``host``?

    Yes for the host's own players and teams, for those of a club ``user`` organizes as
    well (superusers: every club, and players without a club), and for those of a club
    that accepts entries by other clubs (``Club.open_entries``, set by its organizers).
    """
    if club is not None and club.pk == host.pk:
        return True
    if can_manage_club(user, club):
        return True
    return club is not None and club.open_entries


def clubs_of(items: Iterable[Any]) -> list[Club | None]:
    """The distinct clubs of players or teams (None for a player without a club), read in
    one query."""
    ids = {item.club_id for item in items}
    found = Club.objects.in_bulk([pk for pk in ids if pk is not None])
    return [found[pk] if pk is not None else None for pk in sorted(ids, key=lambda i: i or 0)]


def managed_clubs(user: Any) -> Any:
    """The clubs ``user`` may manage, as a queryset."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(organizers=user)


class SystemActor:
    """The actor of writes the service makes itself (bot games played by workers)."""

    is_authenticated = True
    is_superuser = True
    is_staff = False
    pk = None
    username = "system"

    def __str__(self) -> str:
        return "system"


SYSTEM = SystemActor()


#: Who makes a write: a signed-in user (or an anonymous one, refused by the checks), or the
#: service itself (:data:`SYSTEM`, for the games bot workers play). Services take it as
#: ``actor=`` and check it with :func:`ensure_can_manage_club`.
type Actor = AbstractBaseUser | AnonymousUser | SystemActor


def actor_user(actor: Actor | None) -> Any:
    """The user to store as ``recorded_by``/``changed_by``: None for the system."""
    return actor if getattr(actor, "pk", None) else None
