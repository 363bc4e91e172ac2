"""Fixtures for the page tests: one club of tournaments (bot runs, a team event, a club
night waiting for results), committed so that a browser reads it through a live server
thread, and removed at the end.

pytest-django runs tests in the order database tests, transactional tests (which empty the
tables after each test), then tests without the database mark. The browser tests and page
renders are of the last kind and read committed data; ``club_data`` builds the club when
it is missing (the first time, or after a transactional test emptied the tables), so the
order of the files does not matter.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser, WebDriverError, find_binaries

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


class _Holder:
    data: Any = None


@pytest.fixture(scope="package")
def _club_holder(django_db_setup: Any, django_db_blocker: Any) -> Iterator[_Holder]:
    """Holds the club; sets the test database up itself when no selected test asked
    pytest-django for it (``-k`` choosing only browser tests)."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.backends.base.creation import TEST_DATABASE_PREFIX
    from django.test.utils import setup_databases, teardown_databases

    created = None
    with django_db_blocker.unblock():
        given = connection.settings_dict
        # the test database's name: its TEST NAME (an xdist worker's), or test_<NAME>
        set_up = given["NAME"] == given["TEST"]["NAME"] if given["TEST"].get("NAME") \
            else given["NAME"].startswith(TEST_DATABASE_PREFIX)
        if not set_up:
            aliases: Any = {"default"}
            created = setup_databases(verbosity=0, interactive=False, aliases=aliases)
    holder = _Holder()
    try:
        yield holder
    finally:
        with django_db_blocker.unblock():
            if holder.data is not None:
                call_command("flush", interactive=False, verbosity=0)
            if created is not None:
                teardown_databases(created, verbosity=0)


@pytest.fixture
def club_data(_club_holder: _Holder, django_db_blocker: Any) -> Any:
    """The club (built now if the tables do not hold it)."""
    from django.core.cache import cache

    from players.models import Club
    from tests.e2e.data import build_club

    with django_db_blocker.unblock():
        data = _club_holder.data
        if data is None or not Club.objects.filter(pk=data.club.pk).exists():
            cache.clear()
            _club_holder.data = build_club(running=True)
    return _club_holder.data


@pytest.fixture
def unblocked(django_db_blocker: Any) -> Iterator[None]:
    """Database access for a test without the database mark (committed data)."""
    with django_db_blocker.unblock():
        yield


@pytest.fixture(scope="package")
def page_server(_club_holder: _Holder) -> Iterator[str]:
    """A live server thread over the committed data (pytest-django's LiveServer,
    package-scoped so the data is not flushed between tests)."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("Chromium and chromedriver are not installed "
                    "(apt-get install -y chromium chromium-driver)")
    session = Browser(*binaries)
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture(autouse=True)
def _browser_starts_clean(request: pytest.FixtureRequest) -> None:
    """Each browser test starts signed out, in the default language, with an empty console
    log: the session is shared by the package, and a language cookie or an expected 400
    left by the test before must not reach the next one."""
    if "browser" not in request.fixturenames:
        return
    browser: Browser = request.getfixturevalue("browser")
    browser.console_errors()
    with contextlib.suppress(WebDriverError):  # no page loaded yet: no cookies either
        browser._call("DELETE", f"{browser.session}/cookie")


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
