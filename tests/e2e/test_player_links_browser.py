"""Issue 35's players at the event in Chromium at 375 px (and 1280), English and Russian:
my page (the released board, check-in by its button) and the venue's kiosk checking a
player in by starting number (screenshots in artifacts/screenshots/links-*.png)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "links-pages-pw"


@pytest.fixture
def event_world(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from playerlinks import checkins, services
    from players.models import Club, Player
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    user = get_user_model().objects.create_user("ln_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Knight Club", slug="knight-club")
    club.organizers.add(user)
    people = [Player.objects.create(display_name=name, club=club)
              for name in ("Anna Kowalska", "Jan Nowak", "Ewa Lis", "Piotr Zając",
                           "Maria Wiśniewska-Grabowska")]
    event = tournament_services.tournament_create(
        actor=user, club=club, name="Winter Swiss", game="kazambi", format="swiss",
        rounds_planned=4, clock="15+10", release_pairings_at_once=True)
    Tournament.objects.filter(pk=event.pk).update(venue="Knight Club hall, Main St 5")
    for rating, player in zip((1900, 1800, 1700, 1600, 1500), people, strict=True):
        tournament_services.entrant_register(actor=user, tournament=event, player=player,
                                             rating=rating)
    event = tournament_services.tournament_start(actor=user, tournament=event)
    services.links_issue_missing(actor=user, tournament=event)
    checkins.link_settings_update(actor=user, tournament=event, check_in_every_round=True)
    window = checkins.check_in_window_open(actor=user, tournament=event)
    for entrant in event.entrants.exclude(seed=5):
        checkins.check_in_by_director(actor=user, entrant=entrant)
    checkins.check_in_window_close(actor=user, window=window)
    tournament_services.round_pair_next(actor=user, tournament=event, release=True)
    checkins.check_in_window_open(actor=user, tournament=event)
    anna = event.entrants.get(seed=1)
    token = services.link_token(anna.links.get())
    return {"user": user, "event": event, "token": token, "anna": anna}


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


def _shot(browser: Browser, folder: Path, name: str) -> None:
    for label, size in {"375": (375, 800), "1280": (1280, 900)}.items():
        browser.set_size(*size)
        time.sleep(0.2)
        browser.screenshot(folder / f"links-{name}-{label}.png")
        wide = browser.run("return document.documentElement.scrollWidth;")
        assert wide <= size[0] + 1, (name, label, wide)
    browser.set_size(375, 800)


@pytest.mark.parametrize("language", ["en-gb", "ru"])
def test_my_page_and_kiosk(browser: Browser, live_server: Any, event_world: dict[str, Any],
                           artifacts: Path, language: str) -> None:
    server = str(live_server.url)
    suffix = "ru" if language == "ru" else "en"
    browser.set_size(375, 800)
    browser.get(f"{server}/admin/login/")
    browser.run("document.cookie = 'sessionid=; path=/; max-age=0';"
                f"document.cookie = 'django_language={language}; path=/';")

    token = event_world["token"]
    browser.get(f"{server}/p/{token}/")
    _wait(browser, "return document.getElementById('check-in-button');")
    text = browser.run("return document.body.innerText;")
    assert "Jan Nowak" in text or "Ewa Lis" in text or "Piotr" in text  # the opponent
    assert ("Board" in text) if suffix == "en" else ("Доска" in text)
    _shot(browser, artifacts, f"my-page-{suffix}")
    browser.run("document.getElementById('check-in-button').click();")
    _wait(browser, "return document.querySelector('.pl-done');")
    _shot(browser, artifacts, f"my-page-checked-in-{suffix}")

    browser.get(f"{server}/admin/login/")
    _wait(browser, "return document.getElementById('id_username');")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "ln_director", PASSWORD)
    _wait(browser, "return location.pathname === '/admin/';")
    event = event_world["event"]
    browser.get(f"{server}/kiosk/{event.pk}/")
    _wait(browser, "return document.getElementById('kiosk-code');")
    browser.run("document.getElementById('kiosk-code').value = '2';"
                "document.getElementById('kiosk-form').requestSubmit();")
    _wait(browser, "return document.querySelector('#kiosk-result .kiosk-name');")
    name = browser.run("return document.querySelector('#kiosk-result .kiosk-name').innerText;")
    assert "Jan Nowak" in name
    _shot(browser, artifacts, f"kiosk-{suffix}")
    browser.run("document.getElementById('kiosk-code').value = '77';"
                "document.getElementById('kiosk-form').requestSubmit();")
    _wait(browser, "return document.querySelector('#kiosk-result.kiosk-error');")
    _shot(browser, artifacts, f"kiosk-error-{suffix}")

    browser.get(f"{server}/admin/tournaments/tournament/{event.pk}/links/")
    _wait(browser, "return document.getElementById('links-table');")
    _shot(browser, artifacts, f"links-admin-{suffix}")
    browser.get(f"{server}/admin/tournaments/tournament/{event.pk}/links/cards/")
    _wait(browser, "return document.querySelectorAll('.card svg').length === 5;")
    _shot(browser, artifacts, f"cards-{suffix}")
    browser.get(f"{server}/admin/tournaments/tournament/{event.pk}/check-in/")
    _wait(browser, "return document.getElementById('check-in-counts');")
    _shot(browser, artifacts, f"check-in-admin-{suffix}")
    errors = [e for e in browser.console_errors()
              if "favicon.ico" not in e and "/kiosk/" not in e]  # the kiosk's 400 above
    assert errors == []
    browser.run("document.cookie = 'sessionid=; path=/; max-age=0';")
