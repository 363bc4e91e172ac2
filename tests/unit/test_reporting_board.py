"""The board's state from the two sides' latest claims (reporting.board: no Django)."""

from __future__ import annotations

import pytest

from reporting.board import (
    Claim,
    State,
    board_state,
    claim_status,
    games_score,
    no_show_outcome,
    parse_winners,
)

WIN_A = Claim("score", "a_wins", 2, 1)
WIN_A_GAMES = Claim("games", "a_wins", 2, 1)
WIN_B = Claim("score", "b_wins", 1, 2)
NO_SHOW_B = Claim("no_show", "a_forfeit_win")  # A says B did not come
NO_SHOW_A = Claim("no_show", "b_forfeit_win")


@pytest.mark.parametrize(("a", "b", "state"), [
    (None, None, State.NONE),
    (WIN_A, None, State.ONE_SIDE),
    (None, WIN_B, State.ONE_SIDE),
    (WIN_A, WIN_A, State.AGREED),
    (WIN_A, WIN_A_GAMES, State.AGREED),  # a score and the same games agree
    (WIN_A, WIN_B, State.CONFLICT),
    (WIN_A, Claim("score", "a_wins", 2, 0), State.CONFLICT),  # same winner, other score
    (NO_SHOW_B, None, State.NO_SHOW),
    (None, NO_SHOW_A, State.NO_SHOW),
    (NO_SHOW_B, NO_SHOW_A, State.CONFLICT),
    (NO_SHOW_B, WIN_A, State.CONFLICT),  # "he never came" - "we played"
])
def test_board_state(a: Claim | None, b: Claim | None, state: State) -> None:
    assert board_state(a, b) == state


def test_games_and_winners() -> None:
    assert parse_winners(["a", "b", "draw", "a"]) == [0, 1, None, 0]
    assert parse_winners(["a", "c"]) is None
    assert parse_winners(["a\x00"]) is None
    assert games_score([0, 1, None, 0]) == (2, 1, 1)
    assert no_show_outcome(0) == "a_forfeit_win"
    assert no_show_outcome(1) == "b_forfeit_win"


def test_claim_status() -> None:
    result = ("a_wins", 2, 1, 0)
    assert claim_status(1, {1}, None, result) == "open"
    assert claim_status(1, {2}, None, result) == "superseded"
    assert claim_status(1, {1}, result, result) == "accepted"
    assert claim_status(1, {1}, ("b_wins", 0, 2, 0), result) == "overridden"
