"""The tournament systems over plain data: planning, rounds remaining, facts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.marked import MarkedError
from tournaments.systems import (
    SYSTEMS,
    Entry,
    PastPairing,
    PlanError,
    Planned,
    Settings,
    State,
    SwissInput,
    system_of,
)
from tournaments.trf import TrfPlayer, TrfRound, TrfTournament


def entries(count: int, **withdrawn: int) -> tuple[Entry, ...]:
    """Entrants 101.. seeded 1..count; ``withdrawn={"e3": 2}``: seed 3 leaves from round 2."""
    return tuple(Entry(100 + seed, seed, withdrawn_from_round=withdrawn.get(f"e{seed}"))
                 for seed in range(1, count + 1))


def test_round_robin_plans_the_berger_round_with_the_rest_round_last() -> None:
    planned = system_of("round_robin").plan_round(State(Settings(), entries(5)), 1)
    assert planned[-1] == Planned(101, None, "pairing_allocated", outcome="bye")
    assert all(p.second is not None for p in planned[:-1])
    assert len(planned) == 3


def test_fixed_schedules_forfeit_a_withdrawn_entrants_match() -> None:
    planned = system_of("round_robin").plan_round(State(Settings(), entries(4, e4=1)), 1)
    against = next(p for p in planned if 104 in (p.first, p.second))
    assert against.outcome == ("b_forfeit_win" if against.first == 104 else "a_forfeit_win")
    assert all(p.outcome == "pending" for p in planned if p is not against)


def test_round_robin_counts_and_bounds_its_rounds() -> None:
    single, double = system_of("round_robin"), system_of("double_round_robin")
    assert single.rounds_remaining(State(Settings(), entries(5), paired_rounds=2)) == 3
    assert double.rounds_remaining(State(Settings(), entries(4))) == 6
    assert single.max_entrants(500, 10) == 10
    assert double.max_entrants(500, 10) == 6
    assert single.bye_points(Decimal("1")) == 0


def test_round_robin_refuses_a_round_beyond_its_schedule() -> None:
    with pytest.raises(PlanError) as caught:
        system_of("round_robin").plan_round(State(Settings(), entries(4)), 4)
    assert str(caught.value) == ("All 3 rounds of the round robin are paired: finish the "
                                 "tournament.")
    assert caught.value.plural and caught.value.params == {"count": 3}


def test_knockout_plays_the_bracket_and_counts_its_rounds() -> None:
    knockout = system_of("knockout")
    state = State(Settings(), entries(4))
    first = knockout.plan_round(state, 1)
    assert [(p.first, p.second, p.bracket_match) for p in first] == [
        (101, 104, "W1-1"), (102, 103, "W1-2")]
    assert knockout.rounds_remaining(state) == 2
    played = State(Settings(), entries(4),
                   (PastPairing(101, 104, "W1-1", 101), PastPairing(102, 103, "W1-2", 102)),
                   paired_rounds=1)
    assert [(p.first, p.second) for p in knockout.plan_round(played, 2)] == [(101, 102)]
    assert knockout.rounds_remaining(played) == 1
    assert system_of("double_elimination").rounds_remaining(state) > 2


def test_swiss_pairs_the_shells_document_and_appends_requested_byes() -> None:
    players = [TrfPlayer(n, f"Player {n}", rating=2000 - n) for n in range(1, 6)]
    players[4] = TrfPlayer(5, "Player 5", rating=1995, rounds=(TrfRound(None, "-", "H"),))
    document = TrfTournament(players=players, trailer=["XXR 3", "XXC white1"])
    swiss_input = SwissInput(document, {n: 100 + n for n in range(1, 6)},
                             requested={105: "half_point"})
    state = State(Settings(rounds_planned=3), entries(5), pairing_input=lambda n: swiss_input)
    planned = system_of("swiss").plan_round(state, 1)
    assert [(p.first, p.second) for p in planned] == [(101, 103), (104, 102), (105, None)]
    assert planned[-1].bye_kind == "half_point"
    with pytest.raises(MarkedError, match="All 3 planned rounds"):
        system_of("swiss").plan_round(state, 4)


def test_facts_of_each_system() -> None:
    facts = {name: (s.table_kind, s.needs_winner, s.correction, s.late_entries,
                    s.needs_rounds_planned, s.third_place_match)
             for name, s in SYSTEMS.items()}
    assert facts == {
        "round_robin": ("crosstable", False, "warn", False, False, False),
        "double_round_robin": ("crosstable", False, "warn", False, False, False),
        "swiss": ("round_by_round", False, "warn", True, True, False),
        "knockout": ("bracket", True, "keep_winner", False, False, True),
        "double_elimination": ("bracket", True, "keep_winner", False, False, False),
        "team_round_robin": ("crosstable", False, "warn", False, False, False),
        "team_double_round_robin": ("crosstable", False, "warn", False, False, False),
        "team_swiss": ("round_by_round", False, "warn", False, True, False),
        "team_knockout": ("bracket", False, "keep_winner", False, False, True),
    }
    assert system_of("knockout").default_tiebreaks == ()
    assert system_of("swiss").default_tiebreaks[0] == "buchholz_cut1"
