"""A round robin's rest round (the entrant paired with the dummy of an odd count).

FIDE scores it 0 and the tie-breaks treat it as unplayed; a Swiss pairing-allocated bye keeps
a win's points.
"""

from __future__ import annotations

from typing import Any

from tournaments.pairing.round_robin import REST_ROUND_POINTS, berger_rounds, bye_in_round
from tournaments.standings import TournamentRecord, compute_standings


def three_player_round_robin(system: str = "round_robin", **scoring: Any) -> TournamentRecord:
    """Round 1 of three: 2 beats 3, 1 rests."""
    assert bye_in_round(berger_rounds(3), 1) == 1
    return TournamentRecord.from_dict({
        "system": system,
        "rounds": 3,
        "scoring": scoring,
        "entrants": [
            {"id": 1, "rounds": [{"kind": "pairing_bye"}]},
            {"id": 2, "rounds": [{"opponent": 3, "first_move": True, "result": "win"}]},
            {"id": 3, "rounds": [{"opponent": 2, "first_move": False, "result": "loss"}]},
        ],
    })


def test_the_rest_round_scores_nothing_by_default() -> None:
    assert REST_ROUND_POINTS == 0
    record = three_player_round_robin()
    rows = {row.entrant: row for row in compute_standings(record, ["wins", "progressive"])}
    assert rows[1].points == 0
    assert rows[1].tiebreaks == {"wins": 0, "progressive": 0}
    assert rows[2].points == 1 and rows[2].tiebreaks["wins"] == 1
    assert record.entrants[0].rounds[0].result == "loss"


def test_tie_breaks_treat_the_rest_round_as_unplayed() -> None:
    record = three_player_round_robin()
    rows = {row.entrant: row for row in compute_standings(
        record, ["buchholz", "sonneborn_berger", "wins_played", "koya"])}
    assert rows[1].tiebreaks == {"buchholz": 0, "sonneborn_berger": 0, "wins_played": 0,
                                 "koya": 0}


def test_an_explicit_rest_round_score_is_kept() -> None:
    record = three_player_round_robin(pairing_bye=0.5)
    points = {row.entrant: row.points for row in compute_standings(record, [])}
    assert points == {1: 0.5, 2: 1, 3: 0}


def test_a_swiss_pairing_allocated_bye_still_scores_a_win() -> None:
    record = three_player_round_robin(system="swiss")
    rows = {row.entrant: row for row in compute_standings(record, [])}
    assert rows[1].points == 1
