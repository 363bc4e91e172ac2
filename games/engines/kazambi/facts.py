"""Kazambi's facts for the registry: four forms, one rating family, no draws."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.engines.facts import GameFacts, MoveLimit, arrange_first_move, no_length_options
from games.i18n import N_, Message

_LENGTH = ("rows", "cols")


def _move_limit(name: str, seats: int) -> MoveLimit:
    def limit(options: Mapping[str, Any]) -> tuple[int, Message]:
        no_length_options(name, options, _LENGTH)
        rows, cols = options.get("rows", 7), options.get("cols", 8)
        tiles_per_seat = 28 // seats
        board_share = math.ceil((rows * cols // 2) / seats)
        most = min(tiles_per_seat, board_share)
        return most, Message(N_("the rules allow %(most)s on a %(rows)s x %(cols)s board"),
                             most=most, rows=rows, cols=cols)

    return limit


def _facts(name: str, label: str, pairs: bool) -> GameFacts:
    return GameFacts(
        name=name, label=label, family="kazambi", draws_possible=False,
        first_role="first move", first_role_phrase=N_("move first"), role_seat_key="first",
        team_game=pairs, players_per_side=lambda options: 2 if pairs else 1,
        length_options=_LENGTH, move_limit=_move_limit(name, 4 if pairs else 2),
        arrange_deal=arrange_first_move, hand_kind="tiles", burnt_tiles=True,
    )


FACTS = (
    _facts("kazambi", N_("Kazambi"), pairs=False),
    _facts("kazambi-pairs", N_("Kazambi pairs"), pairs=True),
    _facts("anti-kazambi", N_("Anti-Kazambi"), pairs=False),
    _facts("anti-kazambi-pairs", N_("Anti-Kazambi pairs"), pairs=True),
)
