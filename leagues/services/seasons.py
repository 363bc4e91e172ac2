"""Seasons: start (board tournaments, first rounds), rounds, finish, the next season."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from leagues.history import EventKind, record
from leagues.models import (
    Division,
    League,
    Movement,
    RosterEntry,
    Season,
    SeasonStatus,
    SeasonTeam,
    TeamMatch,
)
from leagues.scoring import division_results, match_winner, scoring_of
from leagues.services.common import (
    ensure_planning,
    ensure_running,
    lock_league,
    lock_season,
)
from leagues.services.leagues import season_row_create
from leagues.tiebreaks import division_tiebreaks
from players.permissions import SYSTEM, Actor, can_manage_club
from tournaments.models import Tournament
from tournaments.pairing.swiss import PairingError
from tournaments.services.entrants import board_entrants_ensure
from tournaments.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_start,
)
from tournaments.standings.team_matches import (
    TeamMatchError,
    TeamMatchResult,
    TeamRow,
    match_points,
    team_table,
)
from tournaments.systems import Entry, PastPairing, PlanError, Planned, Settings, State, system_of
from tournaments.systems.teams import (
    TeamHistory,
    TeamRound,
    TeamSwissScoring,
    team_swiss_input,
)
from tournaments.texts import core_error_message
from tournaments.trf import TrfError


def floor_actor(actor: Any, league: League) -> Any:
    """Who writes the board tournament: the actor when they organize the host club, else
    the service itself (a managing club's organizer manages the league, not the host's
    tournaments)."""
    return actor if can_manage_club(actor, league.host) else SYSTEM


def _board_tournament(actor: Any, league: League, season: Season, division: Division,
                      teams: Sequence[SeasonTeam]) -> Tournament:
    name = f"{league.name} · {season.name} · {division.name}"[:160]
    writer = floor_actor(actor, league)
    tournament = tournament_create(
        actor=writer, club=league.host, name=name, game=league.game, format=division.system,
        for_league=True, game_options=league.game_options, match_format=league.match_format,
        rated=league.rated, clock=league.clock[:40], tiebreaks=[],
        rounds_planned=division.rounds_planned, starts_on=season.starts_on,
        ends_on=season.ends_on, release_pairings_at_once=True)
    players = [entry.player for entry in RosterEntry.objects.filter(
        season_team__in=teams).select_related("player").order_by("season_team", "order")]
    board_entrants_ensure(actor=writer, tournament=tournament, players=players)
    return tournament_start(actor=writer, tournament=tournament)


def _seeded(division: Division) -> list[SeasonTeam]:
    """The division's teams numbered 1..n: given seeds first, then by name."""
    teams = sorted(division.teams.select_related("team"),
                   key=lambda t: (t.seed is None, t.seed or 0, t.team.name.lower(), t.pk))
    SeasonTeam.objects.filter(pk__in=[t.pk for t in teams]).update(seed=None)
    for seed, team in enumerate(teams, start=1):
        team.seed = seed
    SeasonTeam.objects.bulk_update(teams, ["seed"])
    return teams


def _plan_error(number: int, error: Exception) -> ApplicationError:
    reason: Any = error
    if isinstance(error, TrfError):
        problem = error.params.get("problem")
        reason = problem if isinstance(problem, BaseException) else error
    return ApplicationError(_("Round %(round)d cannot be paired: %(problem)s") % {
        "round": number, "problem": core_error_message(reason)}, field="round")


def _save_matches(division: Division, number: int, planned: Sequence[Planned],
                  legs: int = 1, rounds: int = 0) -> list[TeamMatch]:
    leg = 2 if legs == 2 and number > rounds // 2 else 1
    matches = [TeamMatch(division=division, round_number=number, leg=leg, home_id=p.first,
                         away_id=p.second, bracket_match=p.bracket_match)
               for p in planned]
    return TeamMatch.objects.bulk_create(matches)


def _entries(teams: Sequence[SeasonTeam]) -> tuple[Entry, ...]:
    return tuple(Entry(t.pk, t.seed) for t in teams)


def _schedule_round_robin(division: Division, teams: Sequence[SeasonTeam]) -> int:
    system = system_of(division.system)
    state = State(Settings(), _entries(teams))
    rounds = system.rounds_remaining(state)
    double = 2 if getattr(system, "double", False) else 1
    for number in range(1, rounds + 1):
        _save_matches(division, number, system.plan_round(state, number), double, rounds)
    return rounds


def _histories(division: Division, teams: Sequence[SeasonTeam],
               matches: Sequence[TeamMatch], results: Sequence[TeamMatchResult],
               ratings: dict[int, int | None]) -> list[TeamHistory]:
    league = division.season.league
    scoring = scoring_of(league, division.system)
    rounds = max((m.round_number for m in matches), default=0)
    by_team: dict[int, dict[int, TeamRound]] = {t.pk: {} for t in teams}
    for match, result in zip(matches, results, strict=True):
        if result.away is None:
            by_team[result.home][match.round_number] = TeamRound(None, False, "bye")
            continue
        if result.forfeit:
            home_out = "forfeit_loss" if result.forfeit in ("home", "both") else "forfeit_win"
            away_out = "forfeit_loss" if result.forfeit in ("away", "both") else "forfeit_win"
        else:
            home, away = match_points(result, scoring, league.boards)
            home_out = "W" if home > away else "L" if home < away else "D"
            away_out = {"W": "L", "L": "W", "D": "D"}[home_out]
        by_team[result.home][match.round_number] = TeamRound(result.away, True, home_out)  # type: ignore[arg-type]
        by_team[result.away][match.round_number] = TeamRound(result.home, False, away_out)  # type: ignore[arg-type]
    return [TeamHistory(team.pk, ratings.get(team.pk),
                        tuple(by_team[team.pk].get(n, TeamRound(None, False, "absent"))
                              for n in range(1, rounds + 1)),
                        absent=team.withdrawn_from_round is not None
                        and team.withdrawn_from_round <= rounds + 1)
            for team in teams]


def _team_ratings(division: Division, teams: Sequence[SeasonTeam]) -> dict[int, int | None]:
    """Each team's rating: the average entry rating of its first boards' regulars."""
    boards = division.season.league.boards
    assert division.tournament is not None
    rating_of = dict(division.tournament.entrants.values_list("player_id", "rating"))
    found: dict[int, int | None] = {}
    for team in teams:
        regulars = [rating_of.get(e.player_id) for e in team.roster.all() if not e.reserve]
        rated = [r for r in regulars[:boards] if r]
        found[team.pk] = round(sum(rated) / len(rated)) if rated else None
    return found


def _plan_next(division: Division, teams: Sequence[SeasonTeam], number: int) -> list[Planned]:
    system = system_of(division.system)
    league = division.season.league
    matches = list(division.matches.order_by("round_number", "pk"))
    results = division_results(matches)
    pairings = tuple(
        PastPairing(m.home_id, m.away_id, m.bracket_match,
                    match_winner(m, r, league) if m.bracket_match else None)
        for m, r in zip(matches, results, strict=True))
    scoring = scoring_of(league, division.system)

    def swiss_input(_number: int) -> Any:
        histories = _histories(division, teams, matches, results,
                               _team_ratings(division, teams))
        return team_swiss_input(histories, division.rounds_planned or number, TeamSwissScoring(
            win=scoring.match_win, draw=scoring.match_draw, loss=scoring.match_loss,
            bye=scoring.bye_match_points, forfeit_loss=scoring.match_loss))

    state = State(Settings(rounds_planned=division.rounds_planned), _entries(teams), pairings,
                  number - 1, pairing_input=swiss_input)
    if system.rounds_remaining(state) < 1:
        raise ApplicationError(_("Every round of the division is paired: finish the season."),
                               field="round")
    try:
        return system.plan_round(state, number)
    except (PlanError, PairingError, TrfError, TeamMatchError) as error:
        raise _plan_error(number, error) from None


@transaction.atomic
def season_start(*, actor: Actor, season: Season) -> Season:
    """Start a season: each division's board tournament is made and started; round robins
    schedule every team match at once, Swiss and knockout divisions their round 1."""
    league = lock_league(actor, season.league)
    season = lock_season(season)
    ensure_planning(season, _("A season starts"))
    divisions = list(season.divisions.order_by("level", "name"))
    if not divisions:
        raise ApplicationError(_("Add a division first."), field="divisions")
    for division in divisions:
        teams = list(division.teams.select_related("team"))
        if len(teams) < 2:
            raise ApplicationError(_("%(division)s needs at least two teams.")
                                   % {"division": division.name}, field="teams")
        empty = next((t for t in teams if not t.roster.exists()), None)
        if empty is not None:
            raise ApplicationError(_("%(team)s has no roster yet.") % {"team": empty.team.name},
                                   field="roster")
        if system_of(division.system).needs_rounds_planned and not division.rounds_planned:
            raise ApplicationError(_("%(division)s (a Swiss) needs its number of rounds.")
                                   % {"division": division.name}, field="rounds_planned")
    for division in divisions:
        teams = _seeded(division)
        division.tournament = _board_tournament(actor, league, season, division, teams)
        division.save(update_fields=["tournament"])
        if system_of(division.system).rounds_grow_with_entrants:
            _schedule_round_robin(division, teams)
        else:
            _save_matches(division, 1, _plan_next(division, teams, 1))
    season.status = SeasonStatus.RUNNING
    season.save(update_fields=["status"])
    record(league, EventKind.SEASON_STARTED, actor=actor, season=season, name=season.name)
    return season


@transaction.atomic
def division_pair_next(*, actor: Actor, division: Division) -> list[TeamMatch]:
    """Pair a Swiss or knockout division's next round (refused while a match is open)."""
    league = lock_league(actor, division.season.league)
    season = lock_season(division.season)
    ensure_running(season, _("Rounds are paired"))
    division = Division.objects.select_for_update().get(pk=division.pk)
    if system_of(division.system).rounds_grow_with_entrants:
        raise ApplicationError(_("A round robin's matches are all scheduled when the season "
                                 "starts."), field="system")
    matches = list(division.matches.order_by("round_number", "pk"))
    last = max((m.round_number for m in matches), default=0)
    current = [m for m in matches if m.round_number == last]
    open_ = [m for m, r in zip(current, division_results(current), strict=True)
             if not r.complete]
    if open_:
        raise ApplicationError(
            _("Round %(round)d still has %(count)d unfinished matches (first: %(match)s).")
            % {"round": last, "count": len(open_), "match": str(open_[0])}, field="round")
    if division.system == "team_knockout":
        level = [m for m, r in zip(current, division_results(current), strict=True)
                 if m.bracket_match and match_winner(m, r, league) is None]
        if level:
            raise ApplicationError(
                _("%(match)s is level on board count: record the winner drawn by lot.")
                % {"match": str(level[0])}, field="winner")
    teams = list(division.teams.select_related("team").order_by("seed"))
    created = _save_matches(division, last + 1, _plan_next(division, teams, last + 1))
    record(league, EventKind.ROUND_PAIRED, actor=actor, season=season, division=division.name,
           round=last + 1)
    return created


def division_table(division: Division) -> list[TeamRow]:
    """The team core's table of the division (complete matches only)."""
    league = division.season.league
    teams = [t.pk for t in division.teams.order_by("seed", "pk")]
    matches = list(division.matches.order_by("round_number", "pk"))
    results = [r for r in division_results(matches) if r.complete]
    return team_table(teams, results, scoring_of(league, division.system), league.boards,
                      division_tiebreaks(division))


@transaction.atomic
def season_finish(*, actor: Actor, season: Season) -> Season:
    """Finish a season: final ranks from the season tables, promotion and relegation."""
    league = lock_league(actor, season.league)
    season = lock_season(season)
    ensure_running(season, _("A season finishes"))
    divisions = list(season.divisions.order_by("level", "name"))
    levels = {d.level for d in divisions}
    for division in divisions:
        matches = list(division.matches.order_by("round_number", "pk"))
        open_ = [m for m, r in zip(matches, division_results(matches), strict=True)
                 if not r.complete]
        if open_:
            raise ApplicationError(
                _("%(division)s still has %(count)d unfinished matches (first: %(match)s).")
                % {"division": division.name, "count": len(open_), "match": str(open_[0])},
                field="matches")
    for division in divisions:
        rows = division_table(division)
        teams = {t.pk: t for t in division.teams.select_related("team")}
        count = len(rows)
        for index, row in enumerate(rows):
            team = teams[row.team]
            team.final_rank = row.rank
            team.movement = Movement.STAYS
            if index < division.promote and division.level - 1 in levels:
                team.movement = Movement.PROMOTED
            elif index >= count - division.relegate and division.level + 1 in levels:
                team.movement = Movement.RELEGATED
            if team.movement:
                record(league, EventKind.TEAM_MOVED, actor=actor, season=season,
                       team=team.team.name, movement=team.movement)
        SeasonTeam.objects.bulk_update(teams.values(), ["final_rank", "movement"])
        if division.tournament is not None:
            tournament_finish(actor=floor_actor(actor, league), tournament=division.tournament)
    season.status = SeasonStatus.FINISHED
    season.save(update_fields=["status"])
    record(league, EventKind.SEASON_FINISHED, actor=actor, season=season, name=season.name)
    return season


@transaction.atomic
def season_next(*, actor: Actor, season: Season, name: str,
                starts_on: datetime.date | None = None,
                ends_on: datetime.date | None = None) -> Season:
    """The next season of a finished one: divisions copied, teams moved up and down by
    their movement; rosters are not copied."""
    league = lock_league(actor, season.league)
    season = lock_season(season)
    if season.status != SeasonStatus.FINISHED:
        raise ApplicationError(_("The next season follows a finished one."), field="season")
    new = season_row_create(actor, league, name, starts_on, ends_on)
    copies: dict[int, Division] = {}
    by_level: dict[int, Division] = {}
    for division in season.divisions.order_by("level", "name"):
        copy = Division.objects.create(
            season=new, name=division.name, level=division.level, system=division.system,
            rounds_planned=division.rounds_planned, promote=division.promote,
            relegate=division.relegate)
        copies[division.pk] = copy
        by_level.setdefault(copy.level, copy)
    shift = {Movement.PROMOTED: -1, Movement.RELEGATED: 1}
    moved = []
    for team in season.teams.select_related("division"):
        if team.withdrawn_from_round is not None:
            continue
        level = team.division.level + shift.get(Movement(team.movement), 0)
        target = by_level.get(level) if level != team.division.level else None
        moved.append(SeasonTeam(season=new, division=target or copies[team.division_id],
                                team_id=team.team_id, captain_id=team.captain_id))
    SeasonTeam.objects.bulk_create(moved)
    return new


