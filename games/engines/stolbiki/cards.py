"""Cards as small integers, and their notation (docs/rules/records.md).

A card id is ``suit * 16 + rank`` with suits 0..3 = hearts, diamonds, clubs, spades and
ranks 2..14 (J=11, Q=12, K=13, A=14), so a set of cards fits in one int bitmask (ids
< 64). The colour of a suit is ``suit >> 1``: 0 for red (hearts, diamonds), 1 for black.

>>> card_text(parse_card("qs"))
'QS'
>>> RANK[parse_card("TH")], COLOUR[parse_card("TH")]
(10, 0)
"""

from __future__ import annotations

from games.engines.errors import NotationError
from games.i18n import N_

SUIT_LETTERS = "HDCS"
RANK_LETTERS = "23456789TJQKA"
RED, BLACK = 0, 1
COLOUR_NAMES = (N_("red"), N_("black"))
SUIT_NAMES = ("heart", "diamond", "club", "spade")
DECK_SIZES = (36, 52)
#: The lowest rank in each deck: 6..A with 36 cards, 2..A with 52.
LOWEST_RANK = {36: 6, 52: 2}
#: The first card of a game may not be a court card or an ace.
HIGHEST_FIRST_RANK = 10

CARD_IDS = 64


def make_card(rank: int, suit: int) -> int:
    """The id of the card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return suit * 16 + rank


def _is_card(card: int) -> bool:
    return 2 <= card % 16 <= 14


#: Per card id: rank (its value), suit, colour, suit bit, text; junk for unused ids.
RANK: tuple[int, ...] = tuple(card % 16 for card in range(CARD_IDS))
SUIT: tuple[int, ...] = tuple(card // 16 for card in range(CARD_IDS))
COLOUR: tuple[int, ...] = tuple(card // 32 for card in range(CARD_IDS))
SUIT_BIT: tuple[int, ...] = tuple(1 << (card // 16) for card in range(CARD_IDS))
CARD_TEXT: tuple[str, ...] = tuple(
    RANK_LETTERS[card % 16 - 2] + SUIT_LETTERS[card // 16] if _is_card(card) else "?"
    for card in range(CARD_IDS)
)
_CARD_BY_TEXT: dict[str, int] = {
    text: card for card, text in enumerate(CARD_TEXT) if text != "?"
}


def deck_cards(deck: int) -> list[int]:
    """The card ids of a deck of ``deck`` (36 or 52) cards, in id order."""
    low = LOWEST_RANK[deck]
    return [make_card(rank, suit) for suit in range(4) for rank in range(low, 15)]


def deck_mask(deck: int) -> int:
    """The deck as a bitmask of card ids."""
    return _DECK_MASKS[deck]


_DECK_MASKS = {deck: sum(1 << card for card in deck_cards(deck)) for deck in DECK_SIZES}


#: Cards that may open a game (rank 2..10), as a bitmask over both decks.
FIRST_CARD_MASK = sum(
    1 << card for card in range(CARD_IDS) if _is_card(card) and RANK[card] <= HIGHEST_FIRST_RANK
)


def card_text(card: int) -> str:
    """The canonical text of a card id: ``QS``."""
    return CARD_TEXT[card]


def parse_card(text: object) -> int:
    """The id of a card text: rank ``2..9 T J Q K A`` (``10`` accepted) then suit ``HDCS``.

    Case and surrounding spaces are ignored; anything else raises :class:`NotationError`.
    """
    if not isinstance(text, str):
        raise NotationError(N_("a card must be a text like 'QS', not %(text)r"), text=text)
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    card = _CARD_BY_TEXT.get(cleaned)
    if card is None:
        raise NotationError(
            N_("%(text)r is not a card: write a rank (2-9, T, J, Q, K, A) then a suit (H, D, C, "
               "S), e.g. 'QS' or 'TH'"),
            text=text
        )
    return card


def cards_of(mask: int) -> list[int]:
    """The card ids in a bitmask, in id order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def mask_of(cards: list[int]) -> int:
    """The bitmask of a list of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
