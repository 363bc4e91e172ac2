"""The Swiss rules a hand-edited round breaks (pure: no Django).

A director may swap entrants between boards, swap who moves first or pair by hand; before
the edit is saved, :func:`broken_rules` names what it breaks so the director confirms with
open eyes. Entrants are plain ids; a board's ``first`` moves first (white), a ``second``
of None is a pairing-allocated bye.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The rules, as stored in the history and worded by the shells.
REPEAT = "repeat"
SAME_COLOUR_THREE = "same_colour_three"
COLOUR_DIFFERENCE = "colour_difference"
FORBIDDEN = "forbidden"
BYE_AGAIN = "bye_again"
UNPAIRED = "unpaired"

RULES = (REPEAT, SAME_COLOUR_THREE, COLOUR_DIFFERENCE, FORBIDDEN, BYE_AGAIN, UNPAIRED)

#: The largest colour difference (first moves minus second moves) the Swiss allows.
MAX_COLOUR_DIFFERENCE = 2


@dataclass(frozen=True)
class Board:
    first: int
    second: int | None = None  # None: a pairing-allocated bye

    @property
    def is_bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class Broken:
    rule: str
    entrants: tuple[int, ...]


@dataclass(frozen=True)
class PastRound:
    """An earlier round: its played boards (first, second) and who had a
    pairing-allocated bye in it."""

    boards: tuple[tuple[int, int], ...] = ()
    byes: frozenset[int] = frozenset()


def _colours(rounds: Sequence[PastRound]) -> dict[int, list[int]]:
    """Per entrant, +1 (moved first) or -1 for each round played, oldest first."""
    colours: dict[int, list[int]] = {}
    for past in rounds:
        for first, second in past.boards:
            colours.setdefault(first, []).append(1)
            colours.setdefault(second, []).append(-1)
    return colours


def broken_rules(earlier: Sequence[PastRound], edited: Sequence[Board],
                 to_pair: Iterable[int], forbidden: Iterable[tuple[int, int]] = ()
                 ) -> list[Broken]:
    """What the ``edited`` round breaks, given the ``earlier`` rounds, the entrants who
    must have a board (``to_pair``) and the forbidden pairs. One item per rule and board
    (or entrant), in the order of the boards; empty when the round breaks nothing."""
    met = {frozenset(pair) for past in earlier for pair in past.boards}
    had_bye = {entrant for past in earlier for entrant in past.byes}
    banned = {frozenset(pair) for pair in forbidden}
    colours = _colours(earlier)
    broken: list[Broken] = []
    seated: set[int] = set()
    for board in edited:
        seated.add(board.first)
        if board.second is None:
            if board.first in had_bye:
                broken.append(Broken(BYE_AGAIN, (board.first,)))
            continue
        seated.add(board.second)
        pair = (board.first, board.second)
        if frozenset(pair) in met:
            broken.append(Broken(REPEAT, pair))
        if frozenset(pair) in banned:
            broken.append(Broken(FORBIDDEN, pair))
        three = tuple(e for e, colour in zip(pair, (1, -1), strict=True)
                      if colours.get(e, [])[-2:] == [colour, colour])
        if three:
            broken.append(Broken(SAME_COLOUR_THREE, three))
        wide = tuple(e for e, colour in zip(pair, (1, -1), strict=True)
                     if abs(sum(colours.get(e, [])) + colour) > MAX_COLOUR_DIFFERENCE)
        if wide:
            broken.append(Broken(COLOUR_DIFFERENCE, wide))
    left = tuple(e for e in dict.fromkeys(to_pair) if e not in seated)
    if left:
        broken.append(Broken(UNPAIRED, left))
    return broken
