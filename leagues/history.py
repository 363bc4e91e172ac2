"""A league's log: services record facts (names, numbers, codes) in their transaction;
:func:`describe` words them in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from leagues.models import League, LeagueEvent, Movement, Season, Side
from players.permissions import actor_user


class EventKind:
    LEAGUE_CREATED = "league_created"
    SEASON_CREATED = "season_created"
    SEASON_STARTED = "season_started"
    SEASON_FINISHED = "season_finished"
    ROUND_PAIRED = "round_paired"
    LATE_LINEUP_ACCEPTED = "late_lineup_accepted"
    BOARDS_PAIRED = "boards_paired"
    MATCH_FORFEITED = "match_forfeited"
    TEAM_MOVED = "team_moved"
    RESERVE_ADDED = "reserve_added"
    CAPTAIN_LINK_ISSUED = "captain_link_issued"
    CAPTAIN_LINK_REVOKED = "captain_link_revoked"
    LINEUP_REMINDER_SENT = "lineup_reminder_sent"


def record(league: League, kind: str, *, actor: Any = None, season: Season | None = None,
           name: str = "", **data: Any) -> LeagueEvent:
    """Store one log line; ``data`` holds JSON facts, never translated text. ``name`` is the
    writer's name when it is no user (a captain through their link)."""
    user = actor_user(actor)
    if user is not None:
        name = user.get_username()
    elif not name:
        name = getattr(actor, "username", "")
    return LeagueEvent.objects.create(league=league, season=season, kind=kind, actor=user,
                                      actor_name=name[:150], data=data)


def _label(choices: Any, value: Any) -> str:
    return str(choices(value).label) if value in choices.values else str(value)


def _match(data: dict[str, Any]) -> dict[str, Any]:
    return {"round": data.get("round", "?"), "home": data.get("home", "?"),
            "away": data.get("away", "?"), "team": data.get("team", "?"),
            "side": _label(Side, data.get("side", "?")), "name": data.get("name", "?"),
            "player": data.get("player", "?"), "division": data.get("division", "?"),
            "movement": _label(Movement, data.get("movement", "?")),
            "boards": data.get("boards", 0)}


_DESCRIBERS: dict[str, Callable[[dict[str, Any]], str]] = {
    EventKind.LEAGUE_CREATED: lambda d: _("League %(name)s created.") % _match(d),
    EventKind.SEASON_CREATED: lambda d: _("Season %(name)s created.") % _match(d),
    EventKind.SEASON_STARTED: lambda d: _("Season %(name)s started.") % _match(d),
    EventKind.SEASON_FINISHED: lambda d: _("Season %(name)s finished.") % _match(d),
    EventKind.ROUND_PAIRED: lambda d: _("%(division)s: round %(round)s paired.") % _match(d),
    EventKind.LATE_LINEUP_ACCEPTED: lambda d: _(
        "Round %(round)s, %(home)s - %(away)s: a late lineup of %(team)s accepted.") % _match(d),
    EventKind.BOARDS_PAIRED: lambda d: _(
        "Round %(round)s, %(home)s - %(away)s: %(boards)s boards paired.") % _match(d),
    EventKind.MATCH_FORFEITED: lambda d: _(
        "Round %(round)s, %(home)s - %(away)s: whole-match forfeit (%(side)s).") % _match(d),
    EventKind.TEAM_MOVED: lambda d: _("%(team)s: %(movement)s.") % _match(d),
    EventKind.RESERVE_ADDED: lambda d: _("%(team)s: reserve %(player)s added.") % _match(d),
    EventKind.CAPTAIN_LINK_ISSUED: lambda d: _("%(team)s: captain's link issued.") % _match(d),
    EventKind.CAPTAIN_LINK_REVOKED: lambda d: _("%(team)s: captain's link revoked.") % _match(d),
    EventKind.LINEUP_REMINDER_SENT: lambda d: _(
        "Round %(round)s, %(home)s - %(away)s: the captain of %(team)s reminded of the lineup "
        "deadline.") % _match(d),
}


def describe(event: LeagueEvent) -> str:
    """The log line in the reader's language."""
    describer = _DESCRIBERS.get(event.kind)
    if describer is None:
        return event.kind
    return describer(event.data if isinstance(event.data, dict) else {})
