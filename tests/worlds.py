"""One way to build a test world: a tournament through the services, its players entered in
rating order, started if asked. ``make_event`` (tests/conftest.py), ``make_tournament``
(tests/integration/tournaments/conftest.py) and the page tests' club (tests/e2e/data.py)
are thin wrappers of :func:`tournament_of` and :func:`enter`; the rating tests'
``GameMaker`` writes games straight into the tables instead, on purpose
(tests/integration/ratings/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from players.models import Club, Player
from tournaments import services
from tournaments.models import Tournament


def people(club: Club, names: Iterable[str], **fields: Any) -> list[Player]:
    """Players (or bots, with ``is_bot`` and ``bot_kind``) of ``club``, one per name."""
    return list(Player.objects.bulk_create(
        Player(display_name=name, club=club, **fields) for name in names))


def tournament_of(organizer: Any, club: Club, players: Iterable[Player], *,
                  name: str, game: str = "kugamai", format: str = "round_robin",
                  top_rating: int = 2000, rating_step: int = 10, start: bool = False,
                  **fields: Any) -> Tournament:
    """A tournament of ``players``, entered with ratings from ``top_rating`` down by
    ``rating_step``; ``fields`` are the other settings of ``tournament_create``. Its rounds
    are released as they are paired unless ``release_pairings_at_once=False`` (a test
    about drafts)."""
    fields.setdefault("release_pairings_at_once", True)
    tournament = services.tournament_create(actor=organizer, club=club, name=name, game=game,
                                            format=format, **fields)
    return enter(organizer, tournament, players, top_rating=top_rating,
                 rating_step=rating_step, start=start)


def enter(organizer: Any, tournament: Tournament, players: Iterable[Player], *,
          top_rating: int = 2000, rating_step: int = 10, start: bool = False) -> Tournament:
    """``players`` entered in ``tournament`` in rating order; started if asked."""
    for index, player in enumerate(players):
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=top_rating - rating_step * index)
    if start:
        tournament = services.tournament_start(actor=organizer, tournament=tournament)
    return tournament
