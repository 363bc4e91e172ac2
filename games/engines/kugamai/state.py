"""The mutable Kugamai position that the engine's make/unmake works on."""

from __future__ import annotations

from typing import Any

from games.engines.kugamai.tiles import (
    HIGH_DOUBLES_MASK,
    LOW_DOUBLES_MASK,
    PASS,
    TILE_MASK,
    VALUES,
)


class KugamaiState:
    """A position: hands as 49-bit masks (see :mod:`.tiles`), the history as move codes
    (the chain is the tiles of a loaded position's chain, then those of the history), and
    per-value counts of tiles not yet on the table.

    Treat it as opaque outside the engine; ``KugamaiEngine.play`` copies it, ``push`` and
    ``pop`` change it in place.
    """

    __slots__ = (
        "options",
        "low_doubles_seat",
        "hands",
        "loaded_chain",
        "history",
        "to_move",
        "end",
        "remaining",
        "safe",
        "doubles_left",
        "initial_hands",
    )

    def __init__(
        self,
        options: dict[str, Any],
        low_doubles_seat: int,
        hands: tuple[int, int],
        to_move: int,
        chain: list[int] | None = None,
        initial_hands: tuple[int, int] | None = None,
    ) -> None:
        self.options = options
        self.low_doubles_seat = low_doubles_seat
        self.hands = list(hands)
        #: The chain of a position loaded without its history (empty otherwise).
        self.loaded_chain: tuple[int, ...] = tuple(chain) if chain else ()
        self.history: list[int] = []
        self.to_move = to_move
        #: Known when the game was dealt or its whole history given; else None.
        self.initial_hands = initial_hands
        self.end = self.loaded_chain[-1] % 7 if self.loaded_chain else -1
        self.remaining = [7] * 7
        self.safe = 127
        if self.loaded_chain:
            for code in self.loaded_chain:
                a, b = divmod(code, 7)
                self.remaining[a] -= 1
                if a != b:
                    self.remaining[b] -= 1
            self.safe = sum(1 << v for v in VALUES if self.remaining[v] >= 2)
        low = LOW_DOUBLES_MASK if low_doubles_seat == 0 else HIGH_DOUBLES_MASK
        self.doubles_left = [
            (self.hands[0] & low).bit_count(),
            (self.hands[1] & (LOW_DOUBLES_MASK ^ HIGH_DOUBLES_MASK ^ low)).bit_count(),
        ]

    def copy(self) -> KugamaiState:
        clone = KugamaiState.__new__(KugamaiState)
        clone.options = self.options
        clone.low_doubles_seat = self.low_doubles_seat
        clone.hands = list(self.hands)
        clone.loaded_chain = self.loaded_chain
        clone.history = list(self.history)
        clone.to_move = self.to_move
        clone.end = self.end
        clone.remaining = list(self.remaining)
        clone.safe = self.safe
        clone.doubles_left = list(self.doubles_left)
        clone.initial_hands = self.initial_hands
        return clone

    @property
    def chain(self) -> list[int]:
        """The move codes of the tiles on the table, in the order laid."""
        return [*self.loaded_chain, *(code for code in self.history if code != PASS)]

    def holder_of(self, code: int) -> int | None:
        """The seat whose hand holds the tile of move ``code``, or None."""
        mask = TILE_MASK[code]
        for seat, hand in enumerate(self.hands):
            if hand & mask:
                return seat
        return None

    def __repr__(self) -> str:
        return (
            f"<KugamaiState to_move={self.to_move} end={self.end} "
            f"chain={len(self.chain)} history={len(self.history)}>"
        )
