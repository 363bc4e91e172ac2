"""Tile and move notation (docs/rules/records.md)."""

from __future__ import annotations

import pytest

from games.engines.errors import NotationError
from games.engines.kugamai.tiles import (
    MOVE_TEXT,
    PASS,
    hand_texts,
    parse_move,
    parse_pair,
    tile_count,
    tile_text,
)

from .helpers import ENGINE


def test_move_text_is_matched_half_first():
    assert parse_move("4-1") == 4 * 7 + 1
    assert MOVE_TEXT[4 * 7 + 1] == "4-1"
    assert parse_move("pass") == PASS
    assert MOVE_TEXT[PASS] == "pass"


def test_every_move_code_round_trips():
    for code, text in enumerate(MOVE_TEXT):
        assert parse_move(text) == code


def test_surrounding_space_and_pass_case_are_forgiven():
    assert parse_move(" 2-5 ") == 2 * 7 + 5
    assert parse_move("PASS") == PASS


def test_hand_tiles_are_written_low_half_first():
    assert tile_text((5, 2)) == "2-5"
    state = ENGINE.new_game(seed=1)
    for hand in ENGINE.to_dict(state)["hands"]:
        assert hand == sorted(hand)
        assert all(int(text[0]) <= int(text[2]) for text in hand)
    assert tile_count(state.hands[0]) == 14


def test_hand_texts_of_a_mask():
    mask = 0
    for a, b in [(0, 0), (2, 5), (6, 6)]:
        mask |= (1 << (a * 7 + b)) | (1 << (b * 7 + a))
    assert hand_texts(mask) == ["0-0", "2-5", "6-6"]
    assert tile_count(mask) == 3


@pytest.mark.parametrize(
    "text", ["7-1", "1-7", "-1-2", "12", "1-2-3", "a-b", "", "1 - 2", "1_2", "passs"]
)
def test_bad_texts_are_notation_errors(text):
    with pytest.raises(NotationError, match="write a-b"):
        parse_move(text)


@pytest.mark.parametrize("value", [None, 5, 1.5, ["1-2"], b"1-2"])
def test_non_texts_are_notation_errors(value):
    with pytest.raises(NotationError):
        parse_pair(value)
    if not isinstance(value, int):  # an int is a move code, see test_rules
        with pytest.raises(NotationError):
            ENGINE.play(ENGINE.new_game(seed=1), value)
