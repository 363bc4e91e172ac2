"""Where entrants' ratings at entry come from, without an upward import.

The club ratings live in ``ratings`` (a floor above this one). Its ``AppConfig.ready``
installs its selector here; the entrant services ask through :func:`entry_ratings`. With
nothing installed (a pure test of the lower floors) every player counts as unrated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: (club id, game name, player ids) -> {player id: rating} for the players rated in the
#: club's pool of the game's family; unrated players are left out.
EntryRatings = Callable[[int, str, Sequence[int]], dict[int, int]]

_source: list[EntryRatings] = []


def install(source: EntryRatings) -> None:
    """Use ``source`` from now on (the ratings app calls this once at start-up)."""
    _source[:] = [source]


def entry_ratings(club_id: int, game: str, player_ids: Sequence[int]) -> dict[int, int]:
    if not _source or not player_ids:
        return {}
    return _source[0](club_id, game, player_ids)
