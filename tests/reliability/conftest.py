"""Fixtures of the reliability suite: a clean cache for each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _clean_cache(settings: Any) -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(club_a: Any, club_b: Any) -> Any:
    """Club A's player, team, draft and running tournaments, entrants and a pairing."""
    from tests.reliability.world import build_world

    return build_world(club_a)
