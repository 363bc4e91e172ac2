"""Tiles, cells and moves in the notation of docs/rules/records.md."""

from __future__ import annotations

import pytest

from games.engines.errors import EngineError, IllegalMoveError, NotationError
from games.engines.kazambi import KazambiEngine, KazambiMove
from games.engines.kazambi.notation import TILE_TEXTS, cell_text, parse_move, parse_tile
from tests.unit.engines.kazambi.helpers import game

kazambi = KazambiEngine()


def test_tiles_are_numbered_low_half_first() -> None:
    assert len(TILE_TEXTS) == 28
    assert TILE_TEXTS[0] == "0-0" and TILE_TEXTS[1] == "0-1" and TILE_TEXTS[-1] == "6-6"
    assert parse_tile("5-2") == parse_tile("2-5") == TILE_TEXTS.index("2-5")


@pytest.mark.parametrize("text", ["7-1", "2-", "25", "2 5", "", "a-b", None, 25])
def test_bad_tiles(text: object) -> None:
    with pytest.raises(NotationError):
        parse_tile(text)


def test_cells_are_letter_then_row_from_top_left() -> None:
    assert cell_text(0, 0) == "a1"
    assert cell_text(1, 2) == "c2"
    assert cell_text(11, 11) == "l12"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3-1@c2d2", "3-1@c2d2"),  # horizontal: X is the left cell
        ("1-3@d2c2", "3-1@c2d2"),  # same placement, cells given right to left
        ("3-1@d2c2", "1-3@c2d2"),  # a different placement: 3 on d2
        ("3-1@c2c3", "3-1@c2c3"),  # vertical: X is the upper cell
        ("1-3@c3c2", "3-1@c2c3"),
        ("5-5@b1a1", "5-5@a1b1"),
        (" 2-4@A1B1 ", "2-4@a1b1"),
        ("0-6@k12l12", "0-6@k12l12"),
        ("0-6@l11l12", "0-6@l11l12"),
    ],
)
def test_moves_print_canonically(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


def test_move_fields() -> None:
    move = parse_move("1-3@c3c2")
    assert move == KazambiMove(3, 1, 1, 2, True)
    assert move.cell_y == (2, 2)


@pytest.mark.parametrize(
    "text",
    ["3-1@c2e2", "3-1@c2d3", "3-1@c2c2", "7-1@c2d2", "3-1", "3-1@c2", "3-1@c2d2x",
     "3-1@m1n1", "3-1@a0b0", "3-1@a13b13", "3+1@c2d2", "", None, 31, ["3-1@c2d2"]],
)  # fmt: skip
def test_bad_move_texts(text: object) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_play_accepts_either_cell_order_and_records_the_canonical_text() -> None:
    state = kazambi.play(game(kazambi), "1-0@b1a1")
    assert kazambi.to_dict(state)["history"] == ["0-1@a1b1"]
    assert kazambi.to_dict(state)["board"][0].startswith("01")


def test_play_accepts_move_objects_from_legal_moves() -> None:
    state = game(kazambi)
    move = kazambi.legal_moves(state)[0]
    assert isinstance(move, KazambiMove)
    assert str(move) == "0-0@a1b1"
    assert kazambi.to_dict(kazambi.play(state, move)) == kazambi.to_dict(
        kazambi.play(state, "0-0@a1b1")
    )


@pytest.mark.parametrize(
    "move",
    [
        KazambiMove(7, 1, 0, 0, False),
        KazambiMove(1, 2, -1, 0, False),
        KazambiMove(1, 2, 0, 11, False),
        KazambiMove(1, 2, 11, 0, True),
        KazambiMove("1", 2, 0, 0, True),  # type: ignore[arg-type]
        3.5,
        None,
    ],
)
def test_bad_move_objects(move: object) -> None:
    with pytest.raises(EngineError):
        kazambi.play(game(kazambi), move)  # type: ignore[arg-type]


def test_illegal_move_error_names_move_and_rule() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        kazambi.play(game(kazambi), "4-4@a1b1")
    assert caught.value.move == "4-4@a1b1"
    assert caught.value.rule == "tile 4-4 is not in seat 0's hand"
    assert isinstance(caught.value, ValueError)
