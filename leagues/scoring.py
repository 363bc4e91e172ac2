"""Team matches read as the team core scores them (``tournaments.standings.team_matches``):
each board's points from its pairing in the board tournament, or its forfeit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from leagues.models import League, MatchBoard, Side, TeamMatch
from tournaments.models import Outcome
from tournaments.standings.team_matches import (
    BoardResult,
    TeamMatchResult,
    TeamScoring,
    knockout_winner,
    match_points,
)
from tournaments.systems import SYSTEMS

ONE, HALF, ZERO = Decimal(1), Decimal("0.5"), Decimal(0)

#: Entrant A's and B's board points for each decided outcome, and who forfeited.
_OUTCOME_POINTS: dict[str, tuple[Decimal, Decimal, bool, bool]] = {
    Outcome.A_WINS: (ONE, ZERO, False, False),
    Outcome.B_WINS: (ZERO, ONE, False, False),
    Outcome.DRAW: (HALF, HALF, False, False),
    Outcome.A_FORFEIT_WIN: (ONE, ZERO, False, True),
    Outcome.B_FORFEIT_WIN: (ZERO, ONE, True, False),
    Outcome.DOUBLE_FORFEIT: (ZERO, ZERO, True, True),
}


def scoring_of(league: League, system: str) -> TeamScoring:
    """The league's points in a division of ``system``: a round robin's rest round scores
    nothing (FIDE, as ``RoundRobin.bye_points``); a Swiss or knockout bye scores a win
    and half the boards."""
    win = Decimal(league.match_points_win)
    bye = SYSTEMS[system].bye_points(win) if system in SYSTEMS else win
    return TeamScoring(match_win=win,
                       match_draw=Decimal(league.match_points_draw),
                       match_loss=Decimal(league.match_points_loss),
                       bye_match_points=bye, bye_board_points=None if bye else ZERO)


def board_result(board: MatchBoard) -> BoardResult | None:
    """The board's points (home, away), None while its pairing has no result."""
    if board.empty:
        return BoardResult(board.board, ZERO, ZERO,
                           home_forfeit=board.empty in (Side.HOME, Side.BOTH),
                           away_forfeit=board.empty in (Side.AWAY, Side.BOTH))
    assert board.pairing is not None
    found = _OUTCOME_POINTS.get(board.pairing.outcome)
    if found is None:
        return None
    a, b, a_forfeit, b_forfeit = found
    if board.home_moves_first:
        return BoardResult(board.board, a, b, home_forfeit=a_forfeit, away_forfeit=b_forfeit)
    return BoardResult(board.board, b, a, home_forfeit=b_forfeit, away_forfeit=a_forfeit)


def team_match_result(match: TeamMatch, boards: Sequence[MatchBoard]) -> TeamMatchResult:
    """The match as the team core scores it; ``complete`` once every board has its result
    (a bye and a whole-match forfeit are complete at once)."""
    away = match.away_id
    if away is None:
        return TeamMatchResult(match.round_number, match.home_id, None)
    if match.forfeit:
        return TeamMatchResult(match.round_number, match.home_id, away,
                               forfeit=match.forfeit)  # type: ignore[arg-type]
    results = [board_result(board) for board in boards]
    known = tuple(r for r in results if r is not None)
    complete = bool(boards) and len(known) == len(results)
    return TeamMatchResult(match.round_number, match.home_id, away, known, complete=complete)


def match_winner(match: TeamMatch, result: TeamMatchResult, league: League) -> int | None:
    """The season team that goes through (a knockout): more match points, else the board
    count and the bottom board (team core), else the lot recorded on the match."""
    if not result.complete:
        return None
    if result.away is None:
        return result.home
    home, away = match_points(result, scoring_of(league, match.division.system),
                              league.boards)
    if home != away:
        return result.home if home > away else result.away
    if result.forfeit == "both":
        return None
    decided = knockout_winner(result, league.boards)
    return decided if decided is not None else match.winner_id


def boards_by_match(boards: Iterable[MatchBoard]) -> dict[int, list[MatchBoard]]:
    found: dict[int, list[MatchBoard]] = {}
    for board in boards:
        found.setdefault(board.match_id, []).append(board)
    return found


def division_results(matches: Sequence[TeamMatch]) -> list[TeamMatchResult]:
    """Every match of ``matches`` scored (their boards and pairings read in one query)."""
    by_match = boards_by_match(
        MatchBoard.objects.filter(match__in=[m.pk for m in matches]).select_related("pairing")
        .order_by("match", "board"))
    return [team_match_result(match, by_match.get(match.pk, [])) for match in matches]
