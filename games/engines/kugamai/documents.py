"""Reading and checking Kugamai deal and state documents (docs/rules/records.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.errors import DocumentError, NotationError
from games.engines.kugamai.tiles import (
    FULL_SET,
    HIGH_DOUBLES_MASK,
    LOW_DOUBLES_MASK,
    MOVE_TEXT,
    OPENING,
    TILE_MASK,
    VALUES,
    parse_pair,
    tile_count,
    tile_text,
)
from games.i18n import N_

HAND_SIZE = 14
SEATS = 2


def parse_seat(value: object, key: str) -> int:
    """A seat number, 0 or 1, read from document key ``key``."""
    if isinstance(value, bool) or value not in (0, 1):
        raise DocumentError(N_("%(key)r must be a seat number, 0 or 1, not %(value)r"),
                            key=key, value=value)
    return int(value)  # type: ignore[call-overload]


def parse_hands(value: object, key: str = "hands") -> tuple[int, int]:
    """Two hand masks from ``[[tile texts of seat 0], [tile texts of seat 1]]``."""
    if not isinstance(value, list) or len(value) != SEATS:
        raise DocumentError(N_("%(key)r must be a list of two hands, one per seat"), key=key)
    masks = []
    seen = 0
    for seat, texts in enumerate(value):
        if not isinstance(texts, list):
            raise DocumentError(N_("%(key)r: the hand of seat %(seat)s must be a list of tiles"),
                                key=key, seat=seat)
        mask = 0
        for text in texts:
            try:
                a, b = parse_pair(text)
            except NotationError as error:
                raise DocumentError(N_("%(key)r, seat %(seat)s: %(error)s"),
                                    key=key, seat=seat, error=error) from None
            bits = TILE_MASK[a * 7 + b]
            if seen & bits:
                raise DocumentError(N_("%(key)r: tile %(tile)s appears twice"),
                                    key=key, tile=tile_text((a, b)))
            seen |= bits
            mask |= bits
        masks.append(mask)
    return masks[0], masks[1]


def parse_chain(value: object) -> list[int]:
    """The chain's move codes, checked: opens with 0-0, each tile matches the open end
    before it, no tile twice, and no prefix of it is a fish."""
    if not isinstance(value, list):
        raise DocumentError(N_("'chain' must be a list of oriented tiles, e.g. ['0-0', '0-4']"))
    chain: list[int] = []
    placed = 0
    remaining = [7] * 7
    end = -1
    for number, text in enumerate(value, start=1):
        try:
            a, b = parse_pair(text, N_("chain tile"))
        except NotationError as error:
            raise DocumentError(N_("chain tile %(number)s: %(error)s"),
                                number=number, error=error) from None
        code = a * 7 + b
        if number == 1 and code != OPENING:
            raise DocumentError(N_("the chain must open with 0-0, not %(text)r"), text=text)
        if number > 1 and a != end:
            raise DocumentError(
                N_("chain tile %(number)s, %(text)s: does not match the open end %(end)s (write "
                   "each tile with its matched half first)"),
                number=number, text=text, end=end
            )
        if placed & TILE_MASK[code]:
            raise DocumentError(N_("chain tile %(number)s: tile %(tile)s appears twice"),
                                number=number, tile=tile_text((a, b)))
        placed |= TILE_MASK[code]
        remaining[a] -= 1
        if a != b:
            remaining[b] -= 1
        if remaining[b] == 0:
            raise DocumentError(
                N_("chain tile %(number)s, %(text)s: makes a fish (every tile with a %(value)s is "
                   "on the table), which the rules forbid"),
                number=number, text=text, value=b
            )
        chain.append(code)
        end = b
    return chain


def doubles_holder(hands: tuple[int, int]) -> int:
    """The seat holding the low doubles in a full deal; :class:`DocumentError` unless one
    seat holds 1-1, 2-2, 3-3 and the other 4-4, 5-5, 6-6."""
    for low in range(SEATS):
        if (
            hands[low] & LOW_DOUBLES_MASK == LOW_DOUBLES_MASK
            and hands[1 - low] & HIGH_DOUBLES_MASK == HIGH_DOUBLES_MASK
        ):
            return low
    raise DocumentError(
        N_("one seat must hold the low doubles 1-1, 2-2, 3-3 and the other the high doubles 4-4, "
           "5-5, 6-6")
    )


def check_deal_hands(hands: tuple[int, int]) -> int:
    """Check a full deal (14 tiles each, all 28 tiles, doubles split); return the seat
    with the low doubles."""
    for seat, hand in enumerate(hands):
        count = tile_count(hand)
        if count != HAND_SIZE:
            raise DocumentError(N_("seat %(seat)s was dealt %(count)s tiles; a deal gives 14 each"),
                                seat=seat, count=count)
    if hands[0] & hands[1] or hands[0] | hands[1] != FULL_SET:
        raise DocumentError(N_("the two hands must hold the 28 tiles of a double-six set"))
    return doubles_holder(hands)


def parse_deal(deal: object) -> tuple[int, tuple[int, int]]:
    """``(low_doubles_seat, hands)`` from a deal document ``{"hands", "first",
    "low_doubles_seat"}``; ``first`` and ``low_doubles_seat`` may be left out, and when
    given they must agree with the hands."""
    if not isinstance(deal, Mapping):
        raise DocumentError(N_("a kugamai deal must be an object with 'hands'"))
    if "hands" not in deal:
        raise DocumentError(N_("a kugamai deal needs 'hands': the 14 tiles of each seat"))
    hands = parse_hands(deal["hands"], "deal hands")
    low = check_deal_hands(hands)
    if deal.get("low_doubles_seat") is not None:
        stated = parse_seat(deal["low_doubles_seat"], "low_doubles_seat")
        if stated != low:
            raise DocumentError(
                N_("the deal says seat %(stated)s takes the low doubles, but seat %(low)s holds "
                   "them"),
                stated=stated, low=low
            )
    if deal.get("first") is not None:
        first = parse_seat(deal["first"], "first")
        holder = 0 if hands[0] & 1 else 1
        if first != holder:
            raise DocumentError(
                N_("the deal says seat %(first)s moves first, but seat %(holder)s holds 0-0 and "
                   "opens with it"),
                first=first, holder=holder
            )
    return low, hands


def check_position(hands: tuple[int, int], chain: list[int], low: int, to_move: int) -> None:
    """Check that hands and chain could belong to one game (material, doubles, turn)."""
    placed = 0
    for code in chain:
        placed |= TILE_MASK[code]
    if hands[0] & hands[1]:
        raise DocumentError(N_("a tile is in both hands"))
    if (hands[0] | hands[1]) & placed:
        raise DocumentError(N_("a tile is both in a hand and on the table"))
    missing = FULL_SET & ~(hands[0] | hands[1] | placed)
    if missing:
        lost = [f"{a}-{b}" for a in VALUES for b in VALUES if a <= b and missing >> (a * 7 + b) & 1]
        raise DocumentError(N_("tiles missing from hands and chain: %(lost)s"),
                            lost=', '.join(lost))
    high = 1 - low
    if hands[low] & HIGH_DOUBLES_MASK or hands[high] & LOW_DOUBLES_MASK:
        raise DocumentError(
            N_("seat %(low)s takes the low doubles (1-1, 2-2, 3-3) and seat %(high)s the high "
               "doubles (4-4, 5-5, 6-6); a hand holds the other seat's double"),
            low=low, high=high
        )
    for seat, hand in enumerate(hands):
        if tile_count(hand) > HAND_SIZE:
            raise DocumentError(N_("seat %(seat)s holds more than 14 tiles"), seat=seat)
    if not chain and not hands[to_move] & 1:
        raise DocumentError(N_("'to_move' is seat %(to_move)s, but the holder of 0-0 opens the "
                               "game"),
                            to_move=to_move)
    out = [seat for seat in range(SEATS) if not hands[seat] & own_doubles(seat, low)]
    if len(out) == 2:
        raise DocumentError(N_("both seats have placed all their doubles; the game ends at the "
                               "first"))
    if out:
        winner = out[0]
        ended_here = bool(chain) and bool(TILE_MASK[chain[-1]] & own_doubles(winner, low))
        if winner == to_move or not ended_here:
            raise DocumentError(
                N_("seat %(winner)s has placed all its doubles, so the game ended when it laid the "
                   "last one: that must be the last tile of the chain, and the other seat "
                   "'to_move'"),
                winner=winner
            )


def own_doubles(seat: int, low: int) -> int:
    return LOW_DOUBLES_MASK if seat == low else HIGH_DOUBLES_MASK


def history_texts(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise DocumentError(N_("'history' must be a list of move texts ('0-0', '0-4', 'pass')"))
    return list(value)


def chain_texts(chain: list[int]) -> list[str]:
    return [MOVE_TEXT[code] for code in chain]


def options_document(options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise DocumentError(N_("'options' must be an object"))
    return dict(options)
