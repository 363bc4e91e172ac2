"""What the print pack reads, loaded once per pack: the hall's data (entrants with players,
clubs and teams; the pairings by round), a team event's members, the points each entrant
had when each round began, and the live private links with their tokens (for the QR codes
on the result slips). A fixed number of queries, whatever the entrants and rounds.

The standings, the wall chart and the lists come from ``tournaments.lists``: nothing here
computes a standing of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playerlinks.models import EntrantLink
from players.models import Player
from players.permissions import can_manage_club
from tournaments import cache as tournament_cache
from tournaments import lists
from tournaments.lists import HallData
from tournaments.models import Pairing, Tournament


@dataclass(frozen=True)
class LinkCode:
    """One holder's private link to an entrant: who holds it and its token."""

    holder: str
    token: str


@dataclass
class PackData:
    tournament: Tournament
    hall: HallData
    #: Draft rounds included (the club's organizers print them; nobody else does).
    drafts: bool
    members: dict[int, list[Player]]
    links: dict[int, list[LinkCode]] = field(default_factory=dict)
    #: Per entrant id, the points when each round began (item r - 1 for round r).
    points_before: dict[int, list[float]] = field(default_factory=dict)

    def round_numbers(self) -> list[int]:
        return self.hall.round_numbers()

    def pairings(self, number: int) -> list[Pairing] | None:
        return next((p for p in self.hall.rounds if p and p[0].round.number == number), None)

    def points(self, entrant_id: int | None, number: int) -> float | None:
        if entrant_id is None:
            return None
        known = self.points_before.get(entrant_id)
        return known[number - 1] if known is not None and number - 1 < len(known) else None


def may_print(user: Any, tournament: Tournament) -> bool:
    """Only the club's organizers print its event's pack (draft rounds included)."""
    return can_manage_club(user, tournament.club)


def live_links(tournament: Tournament) -> list[EntrantLink]:
    """The tournament's live private links with their holders, by entrant and name."""
    return list(EntrantLink.objects.live().filter(entrant__tournament=tournament)
                .select_related("player").order_by("entrant_id", "player__display_name", "id"))


def pack_data(tournament: Tournament, *, drafts: bool = True) -> PackData:
    """Everything a pack prints but the links' tokens (``printpack.pack.load`` adds
    them). ``drafts``: the rounds not yet released too (the organizers' pack)."""
    hall = lists.hall_data(tournament, public=not drafts)
    members = lists.team_members(tournament, hall.entrants)
    data = PackData(tournament, hall, drafts, members)
    if hall.rounds:  # a draft round's points before it are those of the rounds played
        data.points_before = tournament_cache.points_before_rounds(tournament)
    return data
