"""What the floors above learn from players' reports (see ``core.events``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.events import EventHub


@dataclass(frozen=True, slots=True)
class ClaimAwaitsOpponent:
    """One side of a board reported its result; the other side (``opponent_id``, an
    entrant) has not: it is asked to confirm or to report otherwise."""

    pairing_id: int
    opponent_id: int
    outcome: str
    wins_a: int
    wins_b: int
    draws: int


claim_awaits_opponent: EventHub[ClaimAwaitsOpponent] = EventHub("claim awaits opponent")
