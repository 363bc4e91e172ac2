"""What the floors above learn from the links app (see ``core.events``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.events import EventHub


@dataclass(frozen=True, slots=True)
class CheckInOpened:
    """Check-in for round ``round_number`` opened (players may be told)."""

    tournament_id: int
    round_number: int


check_in_opened: EventHub[CheckInOpened] = EventHub("check-in opened")
