"""Team matches: schedules, availability, reserves, lineups, boards and forfeits."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from core.bounds import MAX_ROUNDS
from core.errors import ApplicationError
from core.parsers import check_storable
from leagues.history import EventKind, record
from leagues.models import (
    MAX_BOARDS,
    MAX_ROSTER,
    Availability,
    CaptainLink,
    League,
    Lineup,
    LineupBoard,
    LineupRule,
    MatchBoard,
    RosterEntry,
    SeasonStatus,
    SeasonTeam,
    Side,
    TeamMatch,
)
from leagues.permissions import can_manage_league, ensure_can_manage_league
from leagues.services.common import ensure_running, whole
from leagues.services.leagues import check_roster_players
from leagues.services.seasons import floor_actor
from players.models import Player
from players.permissions import Actor, actor_user
from tournaments.rating_source import entry_ratings
from tournaments.services.entrants import board_entrants_ensure
from tournaments.services.rounds import GivenBoard, round_boards_add

#: One board of a lineup: a player, nobody (the board left empty) or a pair.
type BoardChoice = Player | None | tuple[Player, Player | None]


def _writer(actor: Any, link: CaptainLink | None, season_team: SeasonTeam) -> tuple[Any, str]:
    """Check who writes for ``season_team``: its captain's live link or a league manager.
    Returns the user to log (None for a captain) and the name to log."""
    league = season_team.season.league
    if link is not None:
        live = CaptainLink.objects.live().filter(pk=link.pk).select_related("player").first()
        if live is None or live.season_team_id != season_team.pk:
            raise ApplicationError(_("This captain's link does not manage %(team)s.")
                                   % {"team": season_team.team.name}, field="link")
        return None, live.player.display_name
    ensure_can_manage_league(actor, league)
    user = actor_user(actor)
    return actor, user.get_username() if user is not None else ""


def _match_locked(match: TeamMatch) -> TeamMatch:
    return (TeamMatch.objects.select_for_update(of=("self",))
            .select_related("division__season__league", "division__tournament",
                            "home__team", "away__team")
            .get(pk=match.pk))


def _aware(value: Any, field: str) -> datetime.datetime:
    if not isinstance(value, datetime.datetime) or timezone.is_naive(value):
        raise ApplicationError(_("Give a date and time with its time zone."), field=field)
    return value


@transaction.atomic
def match_schedule(*, actor: Actor, match: TeamMatch, starts_at: datetime.datetime,
                   venue: str = "", lineup_deadline: datetime.datetime | None = None
                   ) -> TeamMatch:
    """Set a match's date, venue and lineup deadline (by default ``starts_at`` minus the
    league's ``lineup_deadline_hours``)."""
    ensure_can_manage_league(actor, match.division.season.league)
    match = _match_locked(match)
    league = match.division.season.league
    if match.division.season.status == SeasonStatus.FINISHED:
        raise ApplicationError(_("The season is finished."), field="season")
    if match.away_id is None:
        raise ApplicationError(_("A bye is not played: it has no date."), field="starts_at")
    starts_at = _aware(starts_at, "starts_at")
    if not isinstance(venue, str):
        raise ApplicationError(_("Give the venue as text."), field="venue")
    check_storable(venue, field="venue")
    venue = venue.strip()
    if len(venue) > 200:
        raise ApplicationError(_("A venue has at most %(limit)d characters.") % {"limit": 200},
                               field="venue")
    if lineup_deadline is None:
        try:
            lineup_deadline = starts_at - datetime.timedelta(
                hours=league.lineup_deadline_hours)
        except OverflowError:
            raise ApplicationError(_("Give a start date from year 2 on."),
                                   field="starts_at") from None
    lineup_deadline = _aware(lineup_deadline, "lineup_deadline")
    if lineup_deadline > starts_at:
        raise ApplicationError(_("The lineup deadline comes before the match starts."),
                               field="lineup_deadline")
    match.starts_at, match.venue, match.lineup_deadline = starts_at, venue, lineup_deadline
    match.version += 1
    match.save(update_fields=["starts_at", "venue", "lineup_deadline", "version"])
    return match


def _roster_entry(season_team: SeasonTeam, player: Any, *, field: str) -> RosterEntry:
    if not isinstance(player, Player) or player.pk is None:
        raise ApplicationError(_("Choose a player."), field=field)
    entry = (RosterEntry.objects.filter(season=season_team.season_id, player=player)
             .select_related("season_team__team").first())
    if entry is None:
        raise ApplicationError(_("%(name)s is not on the roster of %(team)s.")
                               % {"name": player.display_name, "team": season_team.team.name},
                               field=field)
    if entry.season_team_id != season_team.pk:
        raise ApplicationError(_("%(name)s plays for %(team)s this season.")
                               % {"name": player.display_name,
                                  "team": entry.season_team.team.name}, field=field)
    return entry


@transaction.atomic
def availability_set(*, actor: Actor | None = None, link: CaptainLink | None = None,
                     season_team: SeasonTeam, player: Player, round_number: int,
                     available: bool) -> None:
    """Mark a rostered player available or not for a round (captain or league manager)."""
    _writer(actor, link, season_team)
    round_number = whole(round_number, field="round_number", low=1, high=MAX_ROUNDS)
    if not isinstance(available, bool):
        raise ApplicationError(_("Say yes or no."), field="available")
    if season_team.season.status == SeasonStatus.FINISHED:
        raise ApplicationError(_("The season is finished."), field="season")
    _roster_entry(season_team, player, field="player")
    Availability.objects.update_or_create(
        season_team=season_team, player=player, round_number=round_number,
        defaults={"available": available})


@transaction.atomic
def reserve_add(*, actor: Actor | None = None, link: CaptainLink | None = None,
                season_team: SeasonTeam, player: Player) -> RosterEntry:
    """Bring a reserve onto a team's roster during the season (captain or manager)."""
    user, name = _writer(actor, link, season_team)
    season = season_team.season
    if season.status == SeasonStatus.FINISHED:
        raise ApplicationError(_("The season is finished."), field="season")
    SeasonTeam.objects.select_for_update().get(pk=season_team.pk)
    if not isinstance(player, Player) or player.pk is None:
        raise ApplicationError(_("Choose a player."), field="player")
    if link is not None and player.club_id != season_team.team.club_id:
        raise ApplicationError(_("A captain brings in players of %(club)s only; ask the "
                                 "league's organizers for others.")
                               % {"club": season_team.team.club.name}, field="player")
    check_roster_players(user, season_team, [player], field="player")
    if season_team.roster.filter(player=player).exists():
        raise ApplicationError(_("%(name)s is already on the roster.")
                               % {"name": player.display_name}, field="player")
    last = season_team.roster.aggregate(n=Max("order"))["n"] or 0
    if last >= MAX_ROSTER:
        raise ApplicationError(_("A roster has at most %(limit)d players.")
                               % {"limit": MAX_ROSTER}, field="player")
    try:
        with transaction.atomic():
            entry = RosterEntry.objects.create(season=season, season_team=season_team,
                                               player=player, order=last + 1, reserve=True)
    except IntegrityError:  # another team of the season took them at the same moment
        raise ApplicationError(_("%(name)s already plays for another team this season.")
                               % {"name": player.display_name}, field="player") from None
    record(season.league, EventKind.RESERVE_ADDED, actor=user, season=season, name=name,
           team=season_team.team.name, player=player.display_name)
    return entry


def _board_players(choice: Any, index: int) -> tuple[Player | None, Player | None]:
    if choice is None:
        return None, None
    if isinstance(choice, Player):
        return choice, None
    if isinstance(choice, (tuple, list)) and len(choice) == 2:
        first, partner = choice
        if isinstance(first, Player) and (partner is None or isinstance(partner, Player)):
            return first, partner
    raise ApplicationError(_("Board %(board)d: choose a player or leave it empty.")
                           % {"board": index}, field="boards")


def _check_order(league: League, entries: list[tuple[int, Player, RosterEntry]]) -> None:
    """Refuse a lineup breaking the league's order rule, naming both players."""
    if league.lineup_rule == LineupRule.FIXED:
        for (_b1, upper, high), (_b2, lower, low) in zip(entries, entries[1:], strict=False):
            if high.order > low.order:
                raise ApplicationError(
                    _("%(upper)s may not sit above %(lower)s: the fixed order puts "
                      "%(lower)s (no. %(low)d on the roster) before %(upper)s (no. %(high)d).")
                    % {"upper": upper.display_name, "lower": lower.display_name,
                       "low": low.order, "high": high.order}, field="boards")
        return
    ratings = entry_ratings(league.host_id, league.game, [p.pk for _b, p, _e in entries])
    for i, (_b1, upper, _e1) in enumerate(entries):
        for _b2, lower, _e2 in entries[i + 1:]:
            above, below = ratings.get(upper.pk, 0), ratings.get(lower.pk, 0)
            if below - above > league.rating_tolerance:
                raise ApplicationError(
                    _("%(upper)s (%(above)d) may not sit above %(lower)s (%(below)d): rated "
                      "higher by more than %(tolerance)d.")
                    % {"upper": upper.display_name, "lower": lower.display_name,
                       "above": above, "below": below, "tolerance": league.rating_tolerance},
                    field="boards")


@transaction.atomic
def lineup_submit(*, actor: Actor | None = None, link: CaptainLink | None = None,
                  match: TeamMatch, team: SeasonTeam, boards: Sequence[BoardChoice],
                  now: datetime.datetime | None = None) -> Lineup:
    """Submit (or replace) ``team``'s lineup for ``match``, boards in board order.

    Refused with the reason after the deadline (a league manager's is accepted, marked
    late and logged), when it breaks the league's order rule, names a player not on the
    roster, marked unavailable, of another team or twice, or once the boards are paired.
    The second lineup in pairs the boards (:func:`match_boards_pair`).
    """
    user, name = _writer(actor, link, team)
    match = _match_locked(match)
    season = match.division.season
    league = season.league
    ensure_running(season, _("Lineups are submitted"))
    if team.pk not in (match.home_id, match.away_id) or match.away_id is None:
        raise ApplicationError(_("%(team)s does not play this match.")
                               % {"team": team.team.name}, field="team")
    if match.forfeit:
        raise ApplicationError(_("This match was forfeited."), field="match")
    if match.boards.exists():
        raise ApplicationError(_("The boards of this match are paired: the lineup cannot "
                                 "change any more."), field="match")
    now = now or timezone.now()
    late = match.lineup_deadline is not None and now > match.lineup_deadline
    if late and (link is not None or not can_manage_league(actor, league)):
        raise ApplicationError(
            _("The lineup deadline passed (%(deadline)s): ask the league's organizers to "
              "accept a late lineup.")
            % {"deadline": timezone.localtime(match.lineup_deadline).strftime("%Y-%m-%d %H:%M")},
            field="boards")
    choices = list(boards) if isinstance(boards, (list, tuple)) else None
    if choices is None or len(choices) > league.boards or len(choices) > MAX_BOARDS:
        raise ApplicationError(_("A lineup has %(boards)d boards.") % {"boards": league.boards},
                               field="boards")
    choices += [None] * (league.boards - len(choices))
    seated: list[tuple[int, Player, Player | None]] = []
    for index, choice in enumerate(choices, start=1):
        player, partner = _board_players(choice, index)
        if partner is not None:
            raise ApplicationError(_("Board %(board)d: this league's boards are played by "
                                     "one player each.") % {"board": index}, field="boards")
        if player is not None:
            seated.append((index, player, partner))
    ids = [p.pk for _b, p, _q in seated]
    twice = next((p for _b, p, _q in seated if ids.count(p.pk) > 1), None)
    if twice is not None:
        raise ApplicationError(_("%(name)s is named twice.") % {"name": twice.display_name},
                               field="boards")
    entries = [(b, p, _roster_entry(team, p, field="boards")) for b, p, _q in seated]
    away = set(Availability.objects.filter(
        season_team=team, round_number=match.round_number, available=False,
        player_id__in=ids).values_list("player_id", flat=True))
    absent = next((p for _b, p, _e in entries if p.pk in away), None)
    if absent is not None:
        raise ApplicationError(_("%(name)s is marked unavailable for round %(round)d.")
                               % {"name": absent.display_name, "round": match.round_number},
                               field="boards")
    _check_order(league, entries)
    Lineup.objects.filter(match=match, team=team).delete()
    lineup = Lineup.objects.create(
        match=match, team=team, submitted_at=now, submitted_by=actor_user(user),
        submitted_by_name=name[:150], late=late,
        accepted_by=actor_user(user) if late else None)
    LineupBoard.objects.bulk_create(
        LineupBoard(lineup=lineup, board=index, player=player, partner=partner)
        for index, player, partner in seated)
    if late:
        record(league, EventKind.LATE_LINEUP_ACCEPTED, actor=user, season=season,
               round=match.round_number, home=match.home.team.name,
               away=match.away.team.name if match.away else "", team=team.team.name)
    match.version += 1
    match.save(update_fields=["version"])
    if match.lineups.count() == 2:
        _pair(user, match, now)
    return lineup


@transaction.atomic
def match_boards_pair(*, actor: Actor | None = None, match: TeamMatch) -> list[MatchBoard]:
    """Put the match's boards into the division's board tournament, from both lineups.

    Called when the second lineup arrives, or by a manager at the deadline: a missing lineup
    then is a whole-match forfeit by that team.
    """
    ensure_can_manage_league(actor, match.division.season.league)
    match = _match_locked(match)
    ensure_running(match.division.season, _("Boards are paired"))
    return _pair(actor, match, timezone.now())


def _pair(actor: Any, match: TeamMatch, now: datetime.datetime) -> list[MatchBoard]:
    season = match.division.season
    league = season.league
    if match.away_id is None or match.forfeit:
        raise ApplicationError(_("This match has no boards to pair."), field="match")
    if match.boards.exists():
        raise ApplicationError(_("The boards of this match are paired already."),
                               field="match")
    lineups = {lineup.team_id: lineup for lineup in match.lineups.all()}
    missing = [side for side, team in ((Side.HOME, match.home_id), (Side.AWAY, match.away_id))
               if team not in lineups]
    if missing:
        if match.lineup_deadline is None or now <= match.lineup_deadline:
            raise ApplicationError(_("A lineup is missing and its deadline has not passed."),
                                   field="match")
        _forfeit(actor, match, Side.BOTH if len(missing) == 2 else missing[0])
        return []
    home = {b.board: b.player for b in lineups[match.home_id].boards.select_related("player")}
    away = {b.board: b.player for b in lineups[match.away_id].boards.select_related("player")}
    tournament = match.division.tournament
    assert tournament is not None
    writer = floor_actor(actor, league)
    players = [p for p in [*home.values(), *away.values()] if p is not None]
    entrants = board_entrants_ensure(actor=writer, tournament=tournament, players=players)
    rows: list[MatchBoard] = []
    given: list[GivenBoard] = []
    for board in range(1, league.boards + 1):
        home_first = board % 2 == 1
        ours, theirs = home.get(board), away.get(board)
        if ours is None or theirs is None:
            empty = Side.BOTH if ours is None and theirs is None else \
                Side.HOME if ours is None else Side.AWAY
            rows.append(MatchBoard(match=match, board=board, home_moves_first=home_first,
                                   empty=empty))
            continue
        first, second = (ours, theirs) if home_first else (theirs, ours)
        given.append(GivenBoard(entrants[first.pk], entrants[second.pk]))
        rows.append(MatchBoard(match=match, board=board, home_moves_first=home_first))
    pairings = iter(round_boards_add(actor=writer, tournament=tournament,
                                     round_number=match.round_number, boards=given)
                    if given else [])
    for row in rows:
        if not row.empty:
            row.pairing = next(pairings)
            match.board_round_id = row.pairing.round_id
    created = MatchBoard.objects.bulk_create(rows)
    match.version += 1
    match.save(update_fields=["board_round", "version"])
    record(league, EventKind.BOARDS_PAIRED, actor=actor, season=season,
           round=match.round_number, home=match.home.team.name,
           away=match.away.team.name if match.away else "", boards=len(given))
    return created


def _forfeit(actor: Any, match: TeamMatch, side: str) -> None:
    match.forfeit = side
    match.version += 1
    match.save(update_fields=["forfeit", "version"])
    season = match.division.season
    record(season.league, EventKind.MATCH_FORFEITED, actor=actor, season=season,
           round=match.round_number, home=match.home.team.name,
           away=match.away.team.name if match.away else "", side=side)


@transaction.atomic
def match_forfeit(*, actor: Actor, match: TeamMatch, side: str) -> TeamMatch:
    """A whole-match forfeit by ``side`` ("home", "away" or "both")."""
    ensure_can_manage_league(actor, match.division.season.league)
    match = _match_locked(match)
    ensure_running(match.division.season, _("Matches are forfeited"))
    if side not in (Side.HOME, Side.AWAY, Side.BOTH):
        raise ApplicationError(_("Choose home, away or both."), field="side")
    if match.away_id is None:
        raise ApplicationError(_("A bye cannot be forfeited."), field="side")
    if match.forfeit:
        raise ApplicationError(_("This match was forfeited already."), field="side")
    if match.boards.exists():
        raise ApplicationError(_("The boards of this match are paired: record forfeits on "
                                 "its boards instead."), field="side")
    _forfeit(actor, match, side)
    return match


@transaction.atomic
def match_winner_set(*, actor: Actor, match: TeamMatch, winner: SeasonTeam) -> TeamMatch:
    """Record the winner drawn by lot of a knockout match level on match points, board
    count and the bottom board."""
    from leagues.scoring import division_results, match_winner

    ensure_can_manage_league(actor, match.division.season.league)
    match = _match_locked(match)
    ensure_running(match.division.season, _("Winners are recorded"))
    if not match.bracket_match or winner.pk not in (match.home_id, match.away_id):
        raise ApplicationError(_("Choose one of the match's two teams of a knockout."),
                               field="winner")
    result = division_results([match])[0]
    if not result.complete:
        raise ApplicationError(_("The match is not finished."), field="winner")
    match.winner_id = None
    if match_winner(match, result, match.division.season.league) is not None:
        raise ApplicationError(_("The match has a winner on the boards."), field="winner")
    match.winner = winner
    match.version += 1
    match.save(update_fields=["winner", "version"])
    return match
