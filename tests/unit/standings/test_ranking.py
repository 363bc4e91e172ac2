"""Ordering, shared ranks and Direct Encounter."""

from __future__ import annotations

import pytest

from tests.unit.standings.records import build, round_robin, swiss_six, swiss_unplayed
from tournaments.standings import StandingsError, TieBreakOptions, compute_standings


def ranking(rows):  # type: ignore[no-untyped-def]
    return [(row.rank, row.entrant) for row in rows]


def test_points_then_tiebreaks() -> None:
    rows = compute_standings(swiss_six(), ["BH-C1", "SB", "DE"])
    assert ranking(rows) == [(1, 1), (2, 2), (3, 4), (4, 5), (5, 6), (6, 3)]
    assert rows[0].points == 2.5
    assert rows[0].tiebreaks == {
        "buchholz_cut1": 4.0,
        "sonneborn_berger": 3.75,
        "direct_encounter": None,
    }
    assert rows[0].to_dict()["tiebreaks"]["buchholz_cut1"] == 4.0


def test_full_ties_share_the_rank() -> None:
    rows = compute_standings(swiss_six(), ["DE"])
    # 1 and 2 drew each other; 5 beat 6
    assert ranking(rows) == [(1, 1), (1, 2), (3, 4), (4, 5), (5, 6), (6, 3)]
    values = {row.entrant: row.tiebreaks["direct_encounter"] for row in rows}
    assert values == {1: 0.5, 2: 0.5, 4: None, 5: 1.0, 6: 0.0, 3: None}


def test_no_tiebreaks_means_ties_on_points() -> None:
    rows = compute_standings(swiss_unplayed())
    assert ranking(rows) == [(1, "A"), (1, "E"), (3, "D"), (4, "C"), (5, "B")]


def test_unplayed_shared_after_all_tiebreaks() -> None:
    rows = compute_standings(swiss_unplayed(), ["DE", "BH", "SB"])
    assert ranking(rows)[:2] == [(1, "A"), (1, "E")]


def test_ascending_tiebreak() -> None:
    rows = compute_standings(swiss_six(), ["FMG"])
    # 1 (two first moves) and 2 (one): fewer first moves ranks higher
    assert ranking(rows)[:2] == [(1, 2), (2, 1)]


def test_accepts_plain_dicts_and_rejects_bad_requests() -> None:
    rows = compute_standings(swiss_six().to_dict(), ["BH"])
    assert rows[0].entrant == 1
    with pytest.raises(StandingsError, match="twice"):
        compute_standings(swiss_six(), ["BH", "buchholz"])
    with pytest.raises(StandingsError, match="unknown tie-break"):
        compute_standings(swiss_six(), ["Bogus"])
    with pytest.raises(StandingsError, match="rules"):
        TieBreakOptions(rules="1999")  # type: ignore[arg-type]


# -- Direct Encounter ------------------------------------------------------------------------


def test_direct_encounter_is_reapplied_inside_a_tied_group() -> None:
    # A, B, C, D all on 2 points; among themselves A 2, B 2, C 1, D 1;
    # A beat B, D beat C. X and Y drew each other and lead on 3.5.
    record = round_robin(
        6,
        {
            (1, 2, 1): "1", (1, 4, 1): "1", (1, 3, 1): "0",
            (2, 3, 1): "1", (2, 4, 1): "1", (3, 4, 1): "0",
            (5, 1, 1): "1", (5, 2, 1): "1", (5, 3, 1): "0", (5, 4, 1): "1",
            (6, 1, 1): "1", (6, 2, 1): "1", (6, 3, 1): "1", (6, 4, 1): "0",
            (5, 6, 1): "=",
        },
    )  # fmt: skip
    rows = compute_standings(record, ["DE"])
    assert ranking(rows) == [(1, 5), (1, 6), (3, 1), (4, 2), (5, 4), (6, 3)]
    values = {row.entrant: row.tiebreaks["direct_encounter"] for row in rows}
    assert values == {5: 0.5, 6: 0.5, 1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0}


def test_direct_encounter_cycle_stays_tied_then_next_tiebreak() -> None:
    # 1 beat 2, 2 beat 3, 3 beat 1, everyone drew 4: all on 1.5
    record = round_robin(
        4,
        {(1, 2, 1): "1", (2, 3, 1): "1", (3, 1, 1): "1",
         (1, 4, 1): "=", (2, 4, 1): "=", (3, 4, 1): "="},
        ratings={1: 1500, 2: 1600, 3: 1700, 4: 1800},
    )  # fmt: skip
    rows = compute_standings(record, ["DE"])
    assert {row.rank for row in rows} == {1}
    rows = compute_standings(record, ["DE", "ARO"])
    # ARO: 1 met 2, 3, 4 -> 1700; 2 -> 1667; 3 -> 1633; 4 -> 1600
    assert ranking(rows) == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_direct_encounter_double_round_robin_averages_the_two_games() -> None:
    record = round_robin(
        4,
        {
            (1, 2, 1): "1", (1, 2, 2): "=",
            (1, 3, 1): "0", (1, 3, 2): "0",
            (1, 4, 1): "0", (1, 4, 2): "=",
            (2, 3, 1): "1", (2, 3, 2): "0",
            (2, 4, 1): "0", (2, 4, 2): "=",
            (3, 4, 1): "=", (3, 4, 2): "=",
        },
        double=True,
    )  # fmt: skip
    rows = compute_standings(record, ["DE"])
    assert ranking(rows) == [(1, 3), (1, 4), (3, 1), (4, 2)]
    values = {row.entrant: row.tiebreaks["direct_encounter"] for row in rows}
    assert values == {1: 0.75, 2: 0.25, 3: 0.5, 4: 0.5}


def incomplete_swiss():  # type: ignore[no-untyped-def]
    """P beat Q and R, who never met; P, Q, R all on 2 points."""
    return build(
        {
            "P": (None, [("w", "Q", "1"), ("w", "R", "1"), ("b", "S", "0")]),
            "Q": (None, [("b", "P", "0"), ("w", "U", "1"), ("w", "T", "1")]),
            "R": (None, [("w", "T", "1"), ("b", "P", "0"), ("w", "U", "1")]),
            "S": (None, [("w", "U", "1"), ("w", "T", "1"), ("w", "P", "1")]),
            "T": (None, [("b", "R", "0"), ("b", "S", "0"), ("b", "Q", "0")]),
            "U": (None, [("b", "S", "0"), ("b", "Q", "0"), ("b", "R", "0")]),
        }
    )


def test_direct_encounter_swiss_leader_whatever_the_missing_games() -> None:
    rows = compute_standings(incomplete_swiss(), ["DE"])
    assert ranking(rows) == [(1, "S"), (2, "P"), (3, "Q"), (3, "R"), (5, "T"), (5, "U")]


def test_direct_encounter_swiss_no_leader_when_missing_games_could_change_it() -> None:
    # P beat Q, Q beat T, T beat R; the other games of the tied four are missing,
    # so nobody is sure to stay alone at the top: all four stay tied
    record = build(
        {
            "P": (None, [("w", "Q", "1"), ("b", "S", "0")]),
            "Q": (None, [("b", "P", "0"), ("w", "T", "1")]),
            "R": (None, [("w", "T", "0"), (None, None, "B")]),
            "S": (None, [(None, None, "B"), ("w", "P", "1")]),
            "T": (None, [("b", "R", "1"), ("b", "Q", "0")]),
        }
    )
    rows = compute_standings(record, ["DE"])
    assert ranking(rows) == [(1, "S"), (2, "P"), (2, "Q"), (2, "R"), (2, "T")]


def test_direct_encounter_forfeits_excluded_in_swiss_unless_asked() -> None:
    record = build(
        {
            "A": (None, [(None, "B", "+"), ("w", "C", "0")]),
            "B": (None, [(None, "A", "-"), ("w", "D", "1")]),
            "C": (None, [("w", "D", "1"), ("b", "A", "1")]),
            "D": (None, [("b", "C", "0"), ("b", "B", "0")]),
        }
    )
    assert ranking(compute_standings(record, ["DE"]))[1:3] == [(2, "A"), (2, "B")]
    with_forfeits = TieBreakOptions(direct_encounter_forfeits=True)
    assert ranking(compute_standings(record, ["DE"], with_forfeits))[1:3] == [(2, "A"), (3, "B")]


def test_direct_encounter_forfeits_count_in_round_robin() -> None:
    # 1 beat 2 by forfeit; 2 beat 3, 3 beat 1: all on 1 point, cycle
    record = round_robin(3, {(1, 2, 1): "+", (2, 3, 1): "1", (3, 1, 1): "1"})
    rows = compute_standings(record, ["DE"])
    assert {row.rank for row in rows} == {1}
    values = {row.entrant: row.tiebreaks["direct_encounter"] for row in rows}
    assert values == {1: 1.0, 2: 1.0, 3: 1.0}
