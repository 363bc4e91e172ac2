"""Who plays which role in game k of a match: the fairness swaps each game needs.

- The role each game's facts name (``GameFacts.first_role``) passes to the other side
  each game: the first move (Kazambi, Stolbiki) or the low doubles (Kugamai: 1-1, 2-2,
  3-3; the holder of 0-0 opens, so the deal decides who starts).
- Duplicate mode: games come in pairs on one deal; the second game of a pair replays the
  first game's deal with the sides' roles (hands, first move or low doubles) swapped.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines import game_facts
from games.i18n import N_, Message

#: The roles that alternate, in words (``GameFacts.first_role``), marked for translation.
_ROLE_LABELS = {"first_move": N_("first move"), "low_doubles": N_("low doubles")}


@dataclass(frozen=True)
class GameRoles:
    """Roles of game ``index`` (0-based) of a match, from side A's point of view."""

    index: int
    #: the side (0 = A, 1 = B) that moves first, or holds the low doubles in Kugamai
    first_side: int
    #: the deal number (seed index) the game is dealt from; equal for a duplicate pair
    deal_index: int
    #: True for the second game of a duplicate pair (the sides swap the first game's hands)
    mirrored: bool

    @property
    def role_name(self) -> str:
        """The role in words: "first move", "low doubles"."""
        return self.first_side_meaning.replace("_", " ")

    @property
    def role_label(self) -> Message:
        """:attr:`role_name`, translatable."""
        marked = _ROLE_LABELS.get(self.first_side_meaning)
        return Message(marked) if marked else Message(self.role_name)

    first_side_meaning: str = "first_move"


def game_roles(game: str, index: int, *, first_side: int = 0, duplicate: bool = False) -> GameRoles:
    """Roles of game ``index`` of a match in ``game`` whose first game side ``first_side``
    began. Alternation is by game number, so a duplicate pair swaps within the pair."""
    if index < 0:
        raise ValueError(f"game index must be 0 or more, not {index}")
    if first_side not in (0, 1):
        raise ValueError(f"first side must be 0 or 1, not {first_side}")
    meaning = game_facts(game).first_role.replace(" ", "_")
    side = (first_side + index) % 2
    if duplicate:
        return GameRoles(index, side, index // 2, index % 2 == 1, meaning)
    return GameRoles(index, side, index, False, meaning)
