"""Card, position and move notation: parsing and printing."""

from __future__ import annotations

import pytest

from games.engines.errors import NotationError
from games.engines.stolbiki.cards import (
    COLOUR,
    RANK,
    SUIT,
    card_text,
    cards_of,
    deck_cards,
    mask_of,
    parse_card,
)
from games.engines.stolbiki.notation import PASS, Placement, parse_move, parse_position


@pytest.mark.parametrize(
    ("text", "canonical", "rank", "suit", "colour"),
    [
        ("QS", "QS", 12, 3, 1),
        ("qs", "QS", 12, 3, 1),
        (" TH ", "TH", 10, 0, 0),
        ("10H", "TH", 10, 0, 0),
        ("2d", "2D", 2, 1, 0),
        ("AC", "AC", 14, 2, 1),
        ("JD", "JD", 11, 1, 0),
        ("KH", "KH", 13, 0, 0),
    ],
)
def test_parse_card(text: str, canonical: str, rank: int, suit: int, colour: int) -> None:
    card = parse_card(text)
    assert card_text(card) == canonical
    assert (RANK[card], SUIT[card], COLOUR[card]) == (rank, suit, colour)


@pytest.mark.parametrize("text", ["", "Q", "QX", "1S", "11S", "QSS", "ZS", "S Q", None, 12, []])
def test_bad_cards(text: object) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_decks_and_masks() -> None:
    assert len(deck_cards(36)) == 36
    assert len(deck_cards(52)) == 52
    texts = [card_text(card) for card in deck_cards(36)]
    assert texts[:9] == ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    assert len(set(texts)) == 36
    assert cards_of(mask_of(deck_cards(52))) == deck_cards(52)


@pytest.mark.parametrize(
    ("text", "position"), [("0,0", (0, 0)), ("2,-1", (2, -1)), (" -3 , +2 ", (-3, 2))]
)
def test_parse_position(text: str, position: tuple[int, int]) -> None:
    assert parse_position(text) == position


@pytest.mark.parametrize("text", ["", "1", "1,2,3", "a,b", "1.5,2", "1;2", None, "9999999,0"])
def test_bad_positions(text: object) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS@2,-1", "QS@2,-1"),
        ("qs @ 2, -1", "QS@2,-1"),
        ("10h@0,0", "TH@0,0"),
        ("pass", "pass"),
        (" PASS ", "pass"),
    ],
)
def test_parse_and_print_moves(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


def test_parsed_move_parts() -> None:
    assert parse_move("QS@2,-1") == Placement("QS", 2, -1)
    assert parse_move("pass") == PASS


@pytest.mark.parametrize("text", ["QS", "QS@", "@2,1", "QS@2", "QS-2,1", "passe", "XX@0,0", 5])
def test_bad_moves(text: object) -> None:
    with pytest.raises(NotationError):
        parse_move(text)
