"""Reads shaped for the public league pages (``leagues.views``): the list of leagues, a
league's seasons and history, a season's state for caching, the schedule and the games of
the boards. The season tables, team matches, teams' seasons and rating lists are
``leagues.selectors``'; this module arranges them for the templates.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from games.engines import ENGINE_NAMES, game_facts
from leagues import selectors
from leagues.models import Division, League, Movement, Season, SeasonStatus, SeasonTeam, TeamMatch
from leagues.scoring import division_results, scoring_of
from matches.models import Game
from tournaments.etags import TournamentState
from tournaments.standings.team_matches import (
    TEAM_TIEBREAKS,
    TeamMatchResult,
    TeamScoring,
    board_points,
)


def game_label(game: str) -> str:
    return gettext(game_facts(game).label) if game in ENGINE_NAMES else game


def leagues_listed() -> QuerySet[League]:
    """Every league with its host club, its number of seasons and its seasons (newest
    first): three queries."""
    return (League.objects.select_related("host").annotate(season_count=Count("seasons"))
            .prefetch_related(Prefetch("seasons", Season.objects.order_by("-number")))
            .order_by("name"))


@dataclass
class DivisionHistory:
    division: Division
    champions: list[SeasonTeam] = field(default_factory=list)  # more than one: shared
    promoted: list[SeasonTeam] = field(default_factory=list)
    relegated: list[SeasonTeam] = field(default_factory=list)


@dataclass
class SeasonHistory:
    season: Season
    divisions: list[DivisionHistory]


def league_history(league: League) -> list[SeasonHistory]:
    """The league's seasons, newest first, each division with its champions, the teams
    promoted and the teams relegated (known once the season is finished): three queries."""
    seasons = list(league.seasons.order_by("-number").prefetch_related(
        Prefetch("divisions", Division.objects.order_by("level", "name")),
        Prefetch("teams", SeasonTeam.objects.select_related("team__club").order_by(
            "final_rank", "team__name"))))
    history = []
    for season in seasons:
        views = {division.pk: DivisionHistory(division) for division in season.divisions.all()}
        for team in season.teams.all():
            view = views.get(team.division_id)
            if view is None:
                continue
            if team.final_rank == 1 and season.status == SeasonStatus.FINISHED:
                view.champions.append(team)
            if team.movement == Movement.PROMOTED:
                view.promoted.append(team)
            elif team.movement == Movement.RELEGATED:
                view.relegated.append(team)
        history.append(SeasonHistory(season, list(views.values())))
    return history


@dataclass(frozen=True)
class SeasonState:
    """What a season's cached pages depend on: the states of its divisions' board
    tournaments, which every league row written moves on (``leagues.freshness``); None
    while a division has none (a season in planning: its pages are not cached)."""

    season_id: int
    status: str
    state: TournamentState | None

    @property
    def live(self) -> bool:
        return self.status == SeasonStatus.RUNNING


def _aware(value: Any) -> dt.datetime:
    if isinstance(value, str):  # SQLite
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, dt.UTC)
    return value  # type: ignore[no-any-return]


def season_state(league_slug: str, number: int) -> SeasonState | None:
    """The season's state (one light query on every request, as the tournament pages'),
    or None when there is no such season."""
    rows = list(Season.objects.filter(league__slug=league_slug, number=number).values_list(
        "pk", "status", "divisions__tournament_id", "divisions__tournament__version",
        "divisions__tournament__updated_at").order_by("divisions__tournament_id"))
    if not rows:
        return None
    season_id, status = rows[0][0], rows[0][1]
    if any(row[2] is None for row in rows):
        return SeasonState(season_id, status, None)
    parts = [f"{pk}:{version}:{_aware(saved).isoformat()}" for _s, _st, pk, version, saved in rows]
    state = TournamentState(rows[0][2], sum(row[3] for row in rows), "|".join(parts),
                            host=f"league-season-{season_id}")
    return SeasonState(season_id, status, state)


def season_for_page(league_slug: str, number: int) -> Season | None:
    return (Season.objects.select_related("league__host")
            .filter(league__slug=league_slug, number=number).first())


def divisions_of(season: Season) -> list[Division]:
    return list(season.divisions.select_related("tournament__club", "season__league")
                .order_by("level", "name"))


@dataclass(frozen=True)
class TieBreakColumn:
    key: str
    abbreviation: str
    label: str


def tiebreak_columns(keys: Iterable[str]) -> list[TieBreakColumn]:
    """The season table's tie-break columns, named in the reader's language (match and
    board points have their own columns)."""
    columns = []
    for key in keys:
        if key in ("match_points", "board_points"):
            continue
        known = TEAM_TIEBREAKS.get(key)
        columns.append(TieBreakColumn(key, known.abbreviation if known else key,
                                      gettext(known.label) if known else key))
    return columns


@dataclass
class TableLine:
    row: selectors.TableRow
    zone: str  # "promotion", "relegation" or ""
    tiebreaks: list[Decimal]


@dataclass
class ScheduleRound:
    number: int
    matches: list[dict[str, Any]]


@dataclass
class DivisionView:
    division: Division
    lines: list[TableLine]
    columns: list[TieBreakColumn]
    rounds: list[ScheduleRound]


def _score(result: TeamMatchResult, boards: int, scoring: TeamScoring) -> tuple[str, str]:
    """A match's board-points score and its state, for the schedule ("" before any board
    has a result)."""
    if result.is_bye:
        return "", ""
    if not result.forfeit and not result.boards:
        return "", ""
    home, away = board_points(result, boards, scoring)
    state = "forfeit" if result.forfeit else ("complete" if result.complete else "playing")
    return f"{_points(home)}–{_points(away)}", state


def _points(value: Decimal) -> str:
    whole = int(value)
    half = value - whole
    if half == 0:
        return str(whole)
    return f"{whole}½" if whole else "½"


def division_view(division: Division, tiebreak_keys: list[str]) -> DivisionView:
    """A division's season table (zones marked) and its schedule by round, each match with
    its date, venue and score."""
    table = selectors.season_table(division) if division.tournament_id else []
    columns = tiebreak_columns(tiebreak_keys or _keys_of(table))
    size = len(table)
    lines = []
    for row in table:
        zone = ""
        if division.promote and row.rank <= division.promote:
            zone = "promotion"
        elif division.relegate and row.rank > size - division.relegate:
            zone = "relegation"
        lines.append(TableLine(row, zone, [row.tiebreaks.get(c.key, Decimal(0))
                                           for c in columns]))
    if not table:
        lines = [TableLine(_empty_row(team), "", [])
                 for team in division.teams.select_related("team__club").order_by(
                     "seed", "team__name")]
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    league = division.season.league
    scoring = scoring_of(league, division.system)
    matches = list(selectors.division_matches(division))
    for match, result in zip(matches, division_results(matches), strict=True):
        score, state = _score(result, league.boards, scoring)
        by_round[match.round_number].append({"match": match, "score": score, "state": state})
    rounds = [ScheduleRound(number, by_round[number]) for number in sorted(by_round)]
    return DivisionView(division, lines, columns, rounds)


def _keys_of(table: list[selectors.TableRow]) -> list[str]:
    return list(table[0].tiebreaks) if table else []


def _empty_row(team: SeasonTeam) -> selectors.TableRow:
    zero = Decimal(0)
    return selectors.TableRow(team=team, rank=0, played=0, won=0, drawn=0, lost=0,
                              match_points=zero, board_points=zero)


def season_match(season: Season, match_id: int) -> TeamMatch | None:
    return (TeamMatch.objects.select_related("division__tournament", "division__season__league",
                                             "home__team__club", "away__team__club",
                                             "board_round")
            .filter(division__season=season, pk=match_id).first())


def season_team(season: Season, team_id: int) -> SeasonTeam | None:
    return (SeasonTeam.objects.select_related("team__club", "division", "captain")
            .filter(season=season, pk=team_id).first())


def games_by_pairing(pairing_ids: Iterable[int]) -> dict[int, list[Game]]:
    """The recorded games of these board pairings, in order (one query)."""
    games: dict[int, list[Game]] = defaultdict(list)
    ids = [pk for pk in pairing_ids if pk]
    if ids:
        for game in Game.objects.filter(pairing_id__in=ids).order_by("pairing_id", "number"):
            games[game.pairing_id].append(game)
    return games


@dataclass
class BoardSide:
    player: Any
    partner: Any
    rating: int | None
    first: bool
    wins: int | None
    points: Decimal | None
    forfeited: bool


@dataclass
class BoardLine:
    board: int
    home: BoardSide
    away: BoardSide
    draws: int
    state: str  # "empty", "pending", "playing", "played", "forfeit"
    games: list[Game]
    outcome_label: str


def _pairing_rows(pairing_ids: list[int]) -> dict[int, Any]:
    from tournaments.models import Pairing

    return {pairing.pk: pairing for pairing in Pairing.objects.select_related(
        "entrant_a", "entrant_b").filter(pk__in=pairing_ids)}


def match_page(match: TeamMatch) -> dict[str, Any]:
    """A team match board by board: both sides' players with their ratings at entry, who
    moves first, the board's series score and board points, its games; the totals."""
    from tournaments.models import FORFEIT_OUTCOMES, Outcome

    view = selectors.match_result(match)
    if not any(board.pairing is not None or board.empty for board in view.boards):
        return {"view": view, "boards": []}  # a lineup is private until both are in
    ids = [board.pairing.pk for board in view.boards if board.pairing is not None]
    pairings = _pairing_rows(ids)
    games = games_by_pairing(ids)
    lines = []
    for board in view.boards:
        pairing = pairings.get(board.pairing.pk) if board.pairing is not None else None
        home_first = board.home_moves_first
        ratings: tuple[int | None, int | None] = (None, None)
        wins: tuple[int | None, int | None] = (None, None)
        state, outcome_label, draws = "pending", "", 0
        if board.empty:
            state = "empty"
        elif pairing is not None:
            first, second = pairing.entrant_a, pairing.entrant_b
            ratings = ((first.rating, second.rating if second else None) if home_first
                       else (second.rating if second else None, first.rating))
            wins = ((pairing.wins_a, pairing.wins_b) if home_first
                    else (pairing.wins_b, pairing.wins_a))
            draws = pairing.draws
            if pairing.outcome in FORFEIT_OUTCOMES:
                state = "forfeit"
            elif pairing.outcome != Outcome.PENDING:
                state = "played"
            elif games.get(pairing.pk):
                state = "playing"
            outcome_label = pairing.get_outcome_display()
        home_forfeit = board.empty in ("home", "both") or (
            pairing is not None and pairing.outcome in FORFEIT_OUTCOMES
            and (board.home_points or 0) == 0)
        away_forfeit = board.empty in ("away", "both") or (
            pairing is not None and pairing.outcome in FORFEIT_OUTCOMES
            and (board.away_points or 0) == 0)
        lines.append(BoardLine(
            board=board.board,
            home=BoardSide(board.home_player, board.home_partner, ratings[0],
                           home_first and state != "empty", wins[0], board.home_points,
                           home_forfeit),
            away=BoardSide(board.away_player, board.away_partner, ratings[1],
                           not home_first and state != "empty", wins[1], board.away_points,
                           away_forfeit),
            draws=draws, state=state,
            games=games.get(pairing.pk, []) if pairing is not None else [],
            outcome_label=outcome_label))
    return {"view": view, "boards": lines}


def team_page(season_team: SeasonTeam) -> dict[str, Any]:
    """A team's season: its roster with each player's results by board, its matches."""
    view = selectors.team_season(season_team)
    return {"view": view, "players": view.players, "matches": view.matches}


def rating_lists(season: Season) -> list[dict[str, Any]]:
    """The season's rating list, one per game (rows as ``leagues.selectors`` ranks them)."""
    by_game: dict[str, list[selectors.RatingRow]] = defaultdict(list)
    for row in selectors.season_rating_list(season):
        by_game[row.game].append(row)
    return [{"game": game, "label": game_label(game),
             "rows": [{"row": row, "change": _change(row)} for row in rows]}
            for game, rows in sorted(by_game.items())]


def _change(row: selectors.RatingRow) -> str:
    if row.before is None or row.after is None:
        return "–"
    change = round(row.after - row.before)
    return f"+{change}" if change > 0 else ("±0" if change == 0 else f"−{-change}")
