"""A match in progress in words: the running score and the game being played, the same
text on the public pages and in the API."""

from __future__ import annotations

import doctest

import pytest

from games.series.format import MatchFormat
from matches import progress
from matches.progress import match_progress


def test_doctests() -> None:
    assert doctest.testmod(progress).failed == 0


@pytest.mark.parametrize(("fmt", "winners", "knockout", "text", "next_game"), [
    ("single", [], False, "playing", 1),
    ("bo5", [], False, "playing", 1),
    ("bo5", [0], False, "1–0, game 2 playing", 2),
    ("bo5", [0, 1], False, "1–1, game 3 playing", 3),
    ("ft3/9", [None, None, 1], False, "0–1 (2 drawn), game 4 playing", 4),
    ("fixed2", [0, 1], True, "1–1, level: tie-break to come", None),
    ("fixed2", [0, 1], False, "1–1, result to be confirmed", None),
    ("bo3", [1, 1], False, "0–2, result to be confirmed", None),
])
def test_text_and_next_game(fmt: str, winners: list[int | None], knockout: bool, text: str,
                            next_game: int | None) -> None:
    shown = match_progress(MatchFormat.parse(fmt), winners, knockout=knockout)
    assert shown.text == text
    assert shown.next_game == next_game
    assert shown.games == len(winners)
    assert (shown.wins_a, shown.wins_b, shown.draws) == (
        winners.count(0), winners.count(1), winners.count(None))


def test_score_and_step_split_the_text() -> None:
    shown = match_progress(MatchFormat.parse("bo5"), [0, None, 1])
    assert (shown.score, shown.step) == ("1–1 (1 drawn)", "game 4 playing")
    fresh = match_progress(MatchFormat.parse("bo5"), [])
    assert (fresh.score, fresh.step) == ("", "playing")
    assert shown.as_dict() == {"wins_a": 1, "wins_b": 1, "draws": 1, "games": 3,
                               "next_game": 4, "text": "1–1 (1 drawn), game 4 playing"}
