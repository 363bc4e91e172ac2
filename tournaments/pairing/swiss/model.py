"""Input and output types of the Swiss (FIDE Dutch) pairing engine.

"Colour" is the first-move right: ``"W"`` moves first, ``"B"`` moves second.
Scores and points are integers in whatever unit the caller chooses (half-points
are usual: win 2, draw 1, loss 0); tell :func:`pair_round` the value of a win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Colour = Literal["W", "B"]
WHITE: Colour = "W"
BLACK: Colour = "B"


def opposite(colour: Colour) -> Colour:
    return BLACK if colour == WHITE else WHITE


class PairingError(ValueError):
    """No legal pairing exists, or the data given cannot be paired as it stands."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What happened to one player in one earlier round.

    ``played`` is true only for a game actually played over the board; forfeits,
    byes and absences are unplayed rounds: they give no colour and do not count
    as a meeting of the two players (FIDE C.04.1, C.04.2).
    """

    opponent: int | None = None
    colour: Colour | None = None
    played: bool = False
    points: int = 0
    pairing_allocated_bye: bool = False


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One entrant, numbered for pairing in seeding order (1 = highest seed).

    ``absent`` removes the player from this round's pairing (withdrawn, absent,
    or with a bye already entered for the round).
    """

    number: int
    score: int
    history: tuple[RoundRecord, ...] = ()
    absent: bool = False
    had_pairing_allocated_bye: bool = False


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The pairing of one round: boards in FIDE order, first mover first."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
