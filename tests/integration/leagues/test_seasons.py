"""Seasons through the services: start, schedules, first moves, boards, the table."""

from __future__ import annotations

from typing import Any

import pytest

from leagues import services
from leagues.models import MatchBoard, TeamMatch
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def test_double_round_robin_schedule_and_board_tournament(make_league: Any) -> None:
    world = make_league(teams=4)
    division = world.division
    tournament = division.tournament
    assert tournament.format == "team_double_round_robin"
    assert tournament.status == "running"
    assert tournament.entrants.count() == 12
    matches = list(TeamMatch.objects.filter(division=division).order_by("round_number", "pk"))
    assert len(matches) == 12  # 6 rounds of 2 matches
    assert {m.round_number for m in matches} == set(range(1, 7))
    assert {m.leg for m in matches if m.round_number <= 3} == {1}
    assert {m.leg for m in matches if m.round_number > 3} == {2}
    first_leg = {(m.home_id, m.away_id) for m in matches if m.leg == 1}
    second_leg = {(m.away_id, m.home_id) for m in matches if m.leg == 2}
    assert first_leg == second_leg  # the second leg swaps home and away


def test_boards_paired_when_second_lineup_arrives(make_league: Any, organizer: Any,
                                                   lineups_in: Any) -> None:
    world = make_league(teams=4, boards=4, roster=5)
    match: Any = TeamMatch.objects.filter(division=world.division, round_number=1).first()
    home = world.players[match.home_id]
    services.lineup_submit(actor=organizer, match=match, team=match.home, boards=home[:4])
    assert not MatchBoard.objects.filter(match=match).exists()
    away = world.players[match.away_id]
    services.lineup_submit(actor=organizer, match=match, team=match.away, boards=away[:4])
    boards: list[Any] = list(MatchBoard.objects.filter(match=match).select_related(
        "pairing__entrant_a__player", "pairing__entrant_b__player"))
    assert [b.home_moves_first for b in boards] == [True, False, True, False]
    assert [b.pairing.entrant_a.player for b in boards] == [home[0], away[1], home[2], away[3]]
    assert [b.pairing.board for b in boards] == [1, 2, 3, 4]
    match.refresh_from_db()
    assert match.board_round.number == 1 and match.board_round.is_released
    # the next match of the round takes the next board numbers
    other: Any = TeamMatch.objects.filter(division=world.division, round_number=1).exclude(
        pk=match.pk).get()
    lineups_in(world, other)
    assert sorted(Pairing.objects.filter(round=match.board_round).values_list(
        "board", flat=True)) == list(range(1, 9))


def test_second_leg_first_moves_alternate(make_league: Any, lineups_in: Any) -> None:
    world = make_league(teams=2, boards=2)
    first, second = list[Any](TeamMatch.objects.filter(division=world.division).order_by(
        "round_number"))
    lineups_in(world, first)
    lineups_in(world, second)
    leg_one = {b.board: b.pairing.entrant_a.player_id for b in first.boards.all()}
    leg_two = {b.board: b.pairing.entrant_a.player_id for b in second.boards.all()}
    team_one = {p.pk for p in world.players[first.home_id]}
    assert leg_one[1] in team_one and leg_one[2] not in team_one
    assert leg_two[1] not in team_one and leg_two[2] in team_one
