"""The admin in Russian in a real Chromium: the switch on the login page chooses Russian,
the round page then speaks it (Django's own words, the site's titles, the switch), a
screenshot at 1280 and 375 px; switching back while signed in stores the choice."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "russian-walk-pw"


@pytest.fixture
def director_round(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("ru_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Ru Club", slug="ru-club")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Кубок", game="kugamai", format="round_robin")
    for index in range(4):
        player = Player.objects.create(display_name=f"Игрок {index + 1}", club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    return {"round": services.round_pair_next(actor=user, tournament=tournament, release=True),
            "user": user}


@pytest.fixture
def server(director_round: Any, live_server: Any, browser: Browser) -> Iterator[str]:
    yield str(live_server.url)
    browser.run("document.cookie = 'django_language=; max-age=0; path=/';")


def _wait(browser: Browser, script: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = browser.run(script)
        except Exception:  # noqa: BLE001 - the page is being replaced
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {script}")


def _switch(browser: Browser, code: str) -> None:
    browser.run(f"document.querySelector('form.language-switch button[value=\"{code}\"]')"
                ".click();")
    _wait(browser, f"return document.readyState === 'complete'"
                   f" && document.documentElement.lang === '{code}';")


def test_the_admin_round_page_in_russian(browser: Browser, server: str,
                                         director_round: dict[str, Any],
                                         artifacts: Path) -> None:
    from pages.models import LanguagePreference

    page = f"/admin/tournaments/round/{director_round['round'].pk}/change/"
    browser.set_size(1280, 900)
    browser.get(f"{server}/admin/login/?next={page}")
    _wait(browser, "return document.getElementById('id_username');")
    _switch(browser, "ru")
    assert "Имя пользователя" in browser.run("return document.body.innerText;")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "ru_director", PASSWORD)
    _wait(browser, f"return location.pathname === '{page}' && "
                   "document.readyState === 'complete';")
    browser.console_errors()
    lang, text, header = browser.run(
        "return [document.documentElement.lang, document.body.innerText,"
        " document.getElementById('header').innerText];")
    assert lang == "ru"
    assert "Сервис клубных турниров" in header and "English" in header
    assert "выйти" in text.lower() and "Главная" in text
    for width, size in {"desktop": (1280, 900), "phone": (375, 800)}.items():
        browser.set_size(*size)
        browser.get(server + page)
        overflow = browser.run(
            "return document.documentElement.scrollWidth > window.innerWidth + 1;")
        browser.screenshot(artifacts / f"ru-admin-round-{width}.png")
        assert not (width == "desktop" and overflow)
    assert browser.console_errors() == []

    browser.set_size(1280, 900)
    browser.get(server + page)
    _switch(browser, "en-gb")
    assert "log out" in browser.run("return document.body.innerText;").lower()
    assert LanguagePreference.objects.get(user=director_round["user"]).language == "en-gb"
