"""Writes for tournaments: each service validates fully, then saves atomically.

Every service takes the acting user as ``actor=`` and checks that they organize the
tournament's club.
"""

from tournaments.services.entrants import (
    bye_request,
    entrant_register,
    entrant_withdraw,
    forbid_pairing,
)
from tournaments.services.rounds import round_pair_next
from tournaments.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)

__all__ = [
    "bye_request",
    "entrant_register",
    "entrant_withdraw",
    "forbid_pairing",
    "round_pair_next",
    "tournament_create",
    "tournament_finish",
    "tournament_open_registration",
    "tournament_start",
    "tournament_update",
]
