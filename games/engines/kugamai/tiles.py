"""Tiles, move codes and the precomputed tables of Kugamai.

A move is coded as an int: laying tile ``a-b`` on open end ``a`` (so that ``b`` becomes
the open end) is ``a * 7 + b``; a pass is :data:`PASS`. A hand is a 49-bit mask in which
tile ``a-b`` sets bits ``a * 7 + b`` and ``b * 7 + a`` (one bit for a double), so that
``(hand >> 7 * v) & 127`` is the 7-bit set of values ``w`` for which ``v-w`` is in hand.
"""

from __future__ import annotations

import re

from games.engines.errors import NotationError
from games.i18n import N_, Message

VALUES = range(7)
PASS = 49
PASS_TEXT = "pass"

Tile = tuple[int, int]

#: All 28 tiles, ``(a, b)`` with ``a <= b``, in a fixed order.
ALL_TILES: tuple[Tile, ...] = tuple((a, b) for a in VALUES for b in VALUES if a <= b)

#: Mask of a tile in both orientations, by move code.
TILE_MASK: tuple[int, ...] = tuple(
    (1 << (a * 7 + b)) | (1 << (b * 7 + a)) for a in VALUES for b in VALUES
)

#: Canonical text of each move code (the 49 oriented tiles, then ``pass``).
MOVE_TEXT: tuple[str, ...] = tuple(f"{a}-{b}" for a in VALUES for b in VALUES) + (PASS_TEXT,)

#: For each 7-bit set of values, its members in increasing order.
SUBSET_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w in VALUES if subset >> w & 1) for subset in range(128)
)

FULL_SET = sum(TILE_MASK[a * 7 + b] for a, b in ALL_TILES)

OPENING = 0  # the move code of 0-0, the only legal first move
LOW_DOUBLES: tuple[int, ...] = (1, 2, 3)
HIGH_DOUBLES: tuple[int, ...] = (4, 5, 6)
LOW_DOUBLES_MASK = sum(TILE_MASK[v * 8] for v in LOW_DOUBLES)
HIGH_DOUBLES_MASK = sum(TILE_MASK[v * 8] for v in HIGH_DOUBLES)

_TILE_TEXT = re.compile(r"([0-6])-([0-6])")


def tile_text(tile: Tile) -> str:
    """``a-b`` with ``a <= b``, as tiles are written in hands."""
    a, b = sorted(tile)
    return f"{a}-{b}"


def parse_pair(text: object, what: str = N_("tile")) -> Tile:
    """The two values of ``a-b`` in the order written; :class:`NotationError` otherwise."""
    if not isinstance(text, str):
        raise NotationError(N_("a %(what)s must be a text like '2-5', not %(text)r"),
                            what=Message(what), text=text)
    match = _TILE_TEXT.fullmatch(text.strip())
    if match is None:
        raise NotationError(N_("%(text)r is not a %(what)s: write a-b with values 0..6, e.g. "
                               "'2-5'"),
                            text=text, what=Message(what))
    return int(match.group(1)), int(match.group(2))


def parse_move(text: object) -> int:
    """The move code of ``a-b`` (matched half first) or ``pass``."""
    if isinstance(text, str) and text.strip().lower() == PASS_TEXT:
        return PASS
    a, b = parse_pair(text, N_("move"))
    return a * 7 + b


def hand_tiles(mask: int) -> list[Tile]:
    """The tiles of a hand mask, ``(a, b)`` with ``a <= b``, in order."""
    return [(a, b) for a, b in ALL_TILES if mask >> (a * 7 + b) & 1]


def hand_texts(mask: int) -> list[str]:
    """The tiles of a hand mask as sorted ``a-b`` texts."""
    return [f"{a}-{b}" for a, b in hand_tiles(mask)]


def tile_count(mask: int) -> int:
    """How many tiles a hand mask holds."""
    doubles = sum(mask >> (v * 8) & 1 for v in VALUES)
    return (mask.bit_count() + doubles) // 2


def own_doubles_mask(seat: int, low_doubles_seat: int) -> int:
    """The three doubles that ``seat`` must place to win."""
    return LOW_DOUBLES_MASK if seat == low_doubles_seat else HIGH_DOUBLES_MASK
