"""A 12-team Swiss of 5 rounds and a team knockout, through the services."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from core.errors import ApplicationError
from leagues import selectors, services
from leagues.models import TeamMatch
from tournaments.systems import Settings, State, system_of
from tournaments.systems.base import Entry
from tournaments.systems.teams import TeamHistory, TeamRound, team_swiss_input

pytestmark = pytest.mark.django_db


def _results(world: Any, match: TeamMatch, rng: random.Random, lineups_in: Any,
             record_boards: Any) -> str:
    lineups_in(world, match)
    record_boards(match, {b: rng.choice("aabd") for b in range(1, world.league.boards + 1)})
    view = selectors.match_result(match)
    assert view.complete
    if view.home_points == view.away_points:
        return "D"
    return "W" if view.home_points > view.away_points else "L"


def _swiss_input(teams: list[TeamHistory], _number: int) -> Any:
    return team_swiss_input(teams, 5)


def test_twelve_team_swiss_of_five_rounds(make_league: Any, organizer: Any,
                                          lineups_in: Any, record_boards: Any) -> None:
    world = make_league(teams=12, boards=2, roster=2, system="team_swiss", rounds_planned=5)
    rng = random.Random(36)
    history: dict[int, list[TeamRound]] = {t.pk: [] for t in world.teams}
    for number in range(1, 6):
        if number > 1:
            created = services.division_pair_next(actor=organizer, division=world.division)
            assert len(created) == 6
        matches: list[Any] = list(
            TeamMatch.objects.filter(division=world.division, round_number=number)
            .select_related("home", "away").order_by("pk"))
        # the pure team Swiss, fed the same histories, pairs the same round
        teams = [TeamHistory(t.pk, None, tuple(history[t.pk])) for t in world.teams]
        state = State(Settings(rounds_planned=5), tuple(Entry(t.pk, None) for t in world.teams),
                      paired_rounds=number - 1,
                      pairing_input=partial(_swiss_input, teams))
        expected = {(p.first, p.second) for p in system_of("team_swiss").plan_round(state,
                                                                                   number)}
        assert {(m.home_id, m.away_id) for m in matches} == expected
        for match in matches:
            outcome = _results(world, match, rng, lineups_in, record_boards)
            back = {"W": "L", "L": "W", "D": "D"}[outcome]
            history[match.home_id].append(TeamRound(match.away_id, True, outcome))  # type: ignore[arg-type]
            history[match.away_id].append(TeamRound(match.home_id, False, back))  # type: ignore[arg-type]
    met = [tuple(sorted((m.home_id, m.away_id or 0))) for m in
           TeamMatch.objects.filter(division=world.division)]
    assert len(met) == 30 and len(set(met)) == 30  # nobody met twice
    with pytest.raises(ApplicationError, match="Every round"):
        services.division_pair_next(actor=organizer, division=world.division)
    rows = selectors.season_table(world.division)
    assert sum(row.match_points for row in rows) == 2 * 30


def test_team_knockout_with_a_lot(make_league: Any, organizer: Any, lineups_in: Any,
                                  record_boards: Any) -> None:
    world = make_league(teams=4, boards=2, roster=2, system="team_knockout")
    first, second = list[Any](TeamMatch.objects.filter(division=world.division,
                                                      round_number=1))
    assert first.bracket_match and second.bracket_match
    lineups_in(world, first)
    record_boards(first, {1: "a", 2: "a"})  # 1-1: board count decides (board 1's winner)
    lineups_in(world, second)
    record_boards(second, {1: "d", 2: "d"})  # level on everything: a lot
    with pytest.raises(ApplicationError, match="lot"):
        services.division_pair_next(actor=organizer, division=world.division)
    services.match_winner_set(actor=organizer, match=second, winner=second.away)
    final = services.division_pair_next(actor=organizer, division=world.division)
    finalists = {t for m in final for t in (m.home_id, m.away_id)}
    assert second.away_id in finalists
    assert first.home_id in finalists  # home's board 1 win counts more (board count)
