"""Logins pause after repeated failures per client address and user name (admin and token)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from config import login_guard

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"
ADMIN_URL = "/admin/login/"


@pytest.fixture
def limit(settings: Any) -> int:
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 600
    return 3


def token_login(client: Client, username: str, password: str, address: str = "10.0.0.1",
                **headers: Any) -> Any:
    return client.post(TOKEN_URL, {"username": username, "password": password},
                       content_type="application/json", REMOTE_ADDR=address, **headers)


def admin_login(client: Client, username: str, password: str,
                address: str = "10.0.0.1") -> Any:
    return client.post(ADMIN_URL, {"username": username, "password": password,
                                   "next": "/admin/"}, REMOTE_ADDR=address)


def test_token_login_pauses_after_the_limit_with_a_clear_message(
    make_user: Any, limit: int
) -> None:
    make_user("alice")
    client = Client()
    for _ in range(limit):
        assert token_login(client, "alice", "wrong").status_code == 400
    refused = token_login(client, "alice", "pw-alice")  # even the right password
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "login_paused"
    assert "Too many failed logins for “alice”" in body["detail"]
    assert refused["Retry-After"] == "600"


def test_the_pause_is_per_address_and_user_name(make_user: Any, limit: int) -> None:
    make_user("alice")
    make_user("bob")
    client = Client()
    for _ in range(limit):
        token_login(client, "alice", "wrong", address="10.0.0.1")
    assert token_login(client, "alice", "wrong", address="10.0.0.1").status_code == 429
    assert token_login(client, "ALICE", "wrong", address="10.0.0.1").status_code == 429
    assert token_login(client, "alice", "pw-alice", address="10.0.0.2").status_code == 200
    assert token_login(client, "bob", "pw-bob", address="10.0.0.1").status_code == 200


def test_a_successful_login_clears_the_count(make_user: Any, limit: int) -> None:
    make_user("alice")
    client = Client()
    for _ in range(limit - 1):
        token_login(client, "alice", "wrong")
    assert token_login(client, "alice", "pw-alice").status_code == 200
    assert login_guard.failure_count("10.0.0.1", "alice") == 0
    for _ in range(limit - 1):
        assert token_login(client, "alice", "wrong").status_code == 400


def test_admin_login_pauses_after_the_limit(make_user: Any, limit: int) -> None:
    make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    for _ in range(limit):
        response = admin_login(client, "root", "wrong")
        assert response.status_code == 200  # the form again, with its error
    refused = admin_login(client, "root", "pw-root")
    assert refused.status_code == 429
    assert "Too many failed logins for “root”" in refused.content.decode()
    assert admin_login(client, "root", "pw-root", address="10.0.0.9").status_code == 302


def test_admin_and_token_failures_share_one_count(make_user: Any, limit: int) -> None:
    make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    admin_login(client, "root", "wrong")
    token_login(client, "root", "wrong")
    admin_login(client, "root", "wrong")
    assert token_login(client, "root", "pw-root").status_code == 429


def test_forwarded_address_is_trusted_only_behind_the_configured_proxies(
    make_user: Any, limit: int, settings: Any
) -> None:
    make_user("alice")
    client = Client()
    settings.NUM_PROXIES = 0  # X-Forwarded-For is ignored: it could be forged
    for forged in ("1.1.1.1", "2.2.2.2", "3.3.3.3"):
        token_login(client, "alice", "wrong", HTTP_X_FORWARDED_FOR=forged)
    assert token_login(client, "alice", "wrong", HTTP_X_FORWARDED_FOR="4.4.4.4"
                       ).status_code == 429

    settings.NUM_PROXIES = 1  # behind nginx: the address nginx appended counts
    for _ in range(limit):
        token_login(client, "alice", "wrong", address="127.0.0.1",
                    HTTP_X_FORWARDED_FOR="9.9.9.9, 5.5.5.5")
    assert token_login(client, "alice", "pw-alice", address="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="6.6.6.6").status_code == 200
    assert token_login(client, "alice", "pw-alice", address="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="8.8.8.8, 5.5.5.5").status_code == 429


def test_failures_count_in_a_shared_cache_for_every_process(make_user: Any, limit: int,
                                                             settings: Any) -> None:
    """With Redis as the cache, counts made by one process are seen by another."""
    redis_cache = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                               "LOCATION": "redis://127.0.0.1:6379/14",
                               "KEY_PREFIX": "login-guard-test"}}
    settings.CACHES = redis_cache
    from django.core.cache import cache

    cache.clear()
    try:
        make_user("alice")
        for _ in range(limit):
            token_login(Client(), "alice", "wrong")
        # another "process": a fresh connection to the same Redis database
        from django.core.cache.backends.redis import RedisCache

        other = RedisCache("redis://127.0.0.1:6379/14", {"KEY_PREFIX": "login-guard-test"})
        assert other.get(login_guard._key("10.0.0.1", "alice")) == limit
        assert token_login(Client(), "alice", "pw-alice").status_code == 429
    finally:
        cache.clear()
