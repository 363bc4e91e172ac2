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


@dataclass(frozen=True, slots=True)
class PairingAsked:
    """Round ``round_number`` is about to be paired: a listener that must stop it (a result
    still in dispute, say) raises ``ApplicationError`` with the reason."""

    tournament_id: int
    round_number: int


pairing_asked: EventHub[PairingAsked] = EventHub("pairing asked")


@dataclass(frozen=True, slots=True)
class RoundReleased:
    """A round's pairings were published (at once, or by the director's release)."""

    tournament_id: int
    round_id: int
    round_number: int


round_released: EventHub[RoundReleased] = EventHub("round released")


@dataclass(frozen=True, slots=True)
class EntrantWithdrawn:
    """An entrant withdrew from ``from_round`` on (a waiting list may move up)."""

    tournament_id: int
    entrant_id: int
    from_round: int


entrant_withdrawn: EventHub[EntrantWithdrawn] = EventHub("entrant withdrawn")


@dataclass(frozen=True, slots=True)
class EntrantRemoved:
    """An entry was taken back before the start (the row is gone; a waiting list may move
    up)."""

    tournament_id: int
    entrant_id: int
    player_id: int | None


entrant_removed: EventHub[EntrantRemoved] = EventHub("entrant removed")
