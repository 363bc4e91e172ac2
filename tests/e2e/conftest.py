"""Fixtures for the page tests: one club of bot tournaments, built once for the package
and committed (a browser reads it through a live server thread), removed afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser, find_binaries

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="package")
def club_data(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Any]:
    from django.core.management import call_command

    from tests.e2e.data import build_club

    with django_db_blocker.unblock():
        data = build_club(running=True)
        try:
            yield data
        finally:
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="package")
def page_server(club_data: Any) -> Iterator[str]:
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


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
