"""The season table from board results (by hand), ratings per board game, the season's
end (promotion, relegation) and the next season."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from core.errors import ApplicationError
from leagues import selectors, services
from leagues.models import Season, SeasonTeam, TeamMatch
from ratings.models import RatingChange

pytestmark = pytest.mark.django_db


def _play(world: Any, lineups_in: Any, record_boards: Any, match: TeamMatch,
          by_board: dict[int, str]) -> None:
    """``by_board``: "H" (home team wins the board), "A" (away) or "D"."""
    lineups_in(world, match)
    codes = {}
    for board in match.boards.all():
        code = by_board[board.board]
        if code == "D":
            codes[board.board] = "d"
        else:
            codes[board.board] = "a" if (code == "H") == board.home_moves_first else "b"
    record_boards(match, codes)


def _seed(world: Any, match: Any) -> tuple[Any, Any]:
    seeds = {t.pk: t.seed for t in SeasonTeam.objects.filter(division=world.division)}
    return seeds[match.home_id], seeds[match.away_id]


def test_season_table_equals_the_hand_computation(make_league: Any, lineups_in: Any,
                                                  record_boards: Any) -> None:
    world = make_league(teams=4, boards=2, system="team_round_robin",
                        tiebreaks=["board_points", "team_sonneborn_berger"])
    for match in TeamMatch.objects.filter(division=world.division).order_by("round_number"):
        home, away = _seed(world, match)
        if {home, away} == {1, 2}:
            result = {1: "H", 2: "A"}  # 1-1
        elif {home, away} == {3, 4}:
            result = {1: "D", 2: "H" if home == 3 else "A"}  # seed 3 scores 1.5-0.5
        else:
            result = {1: "H", 2: "H"} if home < away else {1: "A", 2: "A"}
        _play(world, lineups_in, record_boards, match, result)
    rows = selectors.season_table(world.division)
    # seed: rank, played, won, drawn, lost, match points, board points, team SB
    # SB (FIDE team): each opponent's match points x the game points scored against them
    #   1: 5x1 (v 2) + 2x2 (v 3) + 0x2 (v 4) = 9     2: 5x1 + 2x2 + 0x2 = 9
    #   3: 0x5 + 0x5 + 0x1.5... = 0 + 0 + 0x1.5 = 0   4: 2x0.5 = 1
    expected = {1: (1, 3, 2, 1, 0, 5, 5, 9), 2: (1, 3, 2, 1, 0, 5, 5, 9),
                3: (3, 3, 1, 0, 2, 2, Decimal("1.5"), 0), 4: (4, 3, 0, 0, 3, 0,
                                                           Decimal("0.5"), 1)}
    got = {row.team.seed: (row.rank, row.played, row.won, row.drawn, row.lost,
                           row.match_points, row.board_points,
                           row.tiebreaks["team_sonneborn_berger"]) for row in rows}
    assert got == expected
    assert [row.team.seed for row in rows] == [1, 2, 3, 4]
    # every board game was rated: both players' ratings moved
    change_count = RatingChange.objects.filter(
        game__pairing__round__tournament=world.division.tournament).count()
    assert change_count == 2 * 12  # 6 matches x 2 boards, one game each, two players
    listed = selectors.season_rating_list(world.season)
    assert len(listed) == 8  # the regulars (the reserves did not play)
    assert all(row.games == 3 and row.before != row.after for row in listed)
    # team pages: each player's board results
    team = SeasonTeam.objects.get(division=world.division, seed=1)
    season = selectors.team_season(team)
    assert sum(p.points for p in season.players) == 5
    assert sum(p.played for p in season.players) == 6


def test_season_finish_promotion_relegation_and_next(club_a: Any, organizer: Any,
                                                    lineups_in: Any,
                                                    record_boards: Any) -> None:
    from players.models import Team
    from tests.integration.leagues.conftest import World
    from tests.worlds import people

    league = services.league_create(actor=organizer, host=club_a, name="Two Levels",
                                    slug="two-levels", game="kugamai", boards=2)
    season = services.season_create(actor=organizer, league=league, name="Spring")
    top = services.division_create(actor=organizer, season=season, name="Top",
                                   system="team_round_robin", relegate=1)
    low = services.division_create(actor=organizer, season=season, name="Low", level=2,
                                   system="team_round_robin", promote=1)
    worlds = {top.pk: World(league, season, top), low.pk: World(league, season, low)}
    for index, division in enumerate([top, top, low, low]):
        team = Team.objects.create(name=f"Club {index}", club=club_a)
        players = people(club_a, [f"C{index} P{n}" for n in range(2)])
        entry = services.team_enter(actor=organizer, division=division, team=team)
        services.roster_set(actor=organizer, season_team=entry, players=players)
        worlds[division.pk].players[entry.pk] = players
    with pytest.raises(ApplicationError):
        services.season_finish(actor=organizer, season=season)  # still planning
    services.season_start(actor=organizer, season=season)
    with pytest.raises(ApplicationError, match="unfinished"):
        services.season_finish(actor=organizer, season=season)
    for division in (top, low):
        division.refresh_from_db()
        worlds[division.pk].division = division
        match = TeamMatch.objects.get(division=division)
        _play(worlds[division.pk], lineups_in, record_boards, match, {1: "H", 2: "H"})
    season = services.season_finish(actor=organizer, season=season)
    moved = {t.team.name: (t.final_rank, t.movement) for t in season.teams.all()}
    assert sorted(moved.values()) == [(1, ""), (1, "promoted"), (2, ""), (2, "relegated")]
    top.refresh_from_db()
    assert top.tournament is not None and top.tournament.status == "finished"
    from django.utils import translation

    from leagues.history import describe
    from leagues.models import LeagueEvent

    events = list(LeagueEvent.objects.filter(league=league))
    assert any(describe(e).endswith(": Promoted.") for e in events)
    with translation.override("ru"):
        assert any(describe(e).endswith(": Повышен.") for e in events)
    following = services.season_next(actor=organizer, season=season, name="Autumn")
    assert following.number == 2 and following.status == "planning"
    placed = {t.team.name: t.division.name for t in following.teams.select_related(
        "division", "team")}
    before = {t.team.name: (t.division.name, t.movement) for t in season.teams.select_related(
        "division", "team")}
    for name, (was_in, movement) in before.items():
        assert placed[name] == {"promoted": "Top", "relegated": "Low"}.get(movement, was_in)
    assert not following.roster_entries.exists()
    assert Season.objects.filter(league=league).count() == 2
