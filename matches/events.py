"""What the floors above learn from the matches services, without being imported by them.

The ratings app (above ``matches``) subscribes in its ``AppConfig.ready``; the services
here send, inside their transaction, after Game rows were added, removed or changed. So
arrows still point down: ``matches`` never imports the apps that listen.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.events import EventHub


@dataclass(frozen=True, slots=True)
class GamesChanged:
    """Games of one pairing changed.

    ``added`` holds the ids of new games at the end of the match, in order. ``corrected``
    is True when games were removed, renumbered or replaced: what depends on the order of
    all games (a rating pool) must be rebuilt.
    """

    tournament_id: int
    pairing_id: int
    added: tuple[int, ...] = ()
    corrected: bool = False


games_changed: EventHub[GamesChanged] = EventHub("games changed")


def games_changed_send(event: GamesChanged) -> None:
    if event.added or event.corrected:
        games_changed.send(event)
