"""Writes for leagues: each service validates fully, then saves atomically.

Every service takes the acting user as ``actor=`` (captains' writes may come instead with
their private ``link=``) and refuses with :class:`core.errors.ApplicationError` naming the
field at fault. Pages, admin and tasks call these; nothing else writes league rows.
"""

from leagues.services.leagues import (
    division_create,
    league_create,
    roster_set,
    season_create,
    team_enter,
)
from leagues.services.lineups import (
    availability_set,
    lineup_submit,
    match_boards_pair,
    match_forfeit,
    match_schedule,
    match_winner_set,
    reserve_add,
)
from leagues.services.links import (
    captain_link_issue,
    captain_link_revoke,
    captain_link_touch,
)
from leagues.services.reminders import lineup_reminders_send
from leagues.services.seasons import (
    division_pair_next,
    season_finish,
    season_next,
    season_start,
)

__all__ = [
    "availability_set",
    "captain_link_issue",
    "captain_link_revoke",
    "captain_link_touch",
    "division_create",
    "division_pair_next",
    "league_create",
    "lineup_reminders_send",
    "lineup_submit",
    "match_boards_pair",
    "match_forfeit",
    "match_schedule",
    "match_winner_set",
    "reserve_add",
    "roster_set",
    "season_create",
    "season_finish",
    "season_next",
    "season_start",
    "team_enter",
]
