"""Kugamai's facts for the registry: the low doubles alternate, and a game can be drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.facts import Deal, GameFacts, no_length_options, swap_sides
from games.i18n import N_, Message


def _move_limit(options: Mapping[str, Any]) -> tuple[int, Message]:
    no_length_options("kugamai", options, ())
    return 14, Message(N_("14 tiles per player, passes not counted"))


def _arrange(deal: Deal, first_side: int, mirrored: bool) -> Deal:
    """Side ``first_side`` gets the low doubles; the holder of 0-0 opens."""
    arranged = dict(deal)
    hands = [list(hand) for hand in deal["hands"]]
    if deal["low_doubles_seat"] != first_side:
        hands = swap_sides(hands)
    arranged["low_doubles_seat"] = first_side
    arranged["first"] = next(seat for seat, hand in enumerate(hands) if "0-0" in hand)
    arranged["hands"] = hands
    return arranged


FACTS = (
    GameFacts(
        name="kugamai", label=N_("Kugamai"), family="kugamai", draws_possible=True,
        first_role="low doubles", first_role_phrase=N_("hold the low doubles"),
        role_seat_key="low_doubles_seat", team_game=False,
        players_per_side=lambda options: 1, length_options=(), move_limit=_move_limit,
        arrange_deal=_arrange, hand_kind="tiles",
    ),
)
