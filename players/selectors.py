"""Reads for players, clubs and teams."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet

from games.bots.process.installed import InstalledBot, list_installed_bots
from players.models import BotKind, Club, Player, Team, TeamMembership


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


def installed_bots() -> tuple[InstalledBot, ...]:
    """The bots installed in this host's bots directory (``BOTS_DIR``), by name. The web
    host reads its own copy: every worker needs the same bots directory."""
    return list_installed_bots(settings.BOTS_DIR).bots


def bot_game_problem(player: Player, game: str) -> str | None:
    """Why ``player`` cannot play ``game`` as a bot (an installed bot that is missing or
    does not play it), or None."""
    if not player.is_bot or player.bot_kind != BotKind.INSTALLED:
        return None
    for bot in installed_bots():
        if bot.name == player.installed_bot:
            if bot.plays(game):
                return None
            return (f"{player.display_name} is the installed bot {bot.name!r}, which does not "
                    f"play {game} (it plays {', '.join(bot.games)}).")
    return (f"{player.display_name} is the installed bot {player.installed_bot!r}, which is "
            f"not installed in the bots directory ({settings.BOTS_DIR}).")
