"""Reads for leagues: season tables, team matches board by board, teams' seasons, the
season's rating list, the leagues a manager sees. Pages and admin read only these."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from leagues.models import (
    Division,
    League,
    MatchBoard,
    RosterEntry,
    Season,
    SeasonTeam,
    TeamMatch,
)
from leagues.permissions import managed_leagues
from players.models import Player
from tournaments.models import Pairing


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
    """The division's table from its team matches' board results, ranked by match points
    and the league's tie-breaks."""
    raise NotImplementedError


def match_result(match: TeamMatch) -> MatchView:
    """A team match board by board: players, pairing outcome, board points and totals."""
    raise NotImplementedError


def team_season(season_team: SeasonTeam) -> TeamSeasonView:
    """A team's roster with each player's results by board, and its matches."""
    raise NotImplementedError


def season_rating_list(season: Season) -> list[RatingRow]:
    """The season's players with their rating before and after per game."""
    raise NotImplementedError


def league_for_manager(user: Any) -> QuerySet[League]:
    """The leagues ``user`` manages (host or managing club organizer)."""
    return managed_leagues(user)


def division_matches(division: Division) -> QuerySet[TeamMatch]:
    """The division's team matches by round, with their teams."""
    return (division.matches.select_related("home__team", "away__team", "board_round")
            .order_by("round_number", "pk"))


def match_boards(match: TeamMatch) -> QuerySet[MatchBoard]:
    return match.boards.select_related("pairing").order_by("board")
