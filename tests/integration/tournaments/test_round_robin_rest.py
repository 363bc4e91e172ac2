"""A round robin's rest round scores 0 (FIDE), whatever ``points_bye`` says for a Swiss."""

from __future__ import annotations

from typing import Any

from tournaments import selectors


def test_the_resting_entrant_scores_nothing(make_tournament: Any, play_round: Any) -> None:
    tournament = make_tournament("round_robin", entrants=3)
    assert tournament.points_bye == 1  # the Swiss pairing-allocated bye's points
    round_ = play_round(tournament)
    resting = round_.pairings.get(entrant_b__isnull=True).entrant_a_id
    table = selectors.standings(tournament)
    points = {row["entrant"]: row["points"] for row in table["rows"]}
    assert points[resting] == 0
    assert sorted(points.values()) == [0, 0, 1]


def test_a_swiss_bye_still_scores_points_bye(make_tournament: Any, play_round: Any) -> None:
    tournament = make_tournament("swiss", entrants=3, rounds_planned=2)
    round_ = play_round(tournament)
    resting = round_.pairings.get(entrant_b__isnull=True).entrant_a_id
    points = {row["entrant"]: row["points"] for row in selectors.standings(tournament)["rows"]}
    assert points[resting] == 1
