"""A per-account slowdown over all addresses (``config/login_guard.py``).

Before: the pauses were per (address, name) and per address only, so 60 addresses could
guess 4 passwords each (240 guesses, none paused) and the right password then worked.
Now, after ``LOGIN_ACCOUNT_FAILURE_LIMIT`` failures for one name from any addresses, that
name's logins are slowed to one attempt per delay (growing, capped at
``LOGIN_ACCOUNT_DELAY_MAX`` seconds, so the owner waits at most that long; an address the
owner signed in from before is not slowed), and the owner is told at the next login."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

from tests.reliability.test_login_guard import admin_login, token_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def account_limits(settings: Any) -> None:
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 10
    settings.LOGIN_ACCOUNT_DELAY = 1
    settings.LOGIN_ACCOUNT_DELAY_MAX = 1


def _spray(client: Client, name: str, addresses: int = 60, each: int = 4) -> list[int]:
    return [token_login(client, name, f"guess-{a}-{i}", address=f"10.1.{a}.1").status_code
            for a in range(addresses) for i in range(each)]


def _fresh_failure(client: Client, name: str) -> None:
    """Guess until one guess is checked (and fails): the account's pause starts anew. On a
    loaded machine the spray's last checked guess may be most of a pause ago."""
    deadline = time.monotonic() + 5
    while token_login(client, name, "one-more-guess", address="10.8.8.8").status_code != 400:
        assert time.monotonic() < deadline, "no guess was checked within 5 s"
        time.sleep(0.05)


def test_guesses_from_many_addresses_slow_the_account(make_user: Any,
                                                      account_limits: None) -> None:
    make_user("alice")
    client = Client()
    codes = _spray(client, "alice")
    assert codes[:10] == [400] * 10
    assert codes.count(400) < 20  # the rest were refused unchecked
    _fresh_failure(client, "alice")  # the next attempt comes well inside the pause
    refused = token_login(client, "alice", "pw-alice", address="10.9.9.9")
    assert refused.status_code == 429
    assert refused.json()["code"] == "login_paused"
    assert "“alice”" in refused.json()["detail"]
    assert 1 <= int(refused["Retry-After"]) <= 1  # never longer than the cap
    time.sleep(1.1)  # the cap's one second: the owner is never locked out for long
    assert token_login(client, "alice", "pw-alice", address="10.9.9.9").status_code == 200


def test_refused_attempts_do_not_keep_the_account_closed(make_user: Any,
                                                         account_limits: None) -> None:
    make_user("alice")
    client = Client()
    _spray(client, "alice", addresses=11, each=1)
    for _ in range(5):  # an attacker hammering during the delay does not extend it
        assert token_login(client, "alice", "again", address="10.2.0.1").status_code == 429
    time.sleep(1.1)
    assert token_login(client, "alice", "pw-alice", address="10.3.0.1").status_code == 200


def test_a_known_address_of_the_owner_is_not_slowed(make_user: Any,
                                                    account_limits: None) -> None:
    make_user("alice")
    client = Client()
    assert token_login(client, "alice", "pw-alice", address="10.7.7.7").status_code == 200
    _spray(client, "alice", addresses=20, each=2)
    assert token_login(client, "alice", "pw-alice", address="10.8.8.8").status_code == 429
    assert token_login(client, "alice", "pw-alice", address="10.7.7.7").status_code == 200


def test_the_organizer_is_told_at_the_next_login(make_user: Any,
                                                 account_limits: None) -> None:
    make_user("root", is_staff=True, is_superuser=True)
    browser = Client()
    assert admin_login(browser, "root", "pw-root", address="10.7.7.7").status_code == 302
    browser.logout()
    _spray(Client(), "root", addresses=15, each=1)
    answer = admin_login(browser, "root", "pw-root", address="10.7.7.7")
    assert answer.status_code == 302
    page = browser.get("/admin/").content.decode()
    assert "15 failed logins for your account since your last login (addresses: 15)" in page
    browser.logout()
    admin_login(browser, "root", "pw-root", address="10.7.7.7")
    assert "failed logins for your account" not in browser.get("/admin/").content.decode()
