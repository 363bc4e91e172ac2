"""Build position documents for rule tests: a table and a few chosen hand cards; every
other card of the deck goes to the seats of its colour, filling the lowest seat first
(after the chosen cards), up to the size of a dealt hand."""

from __future__ import annotations

from typing import Any

RANKS = "23456789TJQKA"


def deck(size: int = 36) -> list[str]:
    low = 4 if size == 36 else 0
    return [rank + suit for suit in "HDCS" for rank in RANKS[low:]]


def position(
    table: dict[str, str],
    held: dict[int, list[str]] | None = None,
    *,
    to_move: int = 0,
    red_side: int = 0,
    deck_size: int = 36,
    team_size: int = 2,
) -> dict[str, Any]:
    seats = 4 if team_size == 1 else 2 * team_size
    held = held or {}
    capacity = -(-(deck_size // 2) // (seats // 2))
    hands: list[list[str]] = [list(held.get(seat, [])) for seat in range(seats)]
    used = set(table.values()) | {card for cards in held.values() for card in cards}
    for card in deck(deck_size):
        if card in used:
            continue
        is_red = card[1] in "HD"
        side = red_side if is_red else 1 - red_side
        seat = next(s for s in range(side, seats, 2) if len(hands[s]) < capacity)
        hands[seat].append(card)
    return {
        "game": "stolbiki",
        "options": {"deck": deck_size, "team_size": team_size},
        "to_move": to_move,
        "hands": hands,
        "history": [],
        "table": dict(table),
        "revealed": [],
        "red_side": red_side,
    }
