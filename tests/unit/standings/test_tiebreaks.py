"""Tie-break values checked by hand (see the tournaments in records.py)."""

from __future__ import annotations

import pytest

from tests.unit.standings.records import round_robin, swiss_six, swiss_unplayed
from tournaments.standings import StandingsError, TieBreakOptions, available_tiebreaks
from tournaments.standings.context import Context
from tournaments.standings.record import TournamentRecord
from tournaments.standings.tiebreaks import apply_modifier, get_tiebreak


def values(record: TournamentRecord, name: str, **options: object) -> dict[object, object]:
    context = Context(record, TieBreakOptions(**options))  # type: ignore[arg-type]
    column = get_tiebreak(name).compute(context)
    return dict(zip(context.ids, column, strict=True))


# -- a Swiss with every game played --------------------------------------------------------

SWISS_SIX_EXPECTED = {
    "BH": {1: 5.0, 2: 4.0, 3: 5.0, 4: 4.0, 5: 6.0, 6: 3.0},
    "BH-C1": {1: 4.0, 2: 3.5, 3: 4.0, 4: 3.5, 5: 5.0, 6: 2.5},
    "BH-C2": {1: 2.5, 2: 2.5, 3: 2.5, 4: 2.5, 5: 2.5, 6: 1.5},
    "BH-M1": {1: 1.5, 2: 1.0, 3: 1.5, 4: 1.0, 5: 2.5, 6: 1.0},
    "SB": {1: 3.75, 2: 2.75, 3: 0.5, 4: 1.0, 5: 1.0, 6: 1.0},
    "SB-C1": {1: 2.75, 2: 2.25, 3: 0.0, 4: 0.5, 5: 0.0, 6: 0.75},  # cut by opponent score
    "WIN": {1: 2, 2: 2, 3: 0, 4: 1, 5: 1, 6: 0},
    "WON": {1: 2, 2: 2, 3: 0, 4: 1, 5: 1, 6: 0},
    "BPG": {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 2},
    "BWG": {1: 0, 2: 2, 3: 0, 4: 0, 5: 1, 6: 0},
    "FMG": {1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 1},
    "PS": {1: 5.0, 2: 5.0, 3: 1.5, 4: 2.5, 5: 2.0, 6: 2.0},
    "KS": {1: 1.5, 2: 0.5, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.5},
    "ARO": {1: 1733, 2: 1800, 3: 1700, 4: 1767, 5: 1800, 6: 1700},
    "TPR": {1: 2006, 2: 2073, 3: 1427, 4: 1767, 5: 1675, 6: 1575},
}


@pytest.mark.parametrize("name", sorted(SWISS_SIX_EXPECTED))
def test_swiss_six(name: str) -> None:
    assert values(swiss_six(), name) == SWISS_SIX_EXPECTED[name]


def test_game_points_option_with_three_one_zero_scoring() -> None:
    football: dict[str, float] = {"win": 3, "draw": 1, "loss": 0}
    assert values(swiss_six(football), "BH", game_points=True) == SWISS_SIX_EXPECTED["BH"]
    assert values(swiss_six(football), "SB", game_points=True) == SWISS_SIX_EXPECTED["SB"]
    # with the tournament's own points: 1 met 4 (4 points), 2 (7) and 5 (3)
    assert values(swiss_six(football), "BH")[1] == 14.0
    assert values(swiss_six(football), "WIN") == SWISS_SIX_EXPECTED["WIN"]


# -- unplayed rounds in a Swiss (article 16) ---------------------------------------------------


def test_unplayed_categories_and_adjusted_scores() -> None:
    context = Context(swiss_unplayed(), TieBreakOptions())
    category = dict(zip(context.ids, context.category, strict=True))
    assert category == {
        "A": [0, 2, 0],  # forfeit win
        "B": [0, 0, 0],
        "C": [0, 4, 5],  # forfeit loss; zero-point bye in the last round
        "D": [0, 3, 0],  # requested bye followed by a game
        "E": [1, 0, 0],  # pairing-allocated bye
    }
    adjusted = dict(zip(context.ids, context.adjusted, strict=True))
    # C scored 0.5; its last-round bye counts as a draw for its opponents
    assert adjusted == {"A": 2.5, "B": 0.0, "C": 1.0, "D": 2.0, "E": 2.5}


UNPLAYED_2024 = {
    # own unplayed rounds meet a dummy with the entrant's own score
    "BH": {"A": 5.0, "B": 7.0, "C": 3.0, "D": 3.0, "E": 5.0},
    # D's requested bye (a VUR, dummy 2.0) is cut rather than B's 0
    "BH-C1": {"A": 5.0, "B": 5.0, "C": 2.5, "D": 1.0, "E": 5.0},
    "BH-M1": {"A": 2.5, "B": 2.5, "C": 0.5, "D": 0.0, "E": 2.5},
    "SB": {"A": 3.75, "B": 0.0, "C": 1.0, "D": 1.5, "E": 3.75},
    "SB-C1": {"A": 3.75, "B": 0.0, "C": 1.0, "D": 0.5, "E": 3.75},
    "WIN": {"A": 2, "B": 0, "C": 0, "D": 1, "E": 2},
    "WON": {"A": 1, "B": 0, "C": 0, "D": 1, "E": 1},
}


@pytest.mark.parametrize("name", sorted(UNPLAYED_2024))
def test_unplayed_rounds_2024_rules(name: str) -> None:
    assert values(swiss_unplayed(), name) == UNPLAYED_2024[name]


UNPLAYED_2026 = {
    # forfeit dummies capped at the scheduled opponent's adjusted score (A: C's 1.0),
    # other dummies at a draw per round (1.5): E's bye, D's requested bye
    "BH": {"A": 3.5, "B": 7.0, "C": 3.0, "D": 2.5, "E": 4.0},
    "BH-C1": {"A": 3.5, "B": 5.0, "C": 2.5, "D": 1.0, "E": 4.0},
    "SB": {"A": 2.25, "B": 0.0, "C": 1.0, "D": 1.25, "E": 2.75},
}


@pytest.mark.parametrize("name", sorted(UNPLAYED_2026))
def test_unplayed_rounds_2026_rules(name: str) -> None:
    assert values(swiss_unplayed(), name, rules="2026") == UNPLAYED_2026[name]


def test_sonneborn_berger_cut_exception_differs_between_revisions() -> None:
    # a win over a weak opponent (0.5 x 1) and a forfeit loss (VUR, contributes 0)
    elements = [(0.5, 0.5, False), (0.0, 3.0, True), (2.0, 2.0, False)]
    assert apply_modifier(elements, 1, 0, "2024", True) == 2.5  # the VUR goes
    assert apply_modifier(elements, 1, 0, "2026", True) == 2.0  # the higher of the two
    assert apply_modifier([], 2, 2, "2024", False) == 0


# -- a round robin with a forfeit (article 15.2) ----------------------------------------------


def rr_four() -> TournamentRecord:
    return round_robin(
        4,
        {
            (1, 4, 1): "1",
            (2, 3, 1): "=",
            (3, 4, 1): "1",
            (1, 2, 1): "=",
            (2, 4, 1): "+",
            (3, 1, 1): "1",
        },
        ratings={1: 2000, 2: 1900, 3: 1800, 4: 1700},
    )


RR_FOUR_EXPECTED = {
    "SB": {1: 1.0, 2: 2.0, 3: 2.5, 4: 0.0},
    "KS": {1: 0.5, 2: 1.0, 3: 1.5, 4: 0.0},
    "WIN": {1: 1, 2: 1, 3: 2, 4: 0},
    "WON": {1: 1, 2: 1, 3: 2, 4: 0},  # the forfeit win counts as a game won
    "BPG": {1: 1, 2: 1, 3: 2, 4: 1},  # the forfeit loss does not count as a game
    "FMG": {1: 2, 2: 2, 3: 1, 4: 1},
    "ARO": {1: 1800, 2: 1900, 3: 1867, 4: 1900},  # forfeits never count for ratings
    "TPR": {1: 1800, 2: 1900, 3: 2140, 4: 1100},
    "BH": {1: 4.5, 2: 4.0, 3: 3.5, 4: 6.0},
}


@pytest.mark.parametrize("name", sorted(RR_FOUR_EXPECTED))
def test_round_robin_with_forfeit(name: str) -> None:
    assert values(rr_four(), name) == RR_FOUR_EXPECTED[name]


def test_round_robin_bye_contributes_nothing() -> None:
    record = round_robin(3, {(2, 3, 1): "1", (3, 1, 1): "=", (1, 2, 1): "0"})
    # 2 beat 3 and 1: 2 points; 3 drew 1: 0.5; 1: 0.5. Byes give no dummy in a round robin.
    assert values(record, "SB") == {1: 0.25, 2: 1.0, 3: 0.25}
    assert values(record, "BH") == {1: 2.5, 2: 1.0, 3: 2.5}


# -- registry -------------------------------------------------------------------------------


def test_registry_lookup_by_key_or_abbreviation() -> None:
    assert get_tiebreak("bh-c1").key == "buchholz_cut1"
    assert get_tiebreak("sonneborn_berger").abbreviation == "SB"
    with pytest.raises(StandingsError, match="unknown tie-break"):
        get_tiebreak("XYZ")
    listed = {item["abbreviation"] for item in available_tiebreaks()}
    assert {"BH", "BH-C1", "BH-M1", "SB", "DE", "WIN", "WON", "BPG", "KS", "ARO", "TPR"} <= listed
    assert all(
        set(item) == {"key", "name", "abbreviation", "direction"} for item in available_tiebreaks()
    )
