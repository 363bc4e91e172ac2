"""Fixtures for match and bot-tournament tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def organizer(club_a: Any) -> Any:
    return club_a.organizers.get()


@pytest.fixture
def make_event(club_a: Any, organizer: Any) -> Callable[..., Any]:
    """A started tournament of ``entrants`` players (bots if ``bots`` names a kind)."""
    from players.models import Player
    from tournaments import services

    def make(format: str = "round_robin", entrants: int = 4, game: str = "kugamai",
             bots: str | None = None, bot_settings: dict[str, Any] | None = None,
             start: bool = True, **fields: Any) -> Any:
        tournament = services.tournament_create(
            actor=organizer, club=club_a, name=f"{game} {format}", game=game, format=format,
            **fields,
        )
        for index in range(entrants):
            player = Player.objects.create(
                display_name=f"{'Bot' if bots else 'Player'} {tournament.pk}-{index + 1}",
                club=club_a, is_bot=bool(bots), bot_kind=bots or "",
                bot_settings=bot_settings or {},
            )
            services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                      rating=2000 - index)
        if start:
            tournament = services.tournament_start(actor=organizer, tournament=tournament)
        return tournament

    return make
