"""A tournament open for sign-up (a Swiss, players entered by the public)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def open_event(club_a: Any, organizer: Any) -> Callable[..., Any]:
    from signup import services
    from tournaments import services as tournament_services

    def make(cap: int | None = 20, **settings: Any) -> Any:
        tournament = tournament_services.tournament_create(
            actor=organizer, club=club_a, name="Open Swiss", game="kugamai", format="swiss",
            rounds_planned=5, release_pairings_at_once=True)
        settings.setdefault("is_open", True)
        services.signup_settings_update(actor=organizer, tournament=tournament, cap=cap,
                                        **settings)
        return tournament

    return make
