"""Reads for players, clubs and teams."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q, QuerySet

from config.errors import ApplicationError
from players.models import Club, Player, Team, TeamMembership


def club_list() -> QuerySet[Club]:
    return Club.objects.prefetch_related("organizers__player")


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("club")


def team_list() -> QuerySet[Team]:
    return Team.objects.select_related("club").prefetch_related(
        Prefetch("memberships", queryset=TeamMembership.objects.select_related("player"))
    )


def team_members_on(team: Team, day: dt.date) -> QuerySet[Player]:
    """The players who were members of ``team`` on ``day``."""
    return Player.objects.filter(
        Q(memberships__left_on__isnull=True) | Q(memberships__left_on__gt=day),
        memberships__team=team,
        memberships__joined_on__lte=day,
    ).distinct()


def players_by_ids(ids: Sequence[int], *, field: str = "members") -> list[Player]:
    """The players of ``ids`` in that order, in one query; unknown ids name the field."""
    found = Player.objects.select_related("club").in_bulk(list(ids))
    missing = [pk for pk in ids if pk not in found]
    if missing:
        shown = ", ".join(str(pk) for pk in missing[:5]) + ("..." if len(missing) > 5 else "")
        raise ApplicationError(f"No player has the id {shown}.", field=field)
    return [found[pk] for pk in ids]


def users_by_names(names: Sequence[str], *, field: str = "organizers") -> list[Any]:
    """The user accounts of ``names`` (user names) in that order, in one query."""
    found = {user.get_username(): user
             for user in get_user_model().objects.filter(username__in=list(names))}
    missing = [name for name in names if name not in found]
    if missing:
        raise ApplicationError(f"No account has the user name {missing[0]!r}.", field=field)
    return [found[name] for name in names]
