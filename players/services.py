"""Writes for players, clubs and teams. Each validates fully, then saves atomically."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext as _

from core.bounds import (
    MAX_BOT_ITERATIONS,
    MAX_BOT_SECONDS,
    MAX_CLUB_ORGANIZERS,
    MAX_TEAM_MEMBERS,
)
from core.errors import ApplicationError
from core.parsers import check_storable
from games.bots.mcts import VERSIONS as MCTS_VERSIONS
from games.names import name_problem
from players.models import (
    FIRST_BIRTH_YEAR,
    BotKind,
    Club,
    Player,
    Sex,
    Team,
    TeamMembership,
    Title,
)
from players.permissions import Actor, clubs_of, ensure_can_manage_club, may_enter_from
from players.selectors import installed_bots, users_by_names

#: The optional fields prize categories and lists use (TRF 001 columns).
CATEGORY_FIELDS = ("birth_year", "sex", "federation", "title")


_PLAYER_FIELDS = {"display_name", "club", "user", "is_bot", "bot_kind", "bot_settings",
                  "installed_bot", "fide_id", *CATEGORY_FIELDS}


def check_name(name: str, *, field: str) -> None:
    """Refuse a name the database cannot store or nobody can see (``games.names``: the
    rule of the TRF reader too), naming ``field``."""
    check_storable(name, field=field)
    problem = name_problem(name)
    if problem is not None:
        raise ApplicationError(capfirst(_(problem)), field=field)


def ensure_may_enter_from(user: Actor, host: Club, clubs: Iterable[Club | None], *,
                          field: str) -> None:
    """Raise :class:`ApplicationError` (naming ``field``) for the first club of ``clubs``
    whose players and teams ``user`` may not put into ``host``'s tournaments and teams."""
    for club in clubs:
        if may_enter_from(user, host, club):
            continue
        if club is None:
            raise ApplicationError(_("Players without a club are entered only by site "
                                     "administrators."), field=field)
        raise ApplicationError(
            _("%(club)s does not accept entries by other clubs: only its organizers may "
              "enter its players and teams in %(host)s's tournaments and teams (they can "
              "allow it with the club's open entries setting).")
            % {"club": club.name, "host": host.name}, field=field)


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _organizer_accounts(organizers: Sequence[Any]) -> list[Any]:
    """The accounts of ``organizers`` (accounts, or user names looked up in one query),
    within :data:`MAX_CLUB_ORGANIZERS` and each once. Called after the permission check,
    so that only those who may change the club learn which user names exist."""
    if len(organizers) > MAX_CLUB_ORGANIZERS:
        raise ApplicationError(
            _("A club has at most %(limit)d organizers.") % {"limit": MAX_CLUB_ORGANIZERS},
            field="organizers")
    names = [name for name in organizers if isinstance(name, str)]
    found = iter(users_by_names(names)) if names else iter(())
    accounts = [next(found) if isinstance(item, str) else item for item in organizers]
    if len({user.pk for user in accounts}) != len(accounts):
        raise ApplicationError(_("An organizer is listed twice."), field="organizers")
    return accounts


@transaction.atomic
def club_create(
    *, actor: Actor, name: str, organizers: Sequence[Any] | None = None,
    open_entries: bool = False, slug: str | None = None,
) -> Club:
    """A new club (site administrators); ``organizers`` are accounts or user names; the
    slug is made from the name unless given."""
    if not getattr(actor, "is_superuser", False):
        raise PermissionDenied(_("Only site administrators may create clubs."))
    organizers = _organizer_accounts(organizers or [])
    check_name(name, field="name")
    club = Club(name=name.strip(), slug=(slug or "").strip() or _unique_slug(name),
                open_entries=bool(open_entries))
    club.full_clean()
    club.save()
    if organizers:
        club.organizers.set(organizers)
    return club


@transaction.atomic
def club_update(
    *, actor: Actor, club: Club, name: str | None = None,
    organizers: Sequence[Any] | None = None, open_entries: bool | None = None,
) -> Club:
    """Rename a club, change its organizers or whether other clubs may enter its players
    and teams (its rating settings belong to the ratings app:
    ``ratings.services.club_rating_settings_update``)."""
    ensure_can_manage_club(actor, club)
    if open_entries is not None:
        club.open_entries = bool(open_entries)
    if organizers is not None:
        if not organizers:
            raise ApplicationError(_("A club needs at least one organizer."),
                                   field="organizers")
        organizers = _organizer_accounts(organizers)
    if name is not None:
        check_name(name, field="name")
        club.name = name.strip()
    club.full_clean()
    club.save()
    if organizers is not None:
        club.organizers.set(organizers)
    return club


#: Each built-in bot kind's own settings and their types; every kind also takes a budget
#: per move (:data:`BOT_BUDGET`). ``tests/unit/test_bot_settings.py`` keeps this table in
#: step with the bots' constructors.
BOT_OPTIONS: dict[str, dict[str, type]] = {
    BotKind.RANDOM: {},
    BotKind.GREEDY: {"endgame_solver": bool},
    BotKind.MCTS: {"endgame_solver": bool, "policy": bool, "version": int},
    BotKind.SOLVER: {},
}
#: The budget of one move: iterations (a whole number) and seconds, each at most the bound.
BOT_BUDGET: dict[str, float] = {"iterations": MAX_BOT_ITERATIONS, "seconds": MAX_BOT_SECONDS,
                                "cpu_seconds": MAX_BOT_SECONDS}


def bot_settings_check(kind: str, settings: Any) -> dict[str, Any]:
    """Check a bot's kind and settings (a built-in kind: an object of its options and a
    bounded budget; an installed bot: none); return the settings. An
    :class:`ApplicationError` names the setting."""
    if kind not in BOT_OPTIONS and kind != BotKind.INSTALLED:
        raise ApplicationError(
            _("Unknown bot kind %(kind)r; choose one of %(kinds)s.")
            % {"kind": kind, "kinds": ", ".join(BotKind.values)}, field="bot_kind")
    if not isinstance(settings, dict):
        raise ApplicationError(_("Bot settings must be a JSON object, for example "
                                 '{"iterations": 200}.'), field="bot_settings")
    if kind == BotKind.INSTALLED:
        if settings:
            raise ApplicationError(_(
                "An installed bot takes no settings (its program decides how it plays): "
                "leave the bot settings empty."), field="bot_settings")
        return settings
    options = BOT_OPTIONS[kind]
    for key, value in settings.items():
        field = f"bot_settings.{key}"
        if key in BOT_BUDGET:
            whole = key == "iterations"
            ok = not isinstance(value, bool) and isinstance(value, int if whole else int | float)
            if not ok or not 0 < value <= BOT_BUDGET[key]:
                text = (_("Bot setting %(key)r must be a whole number from 1 up to "
                          "%(limit)g, not %(value)r.") if whole else
                        _("Bot setting %(key)r must be a number of seconds above 0 up to "
                          "%(limit)g, not %(value)r."))
                raise ApplicationError(
                    text % {"key": key, "limit": BOT_BUDGET[key], "value": value},
                    field=field)
        elif key in options:
            if key == "version" and (isinstance(value, bool) or value not in MCTS_VERSIONS):
                raise ApplicationError(
                    _("Bot setting 'version' must be one of %(versions)s, not %(value)r.")
                    % {"versions": ", ".join(map(str, MCTS_VERSIONS)), "value": value},
                    field=field)
            if not isinstance(value, options[key]):
                text = (_("Bot setting %(key)r must be true or false, not %(value)r.")
                        if options[key] is bool else
                        _("Bot setting %(key)r must be valid, not %(value)r."))
                raise ApplicationError(text % {"key": key, "value": value}, field=field)
        else:
            known = ", ".join(sorted([*options, *BOT_BUDGET]))
            raise ApplicationError(
                _("A %(kind)s bot has no setting %(key)r; its settings are %(known)s.")
                % {"kind": kind, "key": key, "known": known}, field=field)
    return settings


def _check_player(actor: Actor, player: Player, *, user_changed: bool,
                  original: Player | None = None) -> None:
    """Everything a player's row must satisfy before it is saved, by this actor."""
    superuser = bool(getattr(actor, "is_superuser", False))
    if player.club_id is None and not superuser:
        raise ApplicationError(_("Choose the player's club."), field="club")
    if user_changed and not superuser:
        raise ApplicationError(
            _("Only site administrators link a player to a user account."), field="user")
    check_name(player.display_name, field="display_name")
    check_storable(player.fide_id, field="fide_id")
    player_check_categories(player)
    player_check_bot(player, original=original)


def player_check_categories(player: Player) -> None:
    """The fields prize categories use, each optional: a birth year from 1900 to this
    year, a sex and a title from their choices, a federation of three letters (stored in
    capitals)."""
    year = player.birth_year
    if year is not None:
        this_year = timezone.localdate().year
        if isinstance(year, bool) or not isinstance(year, int) or not (
                FIRST_BIRTH_YEAR <= year <= this_year):
            raise ApplicationError(
                _("A birth year is a year from %(first)d to %(last)d, not %(value)s.")
                % {"first": FIRST_BIRTH_YEAR, "last": this_year, "value": year},
                field="birth_year")
    player.sex = (player.sex or "").strip().lower()
    if player.sex not in ("", *Sex.values):
        raise ApplicationError(_("Sex is m or w (or left empty), not %(value)r.")
                               % {"value": player.sex}, field="sex")
    player.title = (player.title or "").strip().upper()
    if player.title not in ("", *Title.values):
        raise ApplicationError(
            _("Unknown title %(value)r; choose one of %(titles)s.")
            % {"value": player.title, "titles": ", ".join(Title.values)}, field="title")
    federation = (player.federation or "").strip().upper()
    if federation and not (len(federation) == 3 and federation.isascii()
                           and federation.isalpha()):
        raise ApplicationError(
            _("A federation or town code is three letters, for example POL, not %(value)r.")
            % {"value": player.federation}, field="federation")
    player.federation = federation


def player_check_bot(player: Player, *, original: Player | None = None) -> None:
    """The bot fields of ``player`` (unsaved; ``original``: as stored before a change):
    a known kind; a built-in kind's settings, bounded (:func:`bot_settings_check`); an
    installed bot's name among the bots installed in ``BOTS_DIR`` (checked when the name
    is set or changed, so that a bot uninstalled later can still be renamed) and no
    settings."""
    if player.is_bot:
        bot_settings_check(player.bot_kind, player.bot_settings)
    elif player.bot_kind or player.bot_settings:
        raise ApplicationError(_("Only a bot has a bot kind and bot settings."),
                               field="bot_kind" if player.bot_kind else "bot_settings")
    if not isinstance(player.installed_bot, str):
        raise ApplicationError(_("The installed bot is named by a text."),
                               field="installed_bot")
    if player.bot_kind != BotKind.INSTALLED:
        if player.installed_bot:
            raise ApplicationError(_(
                "Only a bot of the kind 'installed' names an installed bot: choose that kind "
                "or leave the installed bot empty."), field="installed_bot")
        return
    if player.bot_settings:
        raise ApplicationError(_(
            "An installed bot takes no settings (its program decides how it plays): "
            "leave the bot settings empty."), field="bot_settings")
    unchanged = (original is not None and original.bot_kind == BotKind.INSTALLED
                 and original.installed_bot == player.installed_bot)
    if unchanged:
        return
    names = [bot.name for bot in installed_bots()]
    if player.installed_bot not in names:
        known = ", ".join(names) or _("none")
        text = (_("No bot %(name)r is installed (installed: %(known)s).")
                if player.installed_bot else
                _("Choose the installed bot (installed: %(known)s)."))
        raise ApplicationError(text % {"name": player.installed_bot, "known": known},
                               field="installed_bot")


@transaction.atomic
def player_create(*, actor: Actor, display_name: str, club: Club | None, **fields: Any) -> Player:
    unknown = set(fields) - _PLAYER_FIELDS
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]})
    player = Player(display_name=display_name.strip(), club=club, **fields)
    _check_player(actor, player, user_changed=player.user_id is not None)
    ensure_can_manage_club(actor, club)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_update(*, actor: Actor, player: Player, **fields: Any) -> Player:
    unknown = set(fields) - _PLAYER_FIELDS
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]})
    ensure_can_manage_club(actor, player.club)
    if "club" in fields and fields["club"] != player.club:
        ensure_can_manage_club(actor, fields["club"])
    original = Player.objects.get(pk=player.pk)
    for name, value in fields.items():
        setattr(player, name, value.strip() if name == "display_name" else value)
    _check_player(actor, player, user_changed=player.user_id != original.user_id,
                  original=original)
    player.full_clean()
    player.save()
    return player


def _check_members(members: Sequence[Player], current: int = 0) -> None:
    if current + len(members) > MAX_TEAM_MEMBERS:
        raise ApplicationError(
            _("A team has at most %(limit)d members at a time.") % {"limit": MAX_TEAM_MEMBERS},
            field="members")
    if len({player.pk for player in members}) != len(members):
        raise ApplicationError(_("A player is listed twice."), field="members")


@transaction.atomic
def team_create(
    *, actor: Actor, name: str, club: Club, members: Sequence[Player] | None = None,
    joined_on: dt.date | None = None,
) -> Team:
    """A new team of ``club`` with its first ``members`` (checked together, then written
    in one insert)."""
    ensure_can_manage_club(actor, club)
    members = list(members or [])
    _check_members(members)
    ensure_may_enter_from(actor, club, clubs_of(members), field="members")
    check_name(name, field="name")
    team = Team(name=name.strip(), club=club)
    team.full_clean()
    team.save()
    day = joined_on or timezone.localdate()
    TeamMembership.objects.bulk_create(
        TeamMembership(team=team, player=player, joined_on=day) for player in members)
    return team


@transaction.atomic
def team_update(*, actor: Actor, team: Team, name: str | None = None) -> Team:
    ensure_can_manage_club(actor, team.club)
    if name is not None:
        check_name(name, field="name")
        team.name = name.strip()
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def team_add_member(
    *, actor: Actor, team: Team, player: Player, joined_on: dt.date | None = None
) -> TeamMembership:
    ensure_can_manage_club(actor, team.club)
    _check_members([player], TeamMembership.objects.filter(
        team=team, left_on__isnull=True).exclude(player=player).count())
    ensure_may_enter_from(actor, team.club, clubs_of([player]), field="player")
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
        raise ApplicationError(
            _("%(player)s is not a current member of %(team)s.")
            % {"player": player, "team": team}, field="player")
    membership.left_on = left_on or timezone.localdate()
    membership.full_clean()
    membership.save()
    return membership
