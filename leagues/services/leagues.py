"""Leagues, seasons, divisions, teams entered and their rosters."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.bounds import MAX_ROUNDS
from core.errors import ApplicationError
from core.parsers import check_storable
from leagues.history import EventKind, record
from leagues.models import (
    MAX_BOARDS,
    MAX_DEADLINE_HOURS,
    MAX_RATING_TOLERANCE,
    MAX_ROSTER,
    Division,
    League,
    LineupRule,
    RosterEntry,
    Season,
    SeasonTeam,
    TeamSystem,
)
from leagues.services.common import ensure_planning, lock_league, lock_season, whole
from leagues.tiebreaks import clean_tiebreaks
from players.models import Club, Player, Team
from players.permissions import Actor, actor_user, clubs_of, ensure_can_manage_club
from players.services import check_name, ensure_may_enter_from
from tournaments.models import EntrantKind, Format, Tournament
from tournaments.services.tournaments import validate_tournament

#: The most match points a result may be worth, and divisions' levels.
MAX_MATCH_POINTS = 100
MAX_LEVEL = 50


def _checked_game(host: Club, name: str, game: str, game_options: Any,
                  match_format: Any, rated: Any) -> Tournament:
    """The game, its options and the board match format as a board tournament would take
    them (checked and normalised by the tournaments floor)."""
    probe = Tournament(club=host, name=name, game=game, format=Format.ROUND_ROBIN,
                       game_options={} if game_options is None else game_options,
                       match_format={} if match_format is None else match_format,
                       tiebreaks=[], rated=rated)
    validate_tournament(probe)
    return probe


def _checked_slug(slug: Any) -> str:
    if not isinstance(slug, str) or not slug or slugify(slug) != slug or len(slug) > 160:
        raise ApplicationError(_("A slug is made of lowercase letters, digits and hyphens."),
                               field="slug")
    if League.objects.filter(slug=slug).exists():
        raise ApplicationError(_("Another league has this slug."), field="slug")
    return slug


def _checked_points(match_points: Any) -> tuple[int, int, int]:
    if not isinstance(match_points, (tuple, list)) or len(match_points) != 3:
        raise ApplicationError(_("Give the match points for a win, a draw and a loss."),
                               field="match_points")
    win, draw, loss = (whole(v, field="match_points", low=0, high=MAX_MATCH_POINTS)
                       for v in match_points)
    if not win > draw >= loss:
        raise ApplicationError(_("Match points must satisfy win > draw >= loss."),
                               field="match_points")
    return win, draw, loss


@transaction.atomic
def league_create(*, actor: Actor, host: Club, name: str, slug: str, game: str,
                  game_options: dict[str, Any] | None = None,
                  match_format: dict[str, Any] | None = None, boards: int = 4,
                  lineup_rule: str = "fixed", rating_tolerance: int = 0,
                  lineup_deadline_hours: int = 24, clubs: Sequence[Club] = (),
                  rated: bool = True, tiebreaks: Sequence[str] | None = None,
                  match_points: tuple[int, int, int] = (2, 1, 0)) -> League:
    """A new league hosted by ``host`` (the actor organizes it), managed also by the
    organizers of ``clubs``; its board games are played in ``game`` with ``match_format``
    on every board."""
    ensure_can_manage_club(actor, host)
    check_storable([name, slug, game, game_options, match_format], field="name")
    if not isinstance(rated, bool):
        raise ApplicationError(_("Say yes or no."), field="rated")
    probe = _checked_game(host, name, game, game_options, match_format, rated)
    if probe.entrant_kind == EntrantKind.TEAMS:
        raise ApplicationError(_("Leagues are played by single players on each board; "
                                 "partnership games are not offered in leagues yet."),
                               field="game_options")
    slug = _checked_slug(slug)
    boards = whole(boards, field="boards", low=1, high=MAX_BOARDS)
    if lineup_rule not in LineupRule.values:
        raise ApplicationError(_("Unknown lineup rule %(rule)r; choose one of %(rules)s.")
                               % {"rule": lineup_rule, "rules": ", ".join(LineupRule.values)},
                               field="lineup_rule")
    rating_tolerance = whole(rating_tolerance, field="rating_tolerance", low=0,
                             high=MAX_RATING_TOLERANCE)
    lineup_deadline_hours = whole(lineup_deadline_hours, field="lineup_deadline_hours", low=0,
                                  high=MAX_DEADLINE_HOURS)
    win, draw, loss = _checked_points(match_points)
    keys = clean_tiebreaks(tiebreaks)
    managing = list(clubs)
    if any(not isinstance(club, Club) for club in managing):
        raise ApplicationError(_("Managing clubs must be clubs."), field="clubs")
    league = League(
        name=probe.name, slug=slug, host=host, game=probe.game, game_options=probe.game_options,
        match_format=probe.match_format, boards=boards, lineup_rule=lineup_rule,
        rating_tolerance=rating_tolerance, lineup_deadline_hours=lineup_deadline_hours,
        match_points_win=win, match_points_draw=draw, match_points_loss=loss, tiebreaks=keys,
        rated=rated, created_by=actor_user(actor))
    league.full_clean()
    league.save()
    league.clubs.set([club for club in managing if club.pk != host.pk])
    record(league, EventKind.LEAGUE_CREATED, actor=actor, name=league.name)
    return league


def _checked_dates(starts_on: Any, ends_on: Any) -> None:
    for value, field in ((starts_on, "starts_on"), (ends_on, "ends_on")):
        if value is not None and (not isinstance(value, datetime.date)
                                  or isinstance(value, datetime.datetime)):
            raise ApplicationError(_("Give a date."), field=field)
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        raise ApplicationError(_("A season ends on or after its start date."),
                               field="ends_on")


@transaction.atomic
def season_create(*, actor: Actor, league: League, name: str,
                  starts_on: datetime.date | None = None,
                  ends_on: datetime.date | None = None) -> Season:
    """The league's next season (numbered after the last), in planning."""
    league = lock_league(actor, league)
    return season_row_create(actor, league, name, starts_on, ends_on)


def season_row_create(actor: Actor, league: League, name: str, starts_on: datetime.date | None,
                ends_on: datetime.date | None) -> Season:
    check_name(name, field="name")
    name = name.strip()
    if len(name) > 80:
        raise ApplicationError(_("A name has at most %(limit)d characters.") % {"limit": 80},
                               field="name")
    _checked_dates(starts_on, ends_on)
    if league.seasons.filter(name=name).exists():
        raise ApplicationError(_("The league already has a season of this name."),
                               field="name")
    last = league.seasons.aggregate(n=Max("number"))["n"] or 0
    if last >= 32767:
        raise ApplicationError(_("The league has too many seasons."), field="name")
    season = Season(league=league, number=last + 1, name=name, starts_on=starts_on,
                    ends_on=ends_on)
    season.full_clean()
    season.save()
    record(league, EventKind.SEASON_CREATED, actor=actor, season=season, name=name)
    return season


@transaction.atomic
def division_create(*, actor: Actor, season: Season, name: str, level: int = 1, system: str,
                    rounds_planned: int | None = None, promote: int = 0,
                    relegate: int = 0) -> Division:
    """A division of a season in planning, paired by the team ``system``."""
    lock_league(actor, season.league)
    season = lock_season(season)
    ensure_planning(season, _("Divisions are added"))
    check_name(name, field="name")
    name = name.strip()
    if len(name) > 80:
        raise ApplicationError(_("A name has at most %(limit)d characters.") % {"limit": 80},
                               field="name")
    level = whole(level, field="level", low=1, high=MAX_LEVEL)
    if system not in TeamSystem.values:
        raise ApplicationError(_("Unknown system %(system)r; choose one of %(systems)s.")
                               % {"system": system, "systems": ", ".join(TeamSystem.values)},
                               field="system")
    if rounds_planned is not None:
        rounds_planned = whole(rounds_planned, field="rounds_planned", low=1, high=MAX_ROUNDS)
    promote = whole(promote, field="promote", low=0, high=MAX_ROSTER)
    relegate = whole(relegate, field="relegate", low=0, high=MAX_ROSTER)
    if season.divisions.filter(name=name).exists():
        raise ApplicationError(_("The season already has a division of this name."),
                               field="name")
    division = Division(season=season, name=name, level=level, system=system,
                        rounds_planned=rounds_planned, promote=promote, relegate=relegate)
    division.full_clean()
    division.save()
    return division


@transaction.atomic
def team_enter(*, actor: Actor, division: Division, team: Team, captain: Player | None = None,
               seed: int | None = None) -> SeasonTeam:
    """Enter a club's team in a division of a season in planning (once per season)."""
    league = lock_league(actor, division.season.league)
    season = lock_season(division.season)
    ensure_planning(season, _("Teams are entered"))
    if not isinstance(team, Team) or team.pk is None:
        raise ApplicationError(_("Choose a team."), field="team")
    ensure_may_enter_from(actor, league.host, clubs_of([team]), field="team")
    if season.teams.filter(team=team).exists():
        raise ApplicationError(_("%(team)s is already entered in this season.")
                               % {"team": team.name}, field="team")
    if seed is not None:
        seed = whole(seed, field="seed", low=1, high=MAX_ROSTER * 10)
        if division.teams.filter(seed=seed).exists():
            raise ApplicationError(_("Another team of the division has seed %(seed)d.")
                                   % {"seed": seed}, field="seed")
    if captain is not None:
        ensure_may_enter_from(actor, league.host, clubs_of([captain]), field="captain")
    entry = SeasonTeam(season=season, division=division, team=team, captain=captain, seed=seed)
    entry.full_clean()
    entry.save()
    return entry


def check_roster_players(actor: Any, season_team: SeasonTeam, players: Sequence[Player],
                         *, field: str) -> None:
    """Refuse players entered twice, of another team this season, or from a club whose
    players the actor may not enter."""
    if any(not isinstance(p, Player) or p.pk is None for p in players):
        raise ApplicationError(_("Choose players."), field=field)
    ids = [p.pk for p in players]
    if len(set(ids)) != len(ids):
        twice = next(p for p in players if ids.count(p.pk) > 1)
        raise ApplicationError(_("%(name)s is named twice.") % {"name": twice.display_name},
                               field=field)
    taken = (RosterEntry.objects.filter(season=season_team.season, player_id__in=ids)
             .exclude(season_team=season_team).select_related("player", "season_team__team")
             .first())
    if taken is not None:
        raise ApplicationError(
            _("%(name)s already plays for %(team)s this season.")
            % {"name": taken.player.display_name, "team": taken.season_team.team.name},
            field=field)
    if actor is not None:
        host = season_team.season.league.host
        ensure_may_enter_from(actor, host, clubs_of(players), field=field)


@transaction.atomic
def roster_set(*, actor: Actor, season_team: SeasonTeam, players: Sequence[Player],
               reserves: Sequence[Player] = ()) -> list[RosterEntry]:
    """Declare a team's roster: ``players`` in board order, then ``reserves``; replaces the
    roster before the season starts (after it, reserves are added by :func:`reserve_add`)."""
    lock_league(actor, season_team.season.league)
    season = lock_season(season_team.season)
    ensure_planning(season, _("Rosters are declared"))
    players, reserves = list(players), list(reserves)
    if not players:
        raise ApplicationError(_("Name at least one player."), field="players")
    if len(players) + len(reserves) > MAX_ROSTER:
        raise ApplicationError(_("A roster has at most %(limit)d players.")
                               % {"limit": MAX_ROSTER}, field="players")
    check_roster_players(actor, season_team, players + reserves, field="players")
    season_team.roster.all().delete()
    entries = [RosterEntry(season=season, season_team=season_team, player=player, order=order,
                           reserve=order > len(players))
               for order, player in enumerate(players + reserves, start=1)]
    return RosterEntry.objects.bulk_create(entries)
