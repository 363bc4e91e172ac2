"""Input and output types of the Swiss (FIDE Dutch) pairing engine.

"Colour" is the first-move right: ``"W"`` moves first, ``"B"`` moves second.
Scores and points are integers in whatever unit the caller chooses (half-points
are usual: win 2, draw 1, loss 0; the TRF reader uses tenths like the FIDE
programs); tell :func:`pair_round` the value of a win (and of a draw and a loss
when they are not 1/2 and 0 of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tournaments.marked import MarkedError

Colour = Literal["W", "B"]
WHITE: Colour = "W"
BLACK: Colour = "B"


def opposite(colour: Colour) -> Colour:
    return BLACK if colour == WHITE else WHITE


class PairingError(MarkedError):
    """No legal pairing exists, or the data given cannot be paired as it stands."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What happened to one player in one earlier round.

    ``played`` is true only for a game actually played over the board; forfeits,
    byes and absences are unplayed rounds: they give no colour and do not count
    as a meeting of the two players (FIDE C.04.1, C.04.2). ``opponent`` names the
    other player of a paired game, played or forfeited. ``paired`` marks a round in
    which the player took part in the pairing without an opponent being named (a
    forfeit win with no opponent); a named opponent or the pairing-allocated bye
    imply it.
    """

    opponent: int | None = None
    colour: Colour | None = None
    played: bool = False
    points: int = 0
    pairing_allocated_bye: bool = False
    paired: bool = False

    @property
    def took_part(self) -> bool:
        """The player was in the pairing of that round (a game, a forfeit or the PAB)."""
        return self.paired or self.opponent is not None or self.pairing_allocated_bye


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One entrant, numbered for pairing in seeding order (1 = highest seed).

    ``absent`` removes the player from this round's pairing (withdrawn, absent,
    or with a bye already entered for the round). ``acceleration`` holds the
    virtual points added to the score for pairing in each round (index 0 is round
    1), as with Baku acceleration (C.04.5.1); rounds beyond it add nothing.
    """

    number: int
    score: int
    history: tuple[RoundRecord, ...] = ()
    absent: bool = False
    had_pairing_allocated_bye: bool = False
    acceleration: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The pairing of one round: boards in FIDE order, first mover first."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points of the results the Dutch rules look at, in the caller's score unit."""

    win: int = 2
    draw: int = 1
    loss: int = 0


def baku_acceleration(
    ranked_numbers: list[int], total_rounds: int, win: int, draw: int
) -> dict[int, tuple[int, ...]]:
    """Virtual points of the Baku acceleration (C.04.5.1) for each pairing number.

    ``ranked_numbers`` lists the players by pairing number, highest first. The first
    half (rounded up) gets a win's worth in the first quarter of the rounds (rounded
    up, counting at least round 1) and a draw's worth up to the first half; the others
    get nothing.
    """
    if not ranked_numbers or total_rounds < 1:
        return {}
    last_ranked = (len(ranked_numbers) - 1) // 2
    last_round = (total_rounds - 1) // 2
    last_full_round = last_round // 2
    values = tuple(win if index <= last_full_round else draw for index in range(last_round + 1))
    return {number: values for number in ranked_numbers[: last_ranked + 1]}
