"""Team matches on boards and the season table, over hand-computed tables."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.standings.team_matches import (
    TEAM_TIEBREAKS,
    BoardResult,
    TeamMatchError,
    TeamMatchResult,
    TeamScoring,
    available_team_tiebreaks,
    board_points,
    home_moves_first,
    knockout_winner,
    match_points,
    team_rating,
    team_table,
)

D = Decimal
HALF = D("0.5")
A, B, C, X = 1, 2, 3, 4  # X is team "D" of the tables below
SCORING = TeamScoring()


def match(round_: int, home: int, away: int | None, *points: float | str,
          **options: object) -> TeamMatchResult:
    """A match whose boards score ``points`` for home (1, 0.5, 0), board 1 first."""
    boards = tuple(BoardResult(n, D(str(p)), 1 - D(str(p))) for n, p in enumerate(points, 1))
    return TeamMatchResult(round_, home, away, boards, **options)  # type: ignore[arg-type]


# A four-team, four-board round robin (home team first, board points of home by board):
#
#   R1  A - D  1 ½ 1 0   2½-1½        B - C  1 0 ½ ½   2-2
#   R2  D - C  0 1 0 ½   1½-2½        A - B  ½ ½ 0 1   2-2
#   R3  B - D  1 1 0 1   3-1          C - A  1 0 1 0   2-2
#
#        A     B     C     D   | MP  GP   | team SB | SB:GP | BH | BC (4,3,2,1)
#   A    .     2     2    2½   |  4  6½   |   16    |  37   |  8 | 7½+4½+4 = 16
#   B    2     .     2     3   |  4  7    |   16    |  38   |  8 | 5½+5½+8 = 19
#   C    2     2     .    2½   |  4  6½   |   16    |  37   |  8 | 4½+6½+6 = 17
#   D   1½     1    1½     .   |  0  4    |   16    |  26½  | 12 | 2½+3½+2 =  8
#
# Team SB (opponent's MP x board points against it): A = 0x2½ + 4x2 + 4x2 = 16;
# D = 4x1½ + 4x1½ + 4x1 = 16. SB on board points: A = 4x2½ + 7x2 + 6½x2 = 37.
# FIDE's tie-break checker (TEC TieBreakServer, docs/leagues.md) gives the same MP, GP,
# EMGSB, SB:GP, BH and ranking; its BC (Σ board x points, lower first) is 16½, 16, 15½, 12.
SEASON = [
    match(1, A, X, 1, 0.5, 1, 0), match(1, B, C, 1, 0, 0.5, 0.5),
    match(2, X, C, 0, 1, 0, 0.5), match(2, A, B, 0.5, 0.5, 0, 1),
    match(3, B, X, 1, 1, 0, 1), match(3, C, A, 1, 0, 1, 0),
]
ALL = ["match_points", "board_points", "team_sonneborn_berger", "team_sonneborn_berger_gp",
       "buchholz", "board_count", "direct_encounter"]


def test_the_season_table_equals_the_hand_computation() -> None:
    rows = team_table([A, B, C, X], SEASON, SCORING, 4, ALL)
    got = {row.team: row for row in rows}
    assert [(got[t].match_points, got[t].board_points) for t in (A, B, C, X)] == [
        (4, D("6.5")), (4, 7), (4, D("6.5")), (0, 4)]
    assert {t: got[t].tiebreaks["team_sonneborn_berger"] for t in got} == dict.fromkeys(got, 16)
    assert [got[t].tiebreaks["team_sonneborn_berger_gp"] for t in (A, B, C, X)] == [
        37, 38, 37, D("26.5")]
    assert [got[t].tiebreaks["buchholz"] for t in (A, B, C, X)] == [8, 8, 8, 12]
    assert [got[t].tiebreaks["board_count"] for t in (A, B, C, X)] == [16, 19, 17, 8]
    assert [(got[t].played, got[t].won, got[t].drawn, got[t].lost) for t in (A, B, C, X)] == [
        (3, 1, 2, 0), (3, 1, 2, 0), (3, 1, 2, 0), (3, 0, 0, 3)]
    # MP 4 for A, B, C; GP puts B first; A and C (6½) drew: the board count decides.
    assert [(row.team, row.rank) for row in rows] == [(B, 1), (C, 2), (A, 3), (X, 4)]


def test_direct_encounter_alone_leaves_a_three_way_tie_shared() -> None:
    rows = team_table([A, B, C, X], SEASON, SCORING, 4, ["direct_encounter"])
    assert [(row.team, row.rank) for row in rows] == [(A, 1), (B, 1), (C, 1), (X, 4)]
    assert all(row.tiebreaks["direct_encounter"] == 2 for row in rows[:3])


def test_direct_encounter_ranks_the_tied_teams_on_their_mutual_match_points() -> None:
    # A and B both win against C and D; A beat B: A above B although B has more GP.
    season = [match(1, A, B, 1, 1, 0, 0.5), match(1, C, X, 0.5, 0.5, 0.5, 0.5),
              match(2, A, C, 1, 1, 0, 0.5), match(2, B, X, 1, 1, 1, 1),
              match(3, X, A, 1, 1, 1, 0.5), match(3, C, B, 0, 0, 0, 0)]
    rows = team_table([A, B, C, X], season, SCORING, 4, ["direct_encounter", "board_points"])
    assert [(row.team, row.rank, row.match_points) for row in rows[:2]] == [(A, 1, 4), (B, 2, 4)]
    assert rows[0].tiebreaks["direct_encounter"] == 2
    assert rows[1].tiebreaks["direct_encounter"] == 0
    assert rows[1].board_points > rows[0].board_points


def test_direct_encounter_ranks_only_a_team_ahead_whatever_the_missing_matches() -> None:
    # Tied on 4: A beat B and C (4 MP against them); B and C did not meet.
    season = [match(1, A, B, 1, 1, 1, 0), match(2, A, C, 1, 1, 0.5, 0),
              match(1, C, X, 1, 1, 1, 1), match(2, B, X, 1, 1, 1, 1),
              match(3, B, X, 1, 1, 0.5, 0.5),
              match(4, C, X, 1, 1, 1, 0.5)]
    rows = team_table([A, B, C, X], season, SCORING, 4, ["direct_encounter"])
    got = {row.team: row for row in rows}
    assert got[A].match_points == got[B].match_points == got[C].match_points == 4
    assert got[A].rank == 1
    assert got[B].rank == got[C].rank == 2  # B-C unknown: neither is surely ahead


def test_forfeits_byes_and_unfinished_matches() -> None:
    whole = TeamMatchResult(1, A, B, forfeit="home")
    assert board_points(whole, 4) == (0, 4)
    assert match_points(whole, SCORING, 4) == (0, 2)
    both = TeamMatchResult(1, A, B, forfeit="both")
    assert board_points(both, 4) == (0, 0) and match_points(both, SCORING, 4) == (0, 0)
    boards = (BoardResult(1, D(0), D(0), home_forfeit=True), BoardResult(2, D(0), D(0),
              home_forfeit=True, away_forfeit=True), BoardResult(3, HALF, HALF),
              BoardResult(4, D(0), D(0), away_forfeit=True))
    assert board_points(TeamMatchResult(1, A, B, boards)) == (D("1.5"), D("1.5"))
    with pytest.raises(ValueError, match="needs the number of boards"):
        board_points(whole)
    bye = TeamMatchResult(2, C, None)
    assert board_points(bye, 4) == (2, 0) and match_points(bye) == (2, 0)
    own_bye = TeamScoring(bye_match_points=D(1), bye_board_points=D(0))
    assert board_points(bye, 4, own_bye) == (0, 0) and match_points(bye, own_bye) == (1, 0)
    rows = team_table([A, B, C], [whole, bye, match(3, A, C, 1, 1, 1, 1, complete=False),
                                  TeamMatchResult(4, B, C, forfeit="both")],
                      SCORING, 4, ["buchholz"])
    got = {row.team: row for row in rows}
    assert (got[A].played, got[A].lost, got[A].match_points) == (1, 1, 0)
    assert (got[B].played, got[B].won, got[B].lost, got[B].board_points) == (2, 1, 1, 4)
    assert (got[C].played, got[C].lost, got[C].byes, got[C].match_points,
            got[C].board_points) == (1, 1, 1, 2, 2)
    assert got[B].tiebreaks["buchholz"] == 0  # a forfeited match has no opponent to count


def test_knockout_winner_board_count_then_bottom_board_elimination() -> None:
    assert knockout_winner(match(1, A, B, 1, 1, 0.5, 0), 4) == A
    assert knockout_winner(match(1, A, B, 1, 1, 0, 0), 4) == A  # BC 7 against 3
    assert knockout_winner(match(1, A, B, 0, 0, 1, 1), 4) == B
    # BC 5 each (boards 1+4 against 2+3); striking board 4 leaves 1 against 2.
    assert knockout_winner(match(1, A, B, 1, 0, 0, 1), 4) == B
    assert knockout_winner(match(1, A, B, 0.5, 0.5, 0.5, 0.5), 4) is None
    assert knockout_winner(TeamMatchResult(1, A, B, forfeit="home"), 4) == B
    assert knockout_winner(TeamMatchResult(1, A, B, forfeit="both"), 4) is None
    assert knockout_winner(TeamMatchResult(1, A, None), 4) == A


@pytest.mark.parametrize(("result", "message"), [
    (TeamMatchResult(1, A, B, (BoardResult(1, D(1), D(1)),)),
     "board 1: the result must be 1-0, ½-½ or 0-1, not 1-1"),
    (TeamMatchResult(1, A, B, (BoardResult(5, D(1), D(0)),)), "board 5 does not exist (1 to 4)"),
    (TeamMatchResult(1, A, B, (BoardResult(1, D(1), D(0)), BoardResult(1, D(1), D(0)))),
     "board 1 is entered twice"),
    (TeamMatchResult(1, A, A), "a team cannot play itself (team 1)"),
    (TeamMatchResult(1, A, None, forfeit="home"), "a bye cannot be forfeited"),
    (TeamMatchResult(1, A, 9), "team 9 is not in the table"),
])
def test_a_result_that_cannot_be_scored_is_refused(result: TeamMatchResult, message: str) -> None:
    with pytest.raises(TeamMatchError) as caught:
        team_table([A, B, C], [result], SCORING, 4, [])
    assert str(caught.value) == message


def test_a_team_twice_in_a_round_and_unknown_tiebreaks_are_refused() -> None:
    with pytest.raises(TeamMatchError, match="team 1 plays twice in round 1"):
        team_table([A, B, C], [match(1, A, B, 1), match(1, C, A, 1)], SCORING, 1, [])
    with pytest.raises(TeamMatchError, match="unknown team tie-break 'koya'"):
        team_table([A, B], [], SCORING, 1, ["koya"])


def test_the_table_may_rank_on_board_points_first() -> None:
    rows = team_table([A, B, C, X], SEASON, SCORING, 4, ["board_count"], primary="board_points")
    assert [row.team for row in rows] == [B, C, A, X]


def test_the_registry_names_are_stable_and_labelled() -> None:
    assert list(TEAM_TIEBREAKS) == ["match_points", "board_points", "team_sonneborn_berger",
                                    "team_sonneborn_berger_gp", "buchholz", "board_count",
                                    "direct_encounter"]
    assert all(entry["label"] for entry in available_team_tiebreaks())


def test_first_moves_alternate_across_boards_and_team_ratings_average() -> None:
    assert [home_moves_first(board) for board in (1, 2, 3, 4)] == [True, False, True, False]
    assert team_rating([1500, 1600, None, 1651]) == 1584
    assert team_rating([None]) is None
