"""What the sign-up learns from the tournaments floor: an entrant leaving frees a place."""

from __future__ import annotations

from signup import history_kinds, services
from tournaments import events


def on_entrant_withdrawn(event: events.EntrantWithdrawn) -> None:
    services.entrant_left(tournament_id=event.tournament_id, entrant_id=event.entrant_id)


def on_entrant_removed(event: events.EntrantRemoved) -> None:
    services.entrant_left(tournament_id=event.tournament_id, player_id=event.player_id)


def connect() -> None:
    events.entrant_withdrawn.connect(on_entrant_withdrawn)
    events.entrant_removed.connect(on_entrant_removed)
    history_kinds.register()
