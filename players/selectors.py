"""Reads for players, clubs and teams."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from games.bots.process.installed import InstalledBot, list_installed_bots
from players.models import BotKind, Club, Player, Team, TeamMembership


def club_list() -> QuerySet[Club]:
    return Club.objects.prefetch_related("organizers__player")


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("club")


def folded_name(name: str) -> str:
    """A name as duplicates are found: case and spacing folded."""
    return " ".join(name.split()).casefold()


def players_named_alike(club: Club | None, name: str,
                        exclude: int | None = None) -> list[Player]:
    """The club's people whose name is ``name`` with case and spacing aside: a likely
    duplicate of a player being added or renamed."""
    if club is None or not name.strip():
        return []
    first = name.split()[0]
    found = Player.objects.filter(club=club, is_bot=False, display_name__icontains=first)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    wanted = folded_name(name)
    return [player for player in found.order_by("pk") if folded_name(player.display_name) == wanted]


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
        raise ApplicationError(
            ngettext("No player has the id %(ids)s.", "No player has the ids %(ids)s.",
                     len(missing)) % {"ids": shown}, field=field)
    return [found[pk] for pk in ids]


def users_by_names(names: Sequence[str], *, field: str = "organizers") -> list[Any]:
    """The user accounts of ``names`` (user names) in that order, in one query."""
    found = {user.get_username(): user
             for user in get_user_model().objects.filter(username__in=list(names))}
    missing = [name for name in names if name not in found]
    if missing:
        raise ApplicationError(
            _("No account has the user name %(name)r.") % {"name": missing[0]}, field=field)
    return [found[name] for name in names]


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
            return _("%(player)s is the installed bot %(bot)r, which does not play %(game)s "
                     "(it plays %(games)s).") % {
                "player": player.display_name, "bot": bot.name, "game": game,
                "games": ", ".join(bot.games)}
    return _("%(player)s is the installed bot %(bot)r, which is not installed in the bots "
             "directory (%(folder)s).") % {
        "player": player.display_name, "bot": player.installed_bot,
        "folder": settings.BOTS_DIR}
