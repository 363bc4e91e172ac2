"""Reads for players, clubs and teams."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch, Q, QuerySet

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
