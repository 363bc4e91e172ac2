"""Swiss pairing by the FIDE Dutch system (C.04.3), pure Python."""

from tournaments.pairing.swiss.dutch import pair_round
from tournaments.pairing.swiss.model import (
    BLACK,
    WHITE,
    Colour,
    PairingError,
    RoundRecord,
    SwissPlayer,
    SwissRound,
)

__all__ = [
    "BLACK",
    "WHITE",
    "Colour",
    "PairingError",
    "RoundRecord",
    "SwissPlayer",
    "SwissRound",
    "pair_round",
]
