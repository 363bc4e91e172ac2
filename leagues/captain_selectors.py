"""Reads for a captain's private pages (``/league/captain/<token>/``): the team's season,
its matches with their lineup state, the roster, the availability grid and the club's
players who may come in as reserves. Reads only: every write goes through the services.

The opponent's lineup is never read here before the boards are paired: a captain learns
only whether it is in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from games.engines import game_facts
from leagues.links import captain_link_token
from leagues.models import (
    Availability,
    CaptainLink,
    Division,
    League,
    Lineup,
    LineupRule,
    RosterEntry,
    Season,
    SeasonTeam,
    TeamMatch,
)
from players.models import Player
from tournaments.rating_source import entry_ratings

#: How many of the club's players the reserve form offers at most.
MAX_RESERVE_CHOICES = 400


@dataclass(frozen=True)
class RosterPlayer:
    player: Player
    order: int
    reserve: bool
    rating: int | None


@dataclass
class LineupBoardView:
    board: int
    player: Player | None
    partner: Player | None
    #: The player's and partner's ids chosen in the form (the submitted lineup, or the
    #: values just posted, or the default order).
    chosen: tuple[int | None, int | None]
    we_move_first: bool
    #: The reason a submission of this board was refused (shown next to it).
    error: str = ""


@dataclass
class CaptainMatch:
    match: TeamMatch
    home: bool
    opponent: SeasonTeam | None
    lineup: Lineup | None
    opponent_lineup_in: bool
    paired: bool
    #: Why the form is closed ("" while it is open).
    closed_reason: str
    deadline_passed: bool
    boards: list[LineupBoardView] = field(default_factory=list)
    #: The reason a submission was refused, when no single board is to blame.
    error: str = ""

    @property
    def is_open(self) -> bool:
        return not self.closed_reason

    @property
    def has_error(self) -> bool:
        return bool(self.error) or any(board.error for board in self.boards)


@dataclass(frozen=True)
class AvailabilityCell:
    round_number: int
    available: bool
    #: False once the round's boards are paired (or the team has no match to play).
    editable: bool


@dataclass(frozen=True)
class AvailabilityRow:
    entry: RosterPlayer
    cells: list[AvailabilityCell]


@dataclass
class CaptainPage:
    link: CaptainLink
    season_team: SeasonTeam
    league: League
    pairs: bool
    roster: list[RosterPlayer]
    matches: list[CaptainMatch]
    rounds: list[int]
    open_rounds: set[int]
    grid: list[AvailabilityRow]
    now: dt.datetime

    @property
    def regulars(self) -> list[RosterPlayer]:
        return [entry for entry in self.roster if not entry.reserve]

    @property
    def reserves(self) -> list[RosterPlayer]:
        return [entry for entry in self.roster if entry.reserve]

    @property
    def open_matches(self) -> list[CaptainMatch]:
        return [item for item in self.matches if not item.paired and item.opponent is not None]

    @property
    def played_matches(self) -> list[CaptainMatch]:
        return [item for item in self.matches if item.paired or item.opponent is None]

    def match(self, match_id: int) -> CaptainMatch | None:
        return next((item for item in self.matches if item.match.pk == match_id), None)


def is_partnership(league: League) -> bool:
    """Whether each board of the league's matches is played by a pair."""
    return game_facts(league.game).players_per_side(league.game_options or {}) > 1


def link_path(token: str) -> str:
    return f"/league/captain/{token}/"


def team_matches(season_team: SeasonTeam) -> list[TeamMatch]:
    """The team's matches in round order, with their lineups and whether boards exist."""
    return list(
        TeamMatch.objects.filter(Q(home=season_team) | Q(away=season_team))
        .select_related("home__team", "away__team", "division")
        .prefetch_related(
            Prefetch("lineups", queryset=Lineup.objects.prefetch_related(
                "boards__player", "boards__partner")),
            "boards")
        .order_by("round_number", "pk"))


def _closed_reason(match: TeamMatch, paired: bool, passed: bool) -> str:
    if match.away_id is None:
        return _("A bye: no lineup to submit.")
    if paired:
        return _("The boards are paired: the lineup cannot change any more.")
    if match.forfeit:
        return _("The match is forfeited.")
    if passed:
        return _("The deadline has passed: only the league manager can accept a late change.")
    return ""


def _default_order(roster: list[RosterPlayer], round_number: int,
                   unavailable: set[tuple[int, int]], boards: int,
                   pairs: bool) -> list[tuple[int | None, int | None]]:
    """The form's starting lineup: the available regulars in roster order, then reserves."""
    ready = [entry.player.pk for entry in roster
             if (entry.player.pk, round_number) not in unavailable]
    seats = 2 if pairs else 1
    chosen: list[tuple[int | None, int | None]] = []
    for board in range(boards):
        first = ready[board * seats] if board * seats < len(ready) else None
        second = None
        if pairs and board * seats + 1 < len(ready):
            second = ready[board * seats + 1]
        chosen.append((first, second))
    return chosen


def captain_page(link: CaptainLink, *, now: dt.datetime) -> CaptainPage:
    """Everything the captain's page shows, in a number of queries that does not grow with
    the season's matches or the roster."""
    season_team = (SeasonTeam.objects
                   .select_related("season__league", "division", "team__club", "captain")
                   .get(pk=link.season_team_id))
    league = season_team.season.league
    pairs = is_partnership(league)
    entries = list(RosterEntry.objects.filter(season_team=season_team)
                   .select_related("player").order_by("reserve", "order"))
    ratings: dict[int, int] = {}
    if league.lineup_rule == LineupRule.RATING and entries:
        ratings = entry_ratings(league.host_id, league.game,
                                [entry.player_id for entry in entries])
    roster = [RosterPlayer(entry.player, entry.order, entry.reserve,
                           ratings.get(entry.player_id)) for entry in entries]
    marks = {(row.player_id, row.round_number): row.available
             for row in Availability.objects.filter(season_team=season_team)}
    unavailable = {key for key, available in marks.items() if not available}

    matches: list[CaptainMatch] = []
    for match in team_matches(season_team):
        home = match.home_id == season_team.pk
        lineups = {lineup.team_id: lineup for lineup in match.lineups.all()}
        mine = lineups.get(season_team.pk)
        opponent_id = match.away_id if home else match.home_id
        paired = bool(match.boards.all())
        passed = match.lineup_deadline is not None and now > match.lineup_deadline
        item = CaptainMatch(
            match=match, home=home, opponent=match.away if home else match.home,
            lineup=mine, opponent_lineup_in=opponent_id in lineups, paired=paired,
            closed_reason=_closed_reason(match, paired, passed), deadline_passed=passed)
        if mine is not None:
            by_board = {row.board: row for row in mine.boards.all()}
            chosen = [(by_board[b].player_id, by_board[b].partner_id) if b in by_board
                      else (None, None) for b in range(1, league.boards + 1)]
        else:
            chosen = _default_order(roster, match.round_number, unavailable, league.boards,
                                    pairs)
        first_moves = {row.board: row.home_moves_first for row in match.boards.all()}
        rows = {row.board: row for row in mine.boards.all()} if mine is not None else {}
        for board in range(1, league.boards + 1):
            row = rows.get(board)
            # Board 1 to the home team, board 2 to the away team... (the second leg's row
            # has home and away swapped already); the paired boards say it themselves.
            home_first = first_moves.get(board, board % 2 == 1)
            item.boards.append(LineupBoardView(
                board=board, player=row.player if row else None,
                partner=row.partner if row else None, chosen=chosen[board - 1],
                we_move_first=home_first == home))
        matches.append(item)

    last_round = max([season_team.division.rounds_planned or 0]
                     + [item.match.round_number for item in matches])
    rounds = list(range(1, last_round + 1))
    played = {item.match.round_number for item in matches if item.paired or item.match.forfeit}
    withdrawn = season_team.withdrawn_from_round
    open_rounds = {number for number in rounds if number not in played
                   and (withdrawn is None or number < withdrawn)}
    grid = [AvailabilityRow(entry, [AvailabilityCell(number, marks.get(
        (entry.player.pk, number), True), number in open_rounds) for number in rounds])
        for entry in roster]
    return CaptainPage(link=link, season_team=season_team, league=league, pairs=pairs,
                       roster=roster, matches=matches, rounds=rounds, open_rounds=open_rounds,
                       grid=grid, now=now)


def reserve_candidates(season_team: SeasonTeam) -> list[Player]:
    """The team's club's players who are on no roster of the season (people, not bots)."""
    taken = RosterEntry.objects.filter(season_id=season_team.season_id).values("player_id")
    return list(Player.objects.filter(club_id=season_team.team.club_id, is_bot=False)
                .exclude(pk__in=taken).order_by("display_name", "pk")[:MAX_RESERVE_CHOICES])


# -- the league manager's captain links page (admin) ----------------------------------------


@dataclass(frozen=True)
class CaptainLinkRow:
    season_team: SeasonTeam
    link: CaptainLink | None
    url: str


@dataclass(frozen=True)
class DivisionLinks:
    division: Division
    rows: list[CaptainLinkRow]


def live_captain_link(season_team: SeasonTeam) -> CaptainLink | None:
    return CaptainLink.objects.live().filter(season_team=season_team).first()


def captain_links_board(season: Season, base_url: str, *,
                        division: int | None = None) -> list[DivisionLinks]:
    """Each division of ``season`` (or only ``division``) with its teams' captains and live
    links (their addresses recomputed from the nonces), in three queries."""
    divisions = list(season.divisions.order_by("level", "name"))
    if division is not None:
        divisions = [item for item in divisions if item.pk == division]
    teams = (SeasonTeam.objects.filter(division__in=divisions)
             .select_related("team", "captain").order_by("seed", "team__name", "pk"))
    links = {link.season_team_id: link for link in CaptainLink.objects.live()
             .filter(season_team__division__in=divisions).select_related("player")}
    by_division: dict[int, list[CaptainLinkRow]] = {item.pk: [] for item in divisions}
    for team in teams:
        link = links.get(team.pk)
        url = base_url + link_path(captain_link_token(link)) if link is not None else ""
        by_division[team.division_id].append(CaptainLinkRow(team, link, url))
    return [DivisionLinks(item, by_division[item.pk]) for item in divisions]
