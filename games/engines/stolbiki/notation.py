"""Moves and positions in canonical notation: ``QS@2,-1`` or ``pass``.

>>> parse_move("qs @ 2, -1")
Placement(card='QS', x=2, y=-1)
>>> str(parse_move("QS@2,-1")), parse_move(" Pass ")
('QS@2,-1', 'pass')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.engines.errors import NotationError
from games.engines.stolbiki.cards import card_text, parse_card
from games.i18n import N_

PASS = "pass"

_POSITION = re.compile(r"\s*([+-]?\d{1,6})\s*,\s*([+-]?\d{1,6})\s*")


@dataclass(frozen=True, slots=True)
class Placement:
    """Lay ``card`` (canonical text) at ``x,y``; ``str()`` gives the canonical move."""

    card: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.card}@{self.x},{self.y}"


def parse_position(text: object) -> tuple[int, int]:
    """``"x,y"`` -> ``(x, y)``; :class:`NotationError` for anything else."""
    match = _POSITION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NotationError(N_("%(text)r is not a position: write 'x,y' with integers, e.g. "
                               "'2,-1'"),
                            text=text)
    return int(match.group(1)), int(match.group(2))


def parse_move(text: object) -> Placement | str:
    """A move text -> :class:`Placement` (card in canonical text) or :data:`PASS`."""
    if not isinstance(text, str):
        raise NotationError(N_("a move must be a text like 'QS@2,-1' or 'pass', not %(text)r"),
                            text=text)
    if text.strip().lower() == PASS:
        return PASS
    card, at, position = text.partition("@")
    if not at:
        raise NotationError(N_("%(text)r is not a move: write a card, '@' and a position "
                               "('QS@2,-1'), or 'pass'"),
                            text=text)
    x, y = parse_position(position)
    return Placement(card_text(parse_card(card)), x, y)
