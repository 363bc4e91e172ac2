"""Reads for leagues: season tables, team matches board by board, teams' seasons, the
season's rating list, the leagues a manager sees. Pages and admin read only these."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from leagues.models import (
    Division,
    League,
    LineupBoard,
    MatchBoard,
    RosterEntry,
    Season,
    SeasonTeam,
    TeamMatch,
)
from leagues.permissions import managed_leagues
from leagues.scoring import board_result, division_results, scoring_of, team_match_result
from leagues.tiebreaks import division_tiebreaks
from players.models import Player
from ratings.models import RatingChange
from tournaments.models import Pairing
from tournaments.standings.team_matches import board_points, match_points, team_table


@dataclass(frozen=True)
class TableRow:
    """One team's line of a season table."""

    team: SeasonTeam
    rank: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: Decimal
    board_points: Decimal
    #: Each tie-break's value, by tie-break name, in the league's order.
    tiebreaks: dict[str, Decimal] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardView:
    """One board of a team match as the pages show it."""

    board: int
    home_player: Player | None
    home_partner: Player | None
    away_player: Player | None
    away_partner: Player | None
    home_moves_first: bool
    #: The board tournament's pairing (None: the board was left empty or not paired yet).
    pairing: Pairing | None
    #: "" (played or to play), "home", "away" or "both": who left the board empty.
    empty: str
    #: Board points, None while the board has no result.
    home_points: Decimal | None
    away_points: Decimal | None


@dataclass(frozen=True)
class MatchView:
    """A team match board by board, with its totals."""

    match: TeamMatch
    boards: list[BoardView]
    home_points: Decimal
    away_points: Decimal
    #: Match points, None until every board has its result (or the match was forfeited).
    home_match_points: Decimal | None
    away_match_points: Decimal | None
    complete: bool
    #: "" or the side that forfeited the whole match ("home", "away", "both").
    forfeit: str


@dataclass(frozen=True)
class PlayerBoardResult:
    round_number: int
    match: TeamMatch
    board: int
    opponent: Player | None
    moved_first: bool
    pairing: Pairing | None
    #: Board points scored, None while pending.
    points: Decimal | None


@dataclass(frozen=True)
class PlayerSeason:
    entry: RosterEntry
    results: list[PlayerBoardResult]
    points: Decimal
    played: int


@dataclass(frozen=True)
class TeamSeasonView:
    season_team: SeasonTeam
    players: list[PlayerSeason]
    matches: list[TeamMatch]


@dataclass(frozen=True)
class RatingRow:
    player: Player
    game: str
    #: The rating before the season's first rated board game, and after its last.
    before: float | None
    after: float | None
    games: int


def season_table(division: Division) -> list[TableRow]:
    """The division's table from its team matches' board results (complete matches only),
    ranked by match points and the league's tie-breaks."""
    league = division.season.league
    teams = list(division.teams.select_related("team__club").order_by("seed", "pk"))
    matches = list(division.matches.order_by("round_number", "pk"))
    results = [r for r in division_results(matches) if r.complete]
    rows = team_table([t.pk for t in teams], results, scoring_of(league, division.system),
                      league.boards,
                      division_tiebreaks(division))
    by_id = {t.pk: t for t in teams}
    return [TableRow(by_id[row.team], row.rank, row.played, row.won, row.drawn, row.lost,
                     row.match_points, row.board_points, dict(row.tiebreaks))
            for row in rows]


def _lineup_players(match: TeamMatch) -> dict[tuple[int, int], tuple[Player | None,
                                                                   Player | None]]:
    """(team id, board) -> (player, partner) of the lineups submitted."""
    found: dict[tuple[int, int], tuple[Player | None, Player | None]] = {}
    for board in LineupBoard.objects.filter(lineup__match=match).select_related(
            "lineup", "player", "partner"):
        found[(board.lineup.team_id, board.board)] = (board.player, board.partner)
    return found


def match_result(match: TeamMatch) -> MatchView:
    """A team match board by board: players, pairing outcome, board points and totals.

    Boards not paired yet show the lineups submitted so far (the public sees the boards
    once both lineups are in: the pages decide what to show before that)."""
    league = match.division.season.league
    played = {b.board: b for b in match.boards.select_related(
        "pairing__entrant_a__player", "pairing__entrant_b__player")}
    lineups = _lineup_players(match)
    result = team_match_result(match, list(played.values()))
    views: list[BoardView] = []
    for number in range(1, league.boards + 1):
        board = played.get(number)
        home = lineups.get((match.home_id, number), (None, None))
        away = lineups.get((match.away_id or 0, number), (None, None))
        points = board_result(board) if board is not None else None
        home_points = away_points = None
        if points is not None:
            home_points, away_points = points.points()
        views.append(BoardView(
            number, home[0], home[1], away[0], away[1],
            board.home_moves_first if board is not None else number % 2 == 1,
            board.pairing if board is not None else None,
            board.empty if board is not None else "", home_points, away_points))
    scoring = scoring_of(league, match.division.system)
    home_total, away_total = board_points(result, league.boards, scoring)
    home_mp: Decimal | None = None
    away_mp: Decimal | None = None
    if result.complete:
        home_mp, away_mp = match_points(result, scoring, league.boards)
    return MatchView(match, views, home_total, away_total, home_mp, away_mp,
                     result.complete, match.forfeit)


def team_season(season_team: SeasonTeam) -> TeamSeasonView:
    """A team's roster with each player's results by board, and its matches."""
    entries = list(season_team.roster.select_related("player").order_by("order"))
    matches = list(TeamMatch.objects.filter(Q(home=season_team) | Q(away=season_team))
                   .select_related("home__team", "away__team").order_by("round_number", "pk"))
    boards = MatchBoard.objects.filter(match__in=[m.pk for m in matches],
                                       pairing__isnull=False).select_related(
        "pairing__entrant_a__player", "pairing__entrant_b__player")
    by_match = {m.pk: m for m in matches}
    results: dict[int, list[PlayerBoardResult]] = {e.player_id: [] for e in entries}
    for board in boards:
        pairing = board.pairing
        assert pairing is not None and pairing.entrant_b is not None
        match = by_match[board.match_id]
        home_side = match.home_id == season_team.pk
        ours_first = board.home_moves_first == home_side
        ours = pairing.entrant_a if ours_first else pairing.entrant_b
        theirs = pairing.entrant_b if ours_first else pairing.entrant_a
        scored = board_result(board)
        points = None
        if scored is not None:
            home_points, away_points = scored.points()
            points = home_points if home_side else away_points
        if ours.player_id in results:
            results[ours.player_id].append(PlayerBoardResult(
                match.round_number, match, board.board, theirs.player, ours_first, pairing,
                points))
    players = []
    for entry in entries:
        mine = sorted(results[entry.player_id], key=lambda r: r.round_number)
        players.append(PlayerSeason(entry, mine,
                                    sum((r.points for r in mine if r.points is not None),
                                        Decimal(0)),
                                    sum(1 for r in mine if r.points is not None)))
    return TeamSeasonView(season_team, players, matches)


def season_rating_list(season: Season) -> list[RatingRow]:
    """The season's players with their rating before their first rated board game and after
    their last, per game (rating family)."""
    changes = (RatingChange.objects
               .filter(game__pairing__round__tournament__league_division__season=season)
               .select_related("player").order_by("played_at", "game_id"))
    rows: dict[tuple[int, str], list[Any]] = {}
    for change in changes:
        key = (change.player_id, change.family)
        if key not in rows:
            rows[key] = [change.player, change.family, change.rating_before,
                         change.rating_after, 0]
        rows[key][3] = change.rating_after
        rows[key][4] += 1
    found = [RatingRow(*row) for row in rows.values()]
    return sorted(found, key=lambda r: (r.game, -(r.after or 0), r.player.display_name))


def league_for_manager(user: Any) -> QuerySet[League]:
    """The leagues ``user`` manages (host or managing club organizer)."""
    return managed_leagues(user)


def division_matches(division: Division) -> QuerySet[TeamMatch]:
    """The division's team matches by round, with their teams."""
    return (division.matches.select_related("home__team", "away__team", "board_round")
            .order_by("round_number", "pk"))


def match_boards(match: TeamMatch) -> QuerySet[MatchBoard]:
    return match.boards.select_related("pairing").order_by("board")
