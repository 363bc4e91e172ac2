"""Stolbiki's facts for the registry: teams by option, hidden hands shown on a pass."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.engines.errors import OptionError
from games.engines.facts import GameFacts, arrange_first_move, no_length_options
from games.i18n import N_, Message

_LENGTH = ("deck", "team_size")


def _move_limit(options: Mapping[str, Any]) -> tuple[int, Message]:
    no_length_options("stolbiki", options, _LENGTH)
    deck, team_size = options.get("deck", 36), options.get("team_size", 2)
    if deck not in (36, 52) or team_size not in (1, 2, 3):
        raise OptionError(N_("stolbiki: deck must be 36 or 52 and team_size 1, 2 or 3, not "
                             "%(deck)s and %(team_size)s"), deck=deck, team_size=team_size)
    seats_per_colour = 3 if team_size == 3 else 2
    cards = math.ceil(deck // 2 / seats_per_colour)
    return cards, Message(N_("%(cards)s cards per seat with %(deck)s cards"), cards=cards,
                          deck=deck)


FACTS = (
    GameFacts(
        name="stolbiki", label=N_("Stolbiki"), family="stolbiki", draws_possible=True,
        first_role="first move", first_role_phrase=N_("move first"), role_seat_key="first",
        team_game=None, players_per_side=lambda options: int(options.get("team_size", 2)),
        length_options=_LENGTH, move_limit=_move_limit, arrange_deal=arrange_first_move,
        hand_kind="cards", pass_shows_hand=True,
    ),
)
