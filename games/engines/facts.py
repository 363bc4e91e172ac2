"""What the service needs to know about each game, beside its rules: one record per engine
name, found through the registry (``games.engines.game_facts``).

A fourth game adds its engine package (with a ``facts`` module) and its registry lines,
and nothing else: labels, rating families, team games, draws, the role that alternates,
clock estimates and the game viewer all read these facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.engines.errors import OptionError
from games.i18n import N_, Message

Deal = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameFacts:
    name: str
    #: The game's name as shown, marked for translation (``N_``): shells show it translated.
    label: str
    #: The rating pool family (all Kazambi forms share ``kazambi``).
    family: str
    #: Whether a game can end drawn; a result entry that claims a draw is refused otherwise.
    draws_possible: bool
    #: What alternates between the games of a match, held by ``Game.first_side``:
    #: ``"first move"`` or ``"low doubles"`` (Kugamai).
    first_role: str
    #: The same as a verb phrase: "move first", "hold the low doubles".
    first_role_phrase: str
    #: The deal field naming the seat that holds the role (``"first"``...).
    role_seat_key: str
    #: True: always played by teams; False: never; None: the options decide
    #: (:attr:`players_per_side`).
    team_game: bool | None
    #: Players on each side for these options (a Stolbiki 1 v 1 has one player and two piles).
    players_per_side: Callable[[Mapping[str, Any]], int]
    #: The options that change how long a game is (for the clock advice).
    length_options: tuple[str, ...]
    #: The most moves one seat can make under the rules: ``(limit, why)``; a
    #: ``ValueError`` for an option out of range.
    move_limit: Callable[[Mapping[str, Any]], tuple[int, Message]]
    #: The deal of a match game arranged so that ``first_side`` holds the role (and, for
    #: the second game of a duplicate pair, ``mirrored``, the sides swap hands).
    arrange_deal: Callable[[Deal, int, bool], Deal]
    #: What a hand holds, for the game viewer: ``"tiles"`` or ``"cards"``.
    hand_kind: Literal["tiles", "cards"]
    #: Tiles that fit nowhere are shown apart (Kazambi's burnt tiles).
    burnt_tiles: bool = False
    #: A seat that passes shows its hand to everyone (Stolbiki).
    pass_shows_hand: bool = False


def swap_sides(hands: list[list[str]]) -> list[list[str]]:
    """Give each side's seats the other side's hands (seat 2k <-> seat 2k+1)."""
    swapped = list(hands)
    for seat in range(0, len(hands) - 1, 2):
        swapped[seat], swapped[seat + 1] = hands[seat + 1], hands[seat]
    return swapped


def arrange_first_move(deal: Deal, first_side: int, mirrored: bool) -> Deal:
    """The deal for games where the first move alternates: a mirrored game swaps the
    sides' hands (and colours), and ``first_side`` moves first."""
    arranged = dict(deal)
    hands = [list(hand) for hand in deal["hands"]]
    if mirrored:
        hands = swap_sides(hands)
        if "red_side" in arranged:
            arranged["red_side"] = 1 - arranged["red_side"]
    arranged["first"] = first_side
    arranged["hands"] = hands
    return arranged


def no_length_options(game: str, options: Mapping[str, Any], known: tuple[str, ...]) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(N_("%(game)s: unknown option %(key)r"), game=game, key=unknown[0])


MoveLimit = Callable[[Mapping[str, Any]], tuple[int, Message]]
