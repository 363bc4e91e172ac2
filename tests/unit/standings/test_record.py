"""The tournament record: plain-data round trip and clear errors for bad input."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.unit.standings.records import swiss_six, swiss_unplayed
from tournaments.standings import Scoring, StandingsError, TournamentRecord


def document() -> dict[str, Any]:
    return swiss_unplayed().to_dict()


def test_round_trip() -> None:
    record = swiss_unplayed()
    again = TournamentRecord.from_dict(record.to_dict())
    assert again.to_dict() == record.to_dict()
    assert again.rounds_played == 3 and again.total_rounds == 3


def test_scoring_defaults_follow_win_draw_loss() -> None:
    scoring = Scoring.from_dict({"win": 3, "draw": 1})
    assert scoring.pairing_bye == 3 and scoring.half_bye == 1 and scoring.forfeit_loss == 0
    assert scoring.points("played", "draw") == 1
    assert scoring.outcome_of(3) == "win" and scoring.outcome_of(1) == "draw"


def test_pairing_bye_worth_a_draw_counts_as_a_draw() -> None:
    doc = document()
    doc["scoring"] = {"pairing_bye": 0.5}
    record = TournamentRecord.from_dict(doc)
    bye = record.entrants[4].rounds[0]
    assert bye.kind == "pairing_bye" and bye.result == "draw"
    assert record.points(bye) == 0.5


def mutate(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(document())
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("system",), "knockout", "unknown system"),
        (("entrants",), "many", "must be a list"),
        (("rounds",), "nine", "whole number"),
        (("scoring",), {"wins": 1}, "unknown scoring"),
        (("scoring",), {"win": 0.5, "draw": 1}, "win > draw"),
        (("scoring",), {"win": "one"}, "must be a number"),
        (("entrants", 0, "id"), 2.5, "strings or integers"),
        (("entrants", 1, "id"), "A", "appears twice"),
        (("entrants", 0, "rating"), "high", "rating"),
        (("entrants", 0, "rounds"), [], "every entrant needs one entry per round"),
        (("entrants", 0, "rounds", 0, "kind"), "walkover", "unknown kind"),
        (("entrants", 0, "rounds", 0, "result"), "won", "result must be"),
        (("entrants", 0, "rounds", 0, "opponent"), "Z", "unknown opponent"),
        (("entrants", 0, "rounds", 0, "opponent"), "A", "cannot meet itself"),
        (("entrants", 0, "rounds", 0, "opponent"), "D", "whose round 1 says"),
        (("entrants", 0, "rounds", 0, "opponent"), None, "needs an opponent"),
        (("entrants", 0, "rounds", 0, "result"), "draw", "who has loss"),
        (("entrants", 0, "rounds", 0, "first_move"), False, "both"),
        (("entrants", 0, "rounds", 0, "first_move"), "yes", "first_move"),
        (("entrants", 0, "rounds", 1, "kind"), "played", "who has forfeit loss"),
        (("entrants", 3, "rounds", 1, "opponent"), "B", "a bye has no opponent"),
        (("entrants", 3, "rounds", 1), "bye", "is a mapping"),
        (("entrants", 0), ["A"], "mapping with an 'id'"),
    ],
)
def test_bad_documents(path: tuple[Any, ...], value: Any, message: str) -> None:
    with pytest.raises(StandingsError, match=message):
        TournamentRecord.from_dict(mutate(path, value))


def test_not_a_mapping() -> None:
    with pytest.raises(StandingsError):
        TournamentRecord.from_dict([])  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    assert issubclass(StandingsError, ValueError)


def test_planned_rounds_count_for_the_dummy_cap() -> None:
    doc = swiss_six().to_dict()
    doc["rounds"] = 9
    record = TournamentRecord.from_dict(doc)
    assert record.rounds_played == 3 and record.total_rounds == 9
