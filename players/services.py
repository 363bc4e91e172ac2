"""Writes for players, clubs and teams. Each validates fully, then saves atomically."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from config.errors import ApplicationError
from players.models import BotKind, Club, Player, Team, TeamMembership
from players.permissions import Actor, ensure_can_manage_club
from players.selectors import installed_bots

_PLAYER_FIELDS = {"display_name", "club", "user", "is_bot", "bot_kind", "bot_settings",
                  "installed_bot", "fide_id"}


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def club_create(
    *, actor: Actor, name: str, organizers: list[Any] | None = None
) -> Club:
    if not getattr(actor, "is_superuser", False):
        raise PermissionDenied("Only site administrators may create clubs.")
    club = Club(name=name.strip(), slug=_unique_slug(name))
    club.full_clean()
    club.save()
    if organizers:
        club.organizers.set(organizers)
    return club


@transaction.atomic
def club_update(
    *, actor: Actor, club: Club, name: str | None = None,
    organizers: list[Any] | None = None,
) -> Club:
    """Rename a club or change its organizers (its rating settings belong to the ratings
    app: ``ratings.services.club_rating_settings_update``)."""
    ensure_can_manage_club(actor, club)
    if name is not None:
        club.name = name.strip()
    club.full_clean()
    club.save()
    if organizers is not None:
        if not organizers:
            raise ApplicationError("A club needs at least one organizer.", field="organizers")
        club.organizers.set(organizers)
    return club


def _check_bot_settings(player: Player) -> None:
    if player.is_bot and player.bot_kind not in BotKind.values:
        raise ApplicationError(
            f"Unknown bot kind {player.bot_kind!r}; choose one of {', '.join(BotKind.values)}.",
            field="bot_kind",
        )
    if not isinstance(player.bot_settings, dict):
        raise ApplicationError("Bot settings must be a JSON object.", field="bot_settings")


def player_check_bot(player: Player, *, original: Player | None = None) -> None:
    """The bot fields of ``player`` (unsaved; ``original``: as stored before a change):
    a known kind; a built-in kind's settings; an installed bot's name among the bots
    installed in ``BOTS_DIR`` (checked when the name is set or changed, so that a bot
    uninstalled later can still be renamed) and no settings."""
    _check_bot_settings(player)
    if not isinstance(player.installed_bot, str):
        raise ApplicationError("The installed bot is named by a text.", field="installed_bot")
    if player.bot_kind != BotKind.INSTALLED:
        if player.installed_bot:
            raise ApplicationError(
                "Only a bot of the kind 'installed' names an installed bot: choose that kind "
                "or leave the installed bot empty.", field="installed_bot")
        return
    if player.bot_settings:
        raise ApplicationError(
            "An installed bot takes no settings (its program decides how it plays): leave "
            "the bot settings empty.", field="bot_settings")
    unchanged = (original is not None and original.bot_kind == BotKind.INSTALLED
                 and original.installed_bot == player.installed_bot)
    if unchanged:
        return
    names = [bot.name for bot in installed_bots()]
    if player.installed_bot not in names:
        known = ", ".join(names) or "none"
        what = (f"No bot {player.installed_bot!r} is installed"
                if player.installed_bot else "Choose the installed bot")
        raise ApplicationError(f"{what} (installed: {known}).", field="installed_bot")


@transaction.atomic
def player_create(*, actor: Actor, display_name: str, club: Club | None, **fields: Any) -> Player:
    unknown = set(fields) - _PLAYER_FIELDS
    if unknown:
        raise ApplicationError(f"Unknown field {sorted(unknown)[0]!r}.")
    ensure_can_manage_club(actor, club)
    player = Player(display_name=display_name.strip(), club=club, **fields)
    player_check_bot(player)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_update(*, actor: Actor, player: Player, **fields: Any) -> Player:
    unknown = set(fields) - _PLAYER_FIELDS
    if unknown:
        raise ApplicationError(f"Unknown field {sorted(unknown)[0]!r}.")
    ensure_can_manage_club(actor, player.club)
    if "club" in fields and fields["club"] != player.club:
        ensure_can_manage_club(actor, fields["club"])
    original = Player.objects.get(pk=player.pk)
    for name, value in fields.items():
        setattr(player, name, value.strip() if name == "display_name" else value)
    player_check_bot(player, original=original)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def team_create(
    *, actor: Actor, name: str, club: Club, members: list[Player] | None = None,
    joined_on: dt.date | None = None,
) -> Team:
    ensure_can_manage_club(actor, club)
    team = Team(name=name.strip(), club=club)
    team.full_clean()
    team.save()
    for player in members or []:
        team_add_member(actor=actor, team=team, player=player, joined_on=joined_on)
    return team


@transaction.atomic
def team_update(*, actor: Actor, team: Team, name: str | None = None) -> Team:
    ensure_can_manage_club(actor, team.club)
    if name is not None:
        team.name = name.strip()
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def team_add_member(
    *, actor: Actor, team: Team, player: Player, joined_on: dt.date | None = None
) -> TeamMembership:
    ensure_can_manage_club(actor, team.club)
    membership = TeamMembership(
        team=team, player=player, joined_on=joined_on or timezone.localdate()
    )
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def team_remove_member(
    *, actor: Actor, team: Team, player: Player, left_on: dt.date | None = None
) -> TeamMembership:
    ensure_can_manage_club(actor, team.club)
    membership = (
        TeamMembership.objects.select_for_update()
        .filter(team=team, player=player, left_on__isnull=True)
        .first()
    )
    if membership is None:
        raise ApplicationError(f"{player} is not a current member of {team}.", field="player")
    membership.left_on = left_on or timezone.localdate()
    membership.full_clean()
    membership.save()
    return membership
