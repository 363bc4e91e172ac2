"""The match helper: first to 3 wins, capped by max_games (docs/rules/kugamai.md, The match)."""

from __future__ import annotations

import pytest

from games.engines.errors import EngineError
from games.engines.kugamai import low_doubles_seat, match_decided


@pytest.mark.parametrize(
    ("wins", "played", "expected"),
    [
        ((0, 0), 0, (False, None)),
        ((2, 2), 4, (False, None)),
        ((3, 0), 3, (True, 0)),
        ((1, 3), 6, (True, 1)),
        ((2, 1), 8, (False, None)),  # draws do not count
        ((2, 1), 9, (True, 0)),  # cap reached: more wins decides
        ((2, 2), 9, (True, None)),  # cap reached, equal wins: drawn match
        ((0, 0), 9, (True, None)),
    ],
)
def test_match_decided(wins, played, expected):
    assert match_decided(wins, played) == expected


def test_match_options():
    assert match_decided((1, 0), 1, target=1) == (True, 0)
    assert match_decided((1, 2), 3, max_games=3) == (True, 1)
    assert match_decided((2, 2), 5, target=5, max_games=11) == (False, None)


@pytest.mark.parametrize(
    ("wins", "played", "options"),
    [
        ((2, 2), 3, {}),
        ((-1, 0), 2, {}),
        ((3, 3), 6, {}),
        ((1,), 2, {}),
        ((1, 1.5), 3, {}),
        ((True, 0), 1, {}),
        ((0, 0), 0, {"target": 0}),
        ((0, 0), 0, {"max_games": 0}),
    ],
)
def test_bad_match_figures_are_engine_errors(wins, played, options):
    with pytest.raises(EngineError):
        match_decided(wins, played, **options)


def test_low_doubles_seat_helper_alternates():
    assert [low_doubles_seat(game) for game in range(5)] == [0, 1, 0, 1, 0]
    assert [low_doubles_seat(game, first=1) for game in range(3)] == [1, 0, 1]


@pytest.mark.parametrize(("game", "first"), [(-1, 0), (0, 2), (0, True), (1.0, 0)])
def test_low_doubles_seat_helper_rejects_bad_input(game, first):
    with pytest.raises(EngineError):
        low_doubles_seat(game, first)
