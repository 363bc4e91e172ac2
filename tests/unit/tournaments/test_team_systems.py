"""The team systems: registry facts, round robin legs, team Swiss input, team knockout."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.standings.team_matches import BoardResult, TeamMatchResult
from tournaments.systems import (
    SYSTEMS,
    Entry,
    PastPairing,
    PlanError,
    Settings,
    State,
    TeamKnockout,
    system_of,
)
from tournaments.systems.teams import (
    TeamHistory,
    TeamRound,
    TeamSwissScoring,
    team_swiss_input,
    team_swiss_trf,
)
from tournaments.trf import read_trf

TEAM_SYSTEMS = ("team_round_robin", "team_double_round_robin", "team_swiss", "team_knockout")


def teams(count: int, **withdrawn: int) -> tuple[Entry, ...]:
    """Teams 11.. seeded 1..count; ``withdrawn={"t3": 2}``: seed 3 leaves from round 2."""
    return tuple(Entry(10 + seed, seed, withdrawn_from_round=withdrawn.get(f"t{seed}"))
                 for seed in range(1, count + 1))


def test_the_team_systems_are_registered_and_pair_teams() -> None:
    assert all(name in SYSTEMS for name in TEAM_SYSTEMS)
    assert [name for name, system in SYSTEMS.items() if system.pairs_teams] == list(TEAM_SYSTEMS)
    # its boards may be drawn: the team match's winner comes from match_winner
    assert not system_of("team_knockout").needs_winner
    assert system_of("team_swiss").needs_rounds_planned
    assert system_of("team_double_round_robin").table_kind == "crosstable"
    assert "board_points" in system_of("team_round_robin").default_tiebreaks


def test_double_round_robin_second_leg_swaps_home_and_away() -> None:
    system = system_of("team_double_round_robin")
    state = State(Settings(), teams(4))
    assert system.rounds_remaining(state) == 6
    legs = [system.plan_round(state, number) for number in range(1, 7)]
    first = {(p.first, p.second) for round_ in legs[:3] for p in round_}
    second = {(p.first, p.second) for round_ in legs[3:] for p in round_}
    # Each pair meets once in each leg, at the other team's home in the second.
    assert second == {(away, home) for home, away in first}
    assert len(first) == 6 and len(first | second) == 12
    # Round 4 opens the second leg with round 1's pairs reversed.
    assert [(p.first, p.second) for p in legs[3]] == [(p.second, p.first) for p in legs[0]]
    with pytest.raises(PlanError):
        system.plan_round(state, 7)


def test_single_round_robin_gives_the_odd_team_a_bye_and_forfeits_a_withdrawn_team() -> None:
    system = system_of("team_round_robin")
    planned = system.plan_round(State(Settings(), teams(5)), 1)
    assert planned[-1].second is None and planned[-1].outcome == "bye"
    planned = system.plan_round(State(Settings(), teams(4, t4=1)), 1)
    against = next(p for p in planned if 14 in (p.first, p.second))
    assert against.outcome in ("a_forfeit_win", "b_forfeit_win")


def history(team: int, rating: int | None, *rounds: tuple[int | None, bool, str]) -> TeamHistory:
    return TeamHistory(team, rating, tuple(TeamRound(o, h, r) for o, h, r in rounds))  # type: ignore[arg-type]


def test_team_swiss_document_writes_match_points_home_as_white() -> None:
    four = [history(7, 1500, (8, True, "W")), history(8, 1900, (7, False, "L")),
            history(9, None, (10, False, "D")), history(10, 1700, (9, True, "D"))]
    document = team_swiss_trf(four, 5)
    trf = read_trf(document.text)
    assert document.team_of == {1: 8, 2: 10, 3: 7, 4: 9}  # by rating, unrated last
    assert [p.points for p in trf.players] == ["0.0", "1.0", "2.0", "1.0"]
    assert trf.points.win == 20 and trf.points.draw == 10 and trf.points.pab == 20
    seven = trf.players[2]
    assert (seven.rounds[0].opponent, seven.rounds[0].colour, seven.rounds[0].result) == (
        1, "w", "1")


def test_team_swiss_plans_from_the_league_histories_and_leaves_an_absent_team_out() -> None:
    six = [TeamHistory(20 + n, 2000 - 10 * n) for n in range(1, 7)]
    six[5] = TeamHistory(26, 1940, absent=True)
    state = State(Settings(rounds_planned=3), tuple(Entry(t.id, None) for t in six),
                  pairing_input=lambda _: team_swiss_input(six, 3))
    planned = system_of("team_swiss").plan_round(state, 1)
    assert [(p.first, p.second) for p in planned] == [(21, 23), (24, 22), (25, None)]
    assert planned[-1].outcome == "bye"


def test_match_points_pair_as_the_standard_points_do() -> None:
    """2/1/0 match points (``BB*`` lines) pair exactly as 1/½/0 with halved scores."""
    rounds = [history(1, 2000, (2, True, "W"), (3, False, "D")),
              history(2, 1990, (1, False, "L"), (4, True, "W")),
              history(3, 1980, (4, True, "D"), (1, True, "D")),
              history(4, 1970, (3, False, "D"), (2, False, "L")),
              history(5, 1960, (6, True, "W"), (None, False, "bye")),
              history(6, 1950, (5, False, "L"), (7, True, "W")),
              history(7, 1940, (None, False, "bye"), (6, False, "L"))]
    standard = TeamSwissScoring(win=Decimal(1), draw=Decimal("0.5"), bye=Decimal(1))
    match_points = team_swiss_input(rounds, 5)
    classic = team_swiss_input(rounds, 5, standard)
    state = State(Settings(rounds_planned=5), tuple(Entry(t.id, None) for t in rounds),
                  paired_rounds=2)
    system = system_of("team_swiss")
    one = system.plan_round(State(state.settings, state.entrants, paired_rounds=2,
                                  pairing_input=lambda _: match_points), 3)
    other = system.plan_round(State(state.settings, state.entrants, paired_rounds=2,
                                    pairing_input=lambda _: classic), 3)
    assert one == other and len(one) == 4


def test_team_knockout_plays_the_bracket_and_decides_level_matches_by_board_count() -> None:
    system = system_of("team_knockout")
    assert isinstance(system, TeamKnockout)
    state = State(Settings(), teams(4))
    planned = system.plan_round(state, 1)
    assert [(p.first, p.second) for p in planned] == [(11, 14), (12, 13)]
    level = TeamMatchResult(1, 11, 14, tuple(
        BoardResult(n, Decimal(p), 1 - Decimal(p)) for n, p in enumerate((0, 0, 1, 1), 1)))
    assert system.match_winner(level, 4) == 14  # BC 3 against 7
    decided = State(Settings(), teams(4), (
        PastPairing(11, 14, planned[0].bracket_match, winner=14),
        PastPairing(12, 13, planned[1].bracket_match, winner=12)), paired_rounds=1)
    final = system.plan_round(decided, 2)
    assert [(p.first, p.second, p.bracket_match) for p in final] == [(14, 12, "W2-1")]
    assert system.rounds_remaining(decided) == 1
    with_third = State(Settings(third_place_match=True), decided.entrants, decided.pairings,
                       paired_rounds=1)
    assert [(p.first, p.second) for p in system.plan_round(with_third, 2)] == [
        (14, 12), (11, 13)]
