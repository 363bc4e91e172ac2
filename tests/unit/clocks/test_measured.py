"""Advice from measured games: every figure recomputed here from a fixture of recorded
games, by other means (cumulative sums per seat, all pairs of boards enumerated)."""

from __future__ import annotations

import itertools
import math

import pytest

from games.clocks.control import controls_for
from games.clocks.errors import ClockError
from games.clocks.measured import (
    MIN_MEASURED_GAMES,
    RecordedGame,
    measured_advice,
    nearest_rank,
)

PLAYED = controls_for("3")
#: Twelve measured games, each a list of move seconds (seat 0 first): quick ones, slow ones,
#: and one that ended with seat 1's flag under 3 minutes.
DURATIONS = [
    [5, 6, 4, 7, 5, 6],
    [10, 12, 11, 9, 10, 12, 8, 7],
    [20, 25, 15, 18, 22, 19],
    [2, 3, 2, 3, 2, 3, 2, 3, 2, 3],
    [30, 10, 30, 10],
    [8, 8, 8, 8, 8, 8, 8, 8],
    [15, 40, 12, 35, 10],
    [6, 6, 6],
    [12, 14, 16, 18, 20, 22],
    [45, 5, 50, 5],
    [9, 11, 13],
    [4, 90, 4, 89],
]
FLAGGED = {11: 1}  # the last game: seat 1 used 179 s of 180 and then lost on time


def fixture() -> list[RecordedGame]:
    return [RecordedGame(tuple(float(d) for d in durations), PLAYED, FLAGGED.get(index))
            for index, durations in enumerate(DURATIONS)]


def lost_on_time_by_hand(durations: list[int], budget: float) -> bool:
    """Sudden death of ``budget`` seconds: a seat whose running total reaches it flags."""
    totals = [0.0, 0.0]
    for index, used in enumerate(durations):
        totals[index % 2] += used
        if totals[index % 2] >= budget:
            return True
    return False


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(share * len(ordered)) - 1]


@pytest.mark.parametrize("proposal", ["1", "2", "3"])
def test_figures_recomputed_from_the_fixture(proposal: str) -> None:
    budget = int(proposal) * 60
    advice = measured_advice(fixture(), controls_for(proposal), boards=2, setup_minutes=1)
    assert advice is not None
    lost = [lost_on_time_by_hand(d, budget) for d in DURATIONS]
    # the flagged game counts as lost whenever the proposal gives no more than 3 minutes
    lost[11] = lost[11] or budget <= 180
    assert advice.games_measured == 12
    assert advice.lost_on_time == sum(lost)
    assert advice.lost_on_time_share == pytest.approx(sum(lost) / 12)

    every_move = [float(d) for durations in DURATIONS for d in durations]
    assert advice.move_seconds.median == percentile(every_move, 0.5)
    assert advice.move_seconds.p90 == percentile(every_move, 0.9)

    def length(durations: list[int]) -> float:
        totals, elapsed = [0.0, 0.0], 0.0
        for index, used in enumerate(durations):
            seat = index % 2
            if totals[seat] + used >= budget:
                return elapsed + budget - totals[seat]
            totals[seat] += used
            elapsed += used
        return elapsed

    minutes = [length(d) / 60 for d in DURATIONS]
    assert advice.game_minutes.median == pytest.approx(percentile(minutes, 0.5))
    # a round of two boards: every pair of recorded games, the longer one plus set-up
    rounds = [max(a, b) + 1 for a, b in itertools.product(minutes, repeat=2)]
    assert advice.round_median_minutes == pytest.approx(percentile(rounds, 0.5))
    assert advice.round_p90_minutes == pytest.approx(percentile(rounds, 0.9))
    assert str(sum(lost)) in advice.reasons[1] and "12" in advice.reasons[2]


def test_a_longer_control_loses_fewer_games_on_time() -> None:
    shares = [measured_advice(fixture(), controls_for(text)).lost_on_time  # type: ignore[union-attr]
              for text in ("0:30", "1", "3", "5")]
    assert shares == sorted(shares, reverse=True)
    assert shares[-1] == 0


def test_increments_and_delays_are_replayed() -> None:
    # 0:30 sudden death flags the 45 s moves; with a 30 s delay no move of 45 s or less does
    sudden = measured_advice(fixture(), controls_for("0:30"))
    delayed = measured_advice(fixture(), controls_for("0:30 d30"))
    assert sudden is not None and delayed is not None
    assert delayed.lost_on_time < sudden.lost_on_time


def test_few_games_fall_back() -> None:
    assert measured_advice(fixture()[:MIN_MEASURED_GAMES - 1], controls_for("3")) is None


def test_bad_parameters() -> None:
    with pytest.raises(ClockError):
        measured_advice(fixture(), controls_for("3"), boards=10**9)
    with pytest.raises(ClockError):
        measured_advice(fixture(), controls_for("3"), games_per_match=0)
    assert nearest_rank([3, 1, 2], 0.5) == 2
