"""Dealing, and checking explicit deal documents.

A deal document is ``{"hands": [[card texts] per seat], "first": seat, "red_side": side}``.
``red_side`` (0 or 1) says which side is Red: the seats ``s`` with ``s % 2 == red_side``
hold the red cards (hearts, diamonds), the others the black ones. Both it and ``first``
(the seat that lays the first card) are drawn by lot. The red cards are shuffled and
dealt one at a time to the Red seats in seat order, the black ones likewise; with 52
cards and 3 v 3 that gives hands of 9, 9 and 8.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.errors import DocumentError, EngineError
from games.engines.stolbiki.cards import (
    COLOUR,
    COLOUR_NAMES,
    DECK_SIZES,
    RED,
    card_text,
    cards_of,
    deck_cards,
    deck_mask,
    parse_card,
)
from games.i18n import N_, Message, as_message

DEAL_KEYS = ("hands", "first", "red_side")


def seat_count(team_size: int) -> int:
    """Seats at the table: 1 v 1 is played as 2 v 2 (two piles per player)."""
    return 4 if team_size == 1 else 2 * team_size


def colour_of_seat(seat: int, red_side: int) -> int:
    """RED or BLACK: the colour of the cards ``seat`` holds."""
    return RED if seat % 2 == red_side else 1 - RED


_CARDS_BY_COLOUR = {
    deck: tuple([card for card in deck_cards(deck) if COLOUR[card] == colour] for colour in (0, 1))
    for deck in DECK_SIZES
}


def draw_hands(
    rng: random.Random,
    deck: int,
    seats: int,
    first: int | None = None,
    red_side: int | None = None,
) -> tuple[list[int], int, int]:
    """Hands (bitmasks per seat), first seat and red side drawn from ``rng``. The lots for
    ``red_side`` and ``first`` are always drawn, so fixing either (a match passing the
    first move round) leaves the hands the same."""
    drawn_red_side = rng.randrange(2)
    drawn_first = rng.randrange(seats)
    red_side = drawn_red_side if red_side is None else red_side
    first = drawn_first if first is None else first
    hands = [0] * seats
    for colour, colour_cards in enumerate(_CARDS_BY_COLOUR[deck]):
        cards = colour_cards.copy()
        rng.shuffle(cards)
        team = [seat for seat in range(seats) if colour_of_seat(seat, red_side) == colour]
        size = len(team)
        for index, card in enumerate(cards):
            hands[team[index % size]] |= 1 << card
    return hands, first, red_side


def draw_deal(
    rng: random.Random,
    deck: int,
    seats: int,
    first: int | None = None,
    red_side: int | None = None,
) -> dict[str, Any]:
    """A deal document drawn from ``rng`` (see :func:`draw_hands`)."""
    return deal_document(*draw_hands(rng, deck, seats, first, red_side))


def _seat_number(value: object, what: str | Message, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise DocumentError(N_("%(what)s must be an integer from 0 to %(last)s, not %(value)r"),
                            what=as_message(what), last=limit - 1, value=value)
    return value


def parse_hands(value: object, deck: int, seats: int, where: str) -> list[int]:
    """A list per seat of card texts -> a bitmask per seat; no card twice, all in the deck."""
    if not isinstance(value, list) or len(value) != seats:
        raise DocumentError(N_("%(where)s 'hands' must be a list of %(seats)s lists of cards"),
                            where=Message(where), seats=seats)
    in_deck = deck_mask(deck)
    seen = 0
    masks = []
    for seat, hand in enumerate(value):
        if not isinstance(hand, list):
            raise DocumentError(N_("%(where)s hand of seat %(seat)s must be a list of cards"),
                                where=Message(where), seat=seat)
        mask = 0
        for text in hand:
            try:
                card = parse_card(text)
            except EngineError as error:
                raise DocumentError(N_("%(where)s hand of seat %(seat)s: %(error)s"),
                                    where=Message(where), seat=seat, error=error) from None
            if not in_deck >> card & 1:
                raise DocumentError(
                    N_("%(where)s hand of seat %(seat)s: %(card)s is not in the %(deck)s-card "
                       "deck"),
                    where=Message(where), seat=seat, card=card_text(card), deck=deck
                )
            if seen >> card & 1:
                raise DocumentError(N_("%(where)s: %(card)s appears twice"),
                                    where=Message(where), card=card_text(card))
            seen |= 1 << card
            mask |= 1 << card
        masks.append(mask)
    return masks


def check_colours(hands: list[int], red_side: int, where: str) -> None:
    """Every seat holds only cards of its team's colour."""
    for seat, hand in enumerate(hands):
        colour = colour_of_seat(seat, red_side)
        for card in cards_of(hand):
            if COLOUR[card] != colour:
                raise DocumentError(
                    N_("%(where)s: seat %(seat)s is on the %(colour)s side (red_side is "
                       "%(red_side)s) but holds %(card)s"),
                    where=Message(where), seat=seat, colour=Message(COLOUR_NAMES[colour]),
                    red_side=red_side, card=card_text(card)
                )


def infer_red_side(hands: list[int], where: str) -> int:
    """Which side is Red, from the cards in hands (for documents that do not say)."""
    for seat, hand in enumerate(hands):
        for card in cards_of(hand):
            return seat % 2 if COLOUR[card] == RED else 1 - seat % 2
    raise DocumentError(N_("%(where)s: give 'red_side' (0 or 1); no card in hand tells it"),
                        where=Message(where))


def parse_red_side(doc: Mapping[str, Any], hands: list[int], where: str) -> int:
    """The document's ``red_side`` (checked against the hands), or the inferred one."""
    if "red_side" in doc:
        red_side = _seat_number(doc["red_side"],
                                Message(N_("%(where)s 'red_side'"), where=Message(where)), 2)
    else:
        red_side = infer_red_side(hands, where)
    check_colours(hands, red_side, where)
    return red_side


def parse_deal(deal: Mapping[str, Any], deck: int, seats: int) -> tuple[list[int], int, int]:
    """Validate an explicit deal document; return (hand masks, first seat, red side)."""
    if not isinstance(deal, Mapping):
        raise DocumentError(N_("a deal must be an object with 'hands', 'first' and 'red_side'"))
    unknown = sorted(str(key) for key in deal if key not in DEAL_KEYS)
    if unknown:
        raise DocumentError(N_("deal: unknown key %(key)r (keys: %(keys)s)"),
                            key=unknown[0], keys=', '.join(DEAL_KEYS))
    hands = parse_hands(deal.get("hands"), deck, seats, N_("deal"))
    if "first" not in deal:
        raise DocumentError(N_("deal: 'first' (the seat that moves first) is missing"))
    first = _seat_number(deal["first"], N_("deal 'first'"), seats)
    red_side = parse_red_side(deal, hands, N_("deal"))
    dealt = 0
    for hand in hands:
        dealt |= hand
    missing = cards_of(deck_mask(deck) & ~dealt)
    if missing:
        names = ", ".join(card_text(card) for card in missing[:5])
        raise DocumentError(
            N_("deal: %(count)s card(s) of the %(deck)s-card deck are not dealt (%(names)s)"),
            count=len(missing), deck=deck, names=names
        )
    for side in (0, 1):
        sizes = [hands[seat].bit_count() for seat in range(side, seats, 2)]
        if max(sizes) - min(sizes) > 1:
            raise DocumentError(
                N_("deal: the hands of side %(side)s hold %(sizes)s cards; cards are dealt one at "
                   "a time, so they may differ by one at most"),
                side=side, sizes=sizes
            )
    return hands, first, red_side


def deal_document(hands: list[int], first: int, red_side: int) -> dict[str, Any]:
    """The canonical deal document."""
    return {
        "hands": [[card_text(card) for card in cards_of(hand)] for hand in hands],
        "first": first,
        "red_side": red_side,
    }
