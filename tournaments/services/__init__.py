"""Writes for tournaments: each service validates fully, then saves atomically.

Every service takes the acting user as ``actor=`` and checks that they organize the
tournament's club.
"""

from tournaments.services.entrants import (
    bye_cancel,
    bye_request,
    entrant_rating_update,
    entrant_ratings_update,
    entrant_reenter,
    entrant_register,
    entrant_remove,
    entrant_withdraw,
    entrants_register,
    entry_list_register,
    forbid_pairing,
    forbidden_pairing_remove,
)
from tournaments.services.pairing_edits import pairing_edit, pairing_edit_check
from tournaments.services.rounds import round_pair_next, round_release, round_unpair
from tournaments.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_reopen,
    tournament_start,
    tournament_update,
)

__all__ = [
    "bye_cancel",
    "bye_request",
    "entrant_rating_update",
    "entrant_ratings_update",
    "entrant_reenter",
    "entrant_register",
    "entrant_remove",
    "entrant_withdraw",
    "entrants_register",
    "entry_list_register",
    "forbid_pairing",
    "forbidden_pairing_remove",
    "pairing_edit",
    "pairing_edit_check",
    "round_pair_next",
    "round_release",
    "round_unpair",
    "tournament_create",
    "tournament_finish",
    "tournament_open_registration",
    "tournament_reopen",
    "tournament_start",
    "tournament_update",
]
