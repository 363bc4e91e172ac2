"""Fixtures for over-the-board result entry: a running tournament with a paired round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def paired(make_event: Any, organizer: Any) -> Callable[..., Any]:
    """A started tournament with its first round paired; returns the round."""
    from tournaments.services import round_pair_next

    def make(**fields: Any) -> Any:
        tournament = make_event(**fields)
        return round_pair_next(actor=organizer, tournament=tournament, release=True)

    return make


def boards(round_: Any) -> list[Any]:
    return list(round_.pairings.filter(entrant_b__isnull=False).order_by("board"))
