"""Fixtures of the prize tests: a played round robin (tests/integration/prizes/events.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.prizes.events import play
from tournaments.models import Tournament


@pytest.fixture
def play_event(club_a: Any, organizer: Any) -> Callable[..., Tournament]:
    def make(results: Any, **kwargs: Any) -> Tournament:
        return play(organizer, club_a, results, **kwargs)

    return make
