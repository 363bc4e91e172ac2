"""A round robin's rest round scores nothing (FIDE), a Swiss bye a win: the league's
scoring by the division's system."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from leagues.models import League
from leagues.scoring import scoring_of
from tournaments.standings.team_matches import BoardResult, TeamMatchResult, team_table


def _round_one() -> list[TeamMatchResult]:
    def boards(*points: tuple[str, str]) -> tuple[BoardResult, ...]:
        return tuple(BoardResult(n, Decimal(h), Decimal(a))
                     for n, (h, a) in enumerate(points, 1))
    return [
        TeamMatchResult(1, 1, 2, boards(("1", "0"), ("1", "0"), ("1", "0"), ("0", "1"))),
        TeamMatchResult(1, 3, 4, boards(("1", "0"), ("0", "1"), ("0.5", "0.5"),
                                        ("0.5", "0.5"))),
        TeamMatchResult(1, 5, None, ()),
    ]


def test_a_rest_round_in_a_team_round_robin_scores_nothing() -> None:
    league = League(boards=4)  # 2/1/0 match points
    rows = team_table([1, 2, 3, 4, 5], _round_one(),
                      scoring_of(league, "team_round_robin"), 4, ["board_points"])
    resting = next(row for row in rows if row.team == 5)
    assert (resting.match_points, resting.board_points) == (0, 0)
    assert [row.team for row in rows][:3] == [1, 3, 4]


def test_a_swiss_bye_scores_a_win_and_half_the_boards() -> None:
    league = League(boards=4)
    rows = team_table([1, 2, 3, 4, 5], _round_one(), scoring_of(league, "team_swiss"), 4,
                      ["board_points"])
    bye = next(row for row in rows if row.team == 5)
    assert (bye.match_points, bye.board_points) == (2, 2)


@pytest.mark.django_db
def test_a_league_round_is_neither_unpaired_nor_edited_from_the_tournament(
        organizer: Any) -> None:
    from core.errors import ApplicationError
    from leagues import services
    from tests.league_world import build_league
    from tournaments.services import pairing_edit, round_unpair

    world = build_league(organizer)
    services.season_start(actor=organizer, season=world.season)
    match = world.division.matches.filter(away__isnull=False).first()
    for team in (match.home, match.away):
        players = [entry.player for entry in team.roster.filter(reserve=False)]
        services.lineup_submit(actor=organizer, match=match, team=team, boards=players)
    match.refresh_from_db()
    round_ = match.board_round
    with pytest.raises(ApplicationError, match="league division's boards"):
        round_unpair(actor=organizer, round_=round_)
    with pytest.raises(ApplicationError, match="league division's boards"):
        pairing_edit(actor=organizer, round_=round_, action="swap_colours", board=1)
