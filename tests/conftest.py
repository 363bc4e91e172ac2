"""Shared fixtures: users, clubs and an API client (database tests run on PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def make_user(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **fields: Any) -> Any:
        name = username or f"user{next(counter)}"
        return get_user_model().objects.create_user(name, password="pw-" + name, **fields)

    return make


@pytest.fixture
def admin_user(make_user: Any) -> Any:
    return make_user("root", is_superuser=True, is_staff=True)


@pytest.fixture
def club_a(db: Any, make_user: Any) -> Any:
    from players.models import Club

    club = Club.objects.create(name="Alpha Club", slug="alpha")
    club.organizers.add(make_user("alice"))
    return club


@pytest.fixture
def club_b(db: Any, make_user: Any) -> Any:
    from players.models import Club

    club = Club.objects.create(name="Beta Club", slug="beta")
    club.organizers.add(make_user("bob"))
    return club


@pytest.fixture
def api() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def as_user(api: Any) -> Any:
    def login(user: Any) -> Any:
        api.force_authenticate(user=user)
        return api

    return login
