"""The tournaments floor's services for board tournaments: boards given by a league."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError
from tournaments.services.entrants import board_entrants_ensure
from tournaments.services.rounds import GivenBoard, round_boards_add

pytestmark = pytest.mark.django_db


def test_round_boards_add_guards(make_league: Any, make_event: Any,
                                 organizer: Any) -> None:
    world = make_league(teams=2, boards=2, roster=3)
    tournament = world.division.tournament
    players = [p for team in world.teams for p in world.players[team.pk]]
    entrants = board_entrants_ensure(actor=organizer, tournament=tournament, players=players)
    a, b, c = (entrants[p.pk] for p in players[:3])
    ordinary = make_event("swiss", entrants=4, rounds_planned=3)
    stranger = ordinary.entrants.first()
    with pytest.raises(ApplicationError, match="board tournament"):
        round_boards_add(actor=organizer, tournament=ordinary, round_number=1,
                         boards=[GivenBoard(stranger, ordinary.entrants.last())])
    with pytest.raises(ApplicationError, match="not entered"):
        round_boards_add(actor=organizer, tournament=tournament, round_number=1,
                         boards=[GivenBoard(a, stranger)])
    with pytest.raises(ApplicationError, match="already has a board"):
        round_boards_add(actor=organizer, tournament=tournament, round_number=1,
                         boards=[GivenBoard(a, b), GivenBoard(a, c)])
    with pytest.raises(ApplicationError, match="at most"):
        round_boards_add(actor=organizer, tournament=tournament, round_number=10**6,
                         boards=[GivenBoard(a, b)])
    assert not tournament.rounds.exists()
    rows = round_boards_add(actor=organizer, tournament=tournament, round_number=2,
                            boards=[GivenBoard(a, b)])
    assert [r.board for r in rows] == [1]
    assert list(tournament.rounds.values_list("number", flat=True).order_by("number")) == [1, 2]
    more = round_boards_add(actor=organizer, tournament=tournament, round_number=2,
                            boards=[GivenBoard(c, entrants[players[3].pk])])
    assert [r.board for r in more] == [2]
    with pytest.raises(ApplicationError, match="already has a board"):
        round_boards_add(actor=organizer, tournament=tournament, round_number=2,
                         boards=[GivenBoard(b, entrants[players[4].pk])])
    again = board_entrants_ensure(actor=organizer, tournament=tournament, players=players)
    assert again == entrants  # entered once
