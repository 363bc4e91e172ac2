"""What the floors above learn from the tournaments services (see ``core.events``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.events import EventHub


@dataclass(frozen=True, slots=True)
class TournamentRatedChanged:
    """A tournament became rated, or stopped being rated: its games (un)count."""

    tournament_id: int
    rated: bool


tournament_rated_changed: EventHub[TournamentRatedChanged] = EventHub("rated changed")
