"""Team matches on boards and the season table of a league. Pure Python.

A team match is played on N boards; each board is one match series between two players
(or two pairs) and scores 1, ½ or 0 **board points** (FIDE: game points). The team with
more board points wins the match and scores **match points** (2 / 1 / 0 by default).

- A board forfeit (:class:`BoardResult` ``home_forfeit`` / ``away_forfeit``): the present
  side scores 1, the absent side 0; both absent score 0-0.
- A whole-match forfeit (:class:`TeamMatchResult` ``forfeit``): the forfeiting team loses
  every board and the match (FIDE team rules: the opponent wins by the full board
  score); both teams forfeiting lose the match 0-0.
- A bye (``away`` None) scores the league's bye match points and board points
  (:class:`TeamScoring`); it has no opponent, so the opponent-based tie-breaks skip it.

:func:`team_table` ranks the teams on match points (or board points), then on the
tie-breaks of :data:`TEAM_TIEBREAKS` in the order given; teams still level on every
criterion share their rank. A level match in a knockout is decided by
:func:`knockout_winner`.

Tie-breaks (FIDE C.07; "game points" are board points here):

- ``match_points`` (MP) and ``board_points`` (GP): the team's own totals.
- ``team_sonneborn_berger``: for each opponent met over the board, the opponent's match
  points times the board points scored against it, summed (FIDE's extended match-game
  Sonneborn-Berger, EMGSB: the opponents' primary score, MP, times the team's secondary
  score, GP, in that match).
- ``team_sonneborn_berger_gp``: the same on board points only (the opponent's board
  points times the board points scored against it; FIDE's SB computed on GP).
- ``direct_encounter``: among the teams still tied, the match points of their mutual
  matches (the average when two of them met more than once, as the individual Direct
  Encounter here does). When not every tied team met every other one, FIDE's rule
  applies: a team is ranked first only if it stays ahead of every other whatever the
  missing matches' results would have been, then second place the same way, and so on.
- ``board_count``: the Berliner count: a point won on board 1 counts N, on board 2
  N - 1, ..., on board N 1 (N boards), over every board result; more is better. FIDE's
  tie-break checker (TEC TieBreakServer, "BC") sums board number × points and ranks the
  lower sum first; among teams level on board points the two orders agree, since
  ``Σ (N + 1 - b)·p_b = (N + 1)·GP - Σ b·p_b``.
- ``buchholz``: the sum of the match points of the opponents met over the board.

Unplayed matches (byes and whole-match forfeits) count in the team's own scores but have
no opponent in the opponent-based tie-breaks (they add nothing to them, as FIDE treats
a round robin's unplayed games).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import ClassVar, Literal

from games.i18n import N_
from tournaments.marked import MarkedError

ZERO, HALF, ONE = Decimal(0), Decimal("0.5"), Decimal(1)
BOARD_SCORES = frozenset({ZERO, HALF, ONE})

Forfeit = Literal["", "home", "away", "both"]
Primary = Literal["match_points", "board_points"]
Outcome = Literal["won", "drawn", "lost", "bye"]


class TeamMatchError(MarkedError):
    """A team match result or a table request that cannot be scored, in plain words."""


@dataclass(frozen=True, slots=True)
class BoardResult:
    """The board points of one board of a team match (home's and away's)."""

    board: int
    home: Decimal
    away: Decimal
    home_forfeit: bool = False
    away_forfeit: bool = False

    def points(self) -> tuple[Decimal, Decimal]:
        """Home's and away's board points, a forfeit counted as the rules say."""
        if self.home_forfeit or self.away_forfeit:
            return (ZERO if self.home_forfeit else ONE, ZERO if self.away_forfeit else ONE)
        return Decimal(self.home), Decimal(self.away)

    def check(self, boards: int | None = None) -> None:
        """Refuse a board outside 1..``boards`` or a score other than 1-0, ½-½, 0-1."""
        if self.board < 1 or (boards is not None and self.board > boards):
            raise TeamMatchError(N_("board %(board)d does not exist (1 to %(boards)d)"),
                                 board=self.board, boards=boards or 0)
        if self.home_forfeit or self.away_forfeit:
            return
        home, away = Decimal(self.home), Decimal(self.away)
        if home not in BOARD_SCORES or away not in BOARD_SCORES or home + away != ONE:
            raise TeamMatchError(
                N_("board %(board)d: the result must be 1-0, ½-½ or 0-1, not %(home)s-%(away)s"),
                board=self.board, home=home, away=away)


@dataclass(frozen=True, slots=True)
class TeamMatchResult:
    """One team match of a round: home against away (None: home has the bye).

    ``complete`` False: the match is still being played; the table leaves it out.
    """

    round: int
    home: int
    away: int | None
    boards: tuple[BoardResult, ...] = ()
    forfeit: Forfeit = ""
    complete: bool = True

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def played(self) -> bool:
        """Met over the board (not a bye, not a whole-match forfeit)."""
        return self.away is not None and not self.forfeit


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """Match points of a won, drawn and lost match, and what a bye scores.

    ``bye_board_points`` None: half the boards (a drawn match's share).
    """

    match_win: Decimal = Decimal(2)
    match_draw: Decimal = Decimal(1)
    match_loss: Decimal = ZERO
    bye_match_points: Decimal = Decimal(2)
    bye_board_points: Decimal | None = None

    def bye_boards(self, boards: int) -> Decimal:
        if self.bye_board_points is not None:
            return Decimal(self.bye_board_points)
        return Decimal(boards) / 2


DEFAULT_SCORING = TeamScoring()


def home_moves_first(board: int) -> bool:
    """Whether the home team's player moves first on ``board``: board 1 the home team,
    board 2 the away team, and so on. In a double round robin the second leg swaps home
    and away, so each team's first moves alternate between the legs too."""
    return board % 2 == 1


def team_rating(ratings: Iterable[int | None]) -> int | None:
    """A team's rating for seeding: the rounded mean of its rated players (None: none)."""
    rated = [rating for rating in ratings if rating is not None]
    if not rated:
        return None
    return int((Decimal(sum(rated)) / len(rated)).to_integral_value())


def check_result(result: TeamMatchResult, boards: int) -> None:
    """Refuse a match that cannot be scored: unknown or repeated boards, a bad score, a
    team against itself, a forfeit on a bye."""
    if result.away is not None and result.away == result.home:
        raise TeamMatchError(N_("a team cannot play itself (team %(team)d)"), team=result.home)
    if result.away is None and result.forfeit:
        raise TeamMatchError(N_("a bye cannot be forfeited"))
    seen: set[int] = set()
    for board in result.boards:
        board.check(boards)
        if board.board in seen:
            raise TeamMatchError(N_("board %(board)d is entered twice"), board=board.board)
        seen.add(board.board)


def board_points(result: TeamMatchResult, boards: int | None = None,
                 scoring: TeamScoring = DEFAULT_SCORING) -> tuple[Decimal, Decimal]:
    """Home's and away's board points (a bye: home's bye board points and 0).

    ``boards`` is the match's number of boards (a whole-match forfeit scores all of them;
    a bye half of them unless the scoring says otherwise); by default the boards entered.
    """
    if boards is None and not result.boards and (result.forfeit or result.away is None):
        raise ValueError("board_points needs the number of boards to score a forfeit or a bye")
    count = len(result.boards) if boards is None else boards
    if result.away is None:
        return scoring.bye_boards(count), ZERO
    if result.forfeit == "both":
        return ZERO, ZERO
    if result.forfeit == "home":
        return ZERO, Decimal(count)
    if result.forfeit == "away":
        return Decimal(count), ZERO
    home = away = ZERO
    for board in result.boards:
        first, second = board.points()
        home += first
        away += second
    return home, away


def match_points(result: TeamMatchResult, scoring: TeamScoring = DEFAULT_SCORING,
                 boards: int | None = None) -> tuple[Decimal, Decimal]:
    """Home's and away's match points (a bye: home's bye match points and 0)."""
    if result.away is None:
        return Decimal(scoring.bye_match_points), ZERO
    if result.forfeit == "both":
        return scoring.match_loss, scoring.match_loss
    home, away = board_points(result, boards, scoring)
    if home > away:
        return scoring.match_win, scoring.match_loss
    if away > home:
        return scoring.match_loss, scoring.match_win
    return scoring.match_draw, scoring.match_draw


def board_count(points_by_board: Mapping[int, Decimal], boards: int) -> Decimal:
    """The Berliner count: a point on board 1 counts ``boards``, on the last board 1."""
    return sum((Decimal(boards + 1 - board) * points
                for board, points in points_by_board.items()), ZERO)


def _per_board(result: TeamMatchResult, boards: int) -> tuple[dict[int, Decimal],
                                                              dict[int, Decimal]]:
    """Home's and away's points board by board (a whole-match forfeit: every board)."""
    if result.away is None or result.forfeit == "both":
        return {}, {}
    if result.forfeit:
        winner = dict.fromkeys(range(1, boards + 1), ONE)
        loser = dict.fromkeys(range(1, boards + 1), ZERO)
        return (loser, winner) if result.forfeit == "home" else (winner, loser)
    home: dict[int, Decimal] = {}
    away: dict[int, Decimal] = {}
    for board in result.boards:
        home[board.board], away[board.board] = board.points()
    return home, away


def knockout_winner(result: TeamMatchResult, boards: int) -> int | None:
    """Who goes through a knockout's team match: more board points; when level, the
    higher Berliner board count (:func:`board_count`); when still level, bottom-board
    elimination (the last board's result is struck off and the rest compared, then the
    next board up, as the English "elimination rule" and FIDE's BBE); None when even
    that leaves them level (then a lot, or a play-off, decides).

    A whole-match forfeit sends the other team through; a double forfeit gives None.
    """
    if result.away is None:
        return result.home
    home_points, away_points = board_points(result, boards)
    if home_points != away_points:
        return result.home if home_points > away_points else result.away
    if result.forfeit:
        return None
    home, away = _per_board(result, boards)
    home_count, away_count = board_count(home, boards), board_count(away, boards)
    if home_count != away_count:
        return result.home if home_count > away_count else result.away
    for last in range(boards, 1, -1):
        home_rest = sum((p for b, p in home.items() if b < last), ZERO)
        away_rest = sum((p for b, p in away.items() if b < last), ZERO)
        if home_rest != away_rest:
            return result.home if home_rest > away_rest else result.away
    return None


# -- the season table --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamGame:
    """One scored match from one team's side."""

    round: int
    opponent: int | None
    played: bool
    outcome: Outcome
    match_points: Decimal
    opponent_match_points: Decimal
    board_points: Decimal
    opponent_board_points: Decimal
    by_board: Mapping[int, Decimal]


@dataclass
class TeamContext:
    """Every team's scored matches and totals, as the tie-breaks read them."""

    teams: tuple[int, ...]
    boards: int
    scoring: TeamScoring
    games: dict[int, list[TeamGame]]
    match_points: dict[int, Decimal] = field(default_factory=dict)
    board_points: dict[int, Decimal] = field(default_factory=dict)


class TeamTieBreak:
    """A team tie-break: ``key`` (stable), ``label`` (marked), ``compute`` per team."""

    key: ClassVar[str]
    label: ClassVar[str]
    abbreviation: ClassVar[str]
    #: It splits a group of tied teams itself (Direct Encounter) instead of a value.
    contextual: ClassVar[bool] = False

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        raise NotImplementedError


TEAM_TIEBREAKS: dict[str, type[TeamTieBreak]] = {}


def _register(cls: type[TeamTieBreak]) -> type[TeamTieBreak]:
    TEAM_TIEBREAKS[cls.key] = cls
    return cls


def team_tiebreak(key: str) -> TeamTieBreak:
    """A team tie-break by key; a :class:`TeamMatchError` naming the known ones."""
    if key not in TEAM_TIEBREAKS:
        raise TeamMatchError(N_("unknown team tie-break %(name)r; known: %(known)s"),
                             name=key, known=", ".join(TEAM_TIEBREAKS))
    return TEAM_TIEBREAKS[key]()


def available_team_tiebreaks() -> list[dict[str, str]]:
    return [{"key": cls.key, "label": cls.label, "abbreviation": cls.abbreviation}
            for cls in TEAM_TIEBREAKS.values()]


@_register
class MatchPoints(TeamTieBreak):
    key, label, abbreviation = "match_points", N_("Match points"), "MP"

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return dict(context.match_points)


@_register
class BoardPoints(TeamTieBreak):
    key, label, abbreviation = "board_points", N_("Board points"), "GP"

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return dict(context.board_points)


def _over_opponents(context: TeamContext,
                    value: Callable[[TeamGame], Decimal]) -> dict[int, Decimal]:
    return {team: sum((value(game) for game in context.games[team]
                       if game.played and game.opponent is not None), ZERO)
            for team in context.teams}


@_register
class TeamSonnebornBerger(TeamTieBreak):
    key, label, abbreviation = ("team_sonneborn_berger", N_("Team Sonneborn-Berger"), "EMGSB")

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return _over_opponents(context, lambda game: context.match_points[game.opponent or 0]
                               * game.board_points)


@_register
class TeamSonnebornBergerBoards(TeamTieBreak):
    key, label, abbreviation = ("team_sonneborn_berger_gp",
                                N_("Sonneborn-Berger on board points"), "SB:GP")

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return _over_opponents(context, lambda game: context.board_points[game.opponent or 0]
                               * game.board_points)


@_register
class Buchholz(TeamTieBreak):
    key, label, abbreviation = "buchholz", N_("Buchholz"), "BH"

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return _over_opponents(context, lambda game: context.match_points[game.opponent or 0])


@_register
class BoardCount(TeamTieBreak):
    key, label, abbreviation = "board_count", N_("Board count"), "BC"

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return {team: sum((board_count(game.by_board, context.boards)
                           for game in context.games[team]), ZERO)
                for team in context.teams}


@_register
class DirectEncounter(TeamTieBreak):
    key, label, abbreviation = "direct_encounter", N_("Direct encounter"), "DE"
    contextual = True

    def compute(self, context: TeamContext) -> dict[int, Decimal]:
        return direct_encounter_scores(context, context.teams)

    def split(self, context: TeamContext,
              group: Sequence[int]) -> tuple[list[list[int]], dict[int, Decimal]]:
        """Ordered sub-groups of ``group`` (teams still tied stay together) and each
        team's match points against the others of ``group``."""
        met = _mutual(context, group)
        return _rank_by_encounter(context, list(group), met), _scores(group, met)


def _mutual(context: TeamContext, group: Iterable[int]) -> dict[tuple[int, int], Decimal]:
    """Average match points of i against j, for each ordered pair of ``group`` that met."""
    members = set(group)
    totals: dict[tuple[int, int], list[Decimal]] = {}
    for team in members:
        for game in context.games[team]:
            if game.opponent in members and game.opponent is not None:
                totals.setdefault((team, game.opponent), []).append(game.match_points)
    return {pair: sum(points, ZERO) / len(points) for pair, points in totals.items()}


def _scores(group: Iterable[int], met: Mapping[tuple[int, int], Decimal]) -> dict[int, Decimal]:
    members = set(group)
    scores = dict.fromkeys(members, ZERO)
    for (i, j), points in met.items():
        if i in members and j in members:
            scores[i] += points
    return scores


def direct_encounter_scores(context: TeamContext, group: Sequence[int]) -> dict[int, Decimal]:
    return _scores(group, _mutual(context, group))


def _rank_by_encounter(context: TeamContext, group: list[int],
                       met: Mapping[tuple[int, int], Decimal]) -> list[list[int]]:
    if len(group) < 2:
        return [group]
    members = set(group)
    scores = _scores(group, met)
    pairs = sum(1 for i, j in met if i in members and j in members)
    if pairs == len(group) * (len(group) - 1):
        tiers: list[list[int]] = []
        for team in sorted(group, key=lambda t: -scores[t]):
            if tiers and scores[tiers[-1][0]] == scores[team]:
                tiers[-1].append(team)
            else:
                tiers.append([team])
        if len(tiers) == 1:
            return tiers
        result: list[list[int]] = []
        for tier in tiers:
            result.extend(_rank_by_encounter(context, tier, met) if len(tier) > 1 else [tier])
        return result
    missing = {i: len(group) - 1 - sum(1 for a, b in met if a == i and b in members)
               for i in group}
    win, loss = context.scoring.match_win, context.scoring.match_loss
    best = {i: scores[i] + win * missing[i] for i in group}
    worst = {i: scores[i] + loss * missing[i] for i in group}
    ranked: list[list[int]] = []
    remaining = list(group)
    while len(remaining) > 1:
        leader = max(remaining, key=lambda i: worst[i])
        if worst[leader] <= max(best[j] for j in remaining if j != leader):
            break
        ranked.append([leader])
        remaining.remove(leader)
    if len(remaining) == 1:
        return [*ranked, remaining]
    if ranked:
        return [*ranked, *_rank_by_encounter(context, remaining, met)]
    return [remaining]


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's line of the table; ``tiebreaks`` in the order asked for."""

    team: int
    rank: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    match_points: Decimal
    board_points: Decimal
    tiebreaks: dict[str, Decimal] = field(default_factory=dict)


def team_context(teams: Sequence[int], results: Sequence[TeamMatchResult],
                 scoring: TeamScoring, boards: int) -> TeamContext:
    """Every complete match scored from both sides; refuses an unknown team, a team
    twice in one round or a malformed result."""
    if boards < 1:
        raise TeamMatchError(N_("a team match needs at least one board"))
    known = set(teams)
    if len(known) != len(teams):
        raise TeamMatchError(N_("a team is listed twice"))
    games: dict[int, list[TeamGame]] = {team: [] for team in teams}
    seen: set[tuple[int, int]] = set()
    for result in results:
        check_result(result, boards)
        for team in (result.home, result.away):
            if team is None:
                continue
            if team not in known:
                raise TeamMatchError(N_("team %(team)d is not in the table"), team=team)
            if (result.round, team) in seen:
                raise TeamMatchError(N_("team %(team)d plays twice in round %(round)d"),
                                     team=team, round=result.round)
            seen.add((result.round, team))
        if not result.complete:
            continue
        home_mp, away_mp = match_points(result, scoring, boards)
        home_bp, away_bp = board_points(result, boards, scoring)
        home_boards, away_boards = _per_board(result, boards)
        home_outcome, away_outcome = _outcomes(result, home_bp, away_bp)
        games[result.home].append(TeamGame(result.round, result.away, result.played,
                                           home_outcome, home_mp, away_mp, home_bp, away_bp,
                                           home_boards))
        if result.away is not None:
            games[result.away].append(TeamGame(result.round, result.home, result.played,
                                               away_outcome, away_mp, home_mp, away_bp,
                                               home_bp, away_boards))
    context = TeamContext(tuple(teams), boards, scoring, games)
    for team in teams:
        context.match_points[team] = sum((g.match_points for g in games[team]), ZERO)
        context.board_points[team] = sum((g.board_points for g in games[team]), ZERO)
    return context


def _outcomes(result: TeamMatchResult, home: Decimal, away: Decimal) -> tuple[Outcome, Outcome]:
    if result.away is None:
        return "bye", "bye"
    if result.forfeit == "both":
        return "lost", "lost"
    if home == away:
        return "drawn", "drawn"
    return ("won", "lost") if home > away else ("lost", "won")


def team_table(teams: Sequence[int], results: Sequence[TeamMatchResult], scoring: TeamScoring,
               boards: int, tiebreaks: Sequence[str], *,
               primary: Primary = "match_points") -> list[TeamRow]:
    """The season table: ranked on ``primary`` then each tie-break in order; teams level
    on all of them share a rank (and keep the order of ``teams``)."""
    context = team_context(teams, results, scoring, boards)
    chosen = [team_tiebreak(key) for key in tiebreaks]
    values: dict[str, dict[int, Decimal]] = {
        tb.key: tb.compute(context) for tb in chosen if not tb.contextual}
    first = context.match_points if primary == "match_points" else context.board_points
    position = {team: index for index, team in enumerate(teams)}
    groups: list[list[int]] = _split_by(list(teams), first, position)
    for tb in chosen:
        next_groups: list[list[int]] = []
        for group in groups:
            if len(group) < 2:
                next_groups.append(group)
            elif isinstance(tb, DirectEncounter):
                parts, scores = tb.split(context, group)
                values.setdefault(tb.key, {}).update(scores)
                next_groups.extend(sorted(part, key=position.__getitem__) for part in parts)
            else:
                next_groups.extend(_split_by(group, values[tb.key], position))
        groups = next_groups
    for tb in chosen:  # a lone team's direct encounter: nobody to meet
        for team in teams:
            values.setdefault(tb.key, {}).setdefault(team, ZERO)
    rows: list[TeamRow] = []
    rank = 1
    for group in groups:
        for team in group:
            own = context.games[team]
            rows.append(TeamRow(
                team=team, rank=rank,
                played=sum(1 for g in own if g.outcome != "bye"),
                won=sum(1 for g in own if g.outcome == "won"),
                drawn=sum(1 for g in own if g.outcome == "drawn"),
                lost=sum(1 for g in own if g.outcome == "lost"),
                byes=sum(1 for g in own if g.outcome == "bye"),
                match_points=context.match_points[team],
                board_points=context.board_points[team],
                tiebreaks={tb.key: values[tb.key][team] for tb in chosen}))
        rank += len(group)
    return rows


def _split_by(group: list[int], value: Mapping[int, Decimal],
              position: Mapping[int, int]) -> list[list[int]]:
    ordered = sorted(group, key=lambda team: (-value[team], position[team]))
    parts: list[list[int]] = []
    for team in ordered:
        if parts and value[parts[-1][0]] == value[team]:
            parts[-1].append(team)
        else:
            parts.append([team])
    return parts
