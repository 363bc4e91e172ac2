"""A small typed event hub: a lower floor announces what happened, the floors above
subscribe (in their ``AppConfig.ready``), and no import points upward."""

from __future__ import annotations

from collections.abc import Callable


class EventHub[E]:
    """Listeners called in order, synchronously, inside the sender's transaction."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._listeners: list[Callable[[E], None]] = []

    def connect(self, listener: Callable[[E], None]) -> None:
        """Call ``listener`` with every event (once, however often connected)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def send(self, event: E) -> None:
        for listener in list(self._listeners):
            listener(event)
