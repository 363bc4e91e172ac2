"""Team matches: schedules, availability, reserves, lineups, boards and forfeits."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from leagues.models import CaptainLink, Lineup, MatchBoard, RosterEntry, SeasonTeam, TeamMatch
from players.models import Player
from players.permissions import Actor

#: One board of a lineup: a player, nobody (the board left empty) or a pair.
type BoardChoice = Player | None | tuple[Player, Player | None]


def match_schedule(*, actor: Actor, match: TeamMatch, starts_at: datetime.datetime,
                   venue: str = "", lineup_deadline: datetime.datetime | None = None
                   ) -> TeamMatch:
    """Set a match's date, venue and lineup deadline (by default ``starts_at`` minus the
    league's ``lineup_deadline_hours``)."""
    raise NotImplementedError


def availability_set(*, actor: Actor | None = None, link: CaptainLink | None = None,
                     season_team: SeasonTeam, player: Player, round_number: int,
                     available: bool) -> None:
    """Mark a rostered player available or not for a round (captain or league manager)."""
    raise NotImplementedError


def reserve_add(*, actor: Actor | None = None, link: CaptainLink | None = None,
                season_team: SeasonTeam, player: Player) -> RosterEntry:
    """Bring a reserve onto a team's roster during the season (captain or manager)."""
    raise NotImplementedError


def lineup_submit(*, actor: Actor | None = None, link: CaptainLink | None = None,
                  match: TeamMatch, team: SeasonTeam, boards: Sequence[BoardChoice],
                  now: datetime.datetime | None = None) -> Lineup:
    """Submit (or replace) ``team``'s lineup for ``match``, boards in board order.

    Refused with the reason after the deadline (a league manager's is accepted, marked
    late and logged), when it breaks the league's order rule, names a player not on the
    roster, marked unavailable, of another team or twice, or once the boards are paired.
    The second lineup in pairs the boards (:func:`match_boards_pair`).
    """
    raise NotImplementedError


def match_boards_pair(*, actor: Actor | None = None, match: TeamMatch) -> list[MatchBoard]:
    """Put the match's boards into the division's board tournament, from both lineups.

    Called when the second lineup arrives, or by a manager at the deadline: a missing lineup
    then is a whole-match forfeit by that team.
    """
    raise NotImplementedError


def match_forfeit(*, actor: Actor, match: TeamMatch, side: str) -> TeamMatch:
    """A whole-match forfeit by ``side`` ("home", "away" or "both")."""
    raise NotImplementedError
