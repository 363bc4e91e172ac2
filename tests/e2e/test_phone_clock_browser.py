"""The phone clock in a real Chromium at 375 px: a 40-move game played with the network
off (DevTools network emulation through the CDP), nothing reaches the server until the
phone is back online, then every tap arrives once and the stored times add up (base +
increments - time left = time used, within 1 s, and what the page showed). Screenshots in
English and Russian; the page reloads offline from the service worker's copy with its
queued taps; the follow page of a second phone shows the same clock, and a second phone
opening the clock itself follows it until it takes the clock over."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import PASSWORD, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BASE_MS, INCREMENT_MS = 5 * 60 * 1000, 2000


@pytest.fixture
def clock_board(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("clock_root", password=PASSWORD, is_staff=True)
    club = Club.objects.create(name="Clock Club", slug="clock-club")
    club.organizers.add(user)
    tournament = services.tournament_create(actor=user, club=club, name="Clock cup",
                                            game="kugamai", format="round_robin", clock="5+2",
                                            release_pairings_at_once=True)
    for name in ("Anna Petrova", "Boris Ivanov"):
        services.entrant_register(actor=user, tournament=tournament,
                                  player=Player.objects.create(display_name=name, club=club))
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    return round_.pairings.get(entrant_b__isnull=False)


def cdp(browser: Browser, command: str, params: dict[str, Any]) -> Any:
    """A Chrome DevTools Protocol command through chromedriver."""
    return browser._call("POST", f"{browser.session}/goog/cdp/execute",
                         {"cmd": command, "params": params})


def offline(browser: Browser, off: bool) -> None:
    cdp(browser, "Network.enable", {})
    cdp(browser, "Network.emulateNetworkConditions", {
        "offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def log_in(browser: Browser, server: str) -> None:
    browser.get(server + "/admin/login/?next=/admin/")
    wait_for(browser, "return document.getElementById('id_username');")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "clock_root", PASSWORD)
    wait_for(browser, "return location.pathname === '/admin/';")


def tap(browser: Browser, seat: int) -> None:
    browser.run("document.getElementById('half-' + arguments[0]).dispatchEvent("
                "new PointerEvent('pointerdown', {bubbles: true, cancelable: true}));", seat)


def test_forty_moves_offline_then_synced(browser: Browser, live_server: Any, clock_board: Any,
                                         artifacts: Path) -> None:
    from phoneclock.models import ClockSession, ClockTap

    server = str(live_server.url)
    browser.set_size(375, 760)
    log_in(browser, server)
    url = f"{server}/clock/board/{clock_board.pk}/1/"
    browser.get(url)
    wait_for(browser, "return document.getElementById('clock').dataset.ready === '1';")
    wait_for(browser, "return navigator.serviceWorker && navigator.serviceWorker.controller "
                      "|| (location.reload(), false);", timeout=20)
    wait_for(browser, "return document.getElementById('clock').dataset.ready === '1';")
    browser.screenshot(artifacts / "phone-clock-375-en-start.png", full_page=False)
    session = ClockSession.objects.get(pairing=clock_board, game_number=1)

    offline(browser, True)
    assert wait_for(browser, "return navigator.onLine === false;")
    rng = random.Random(38)
    tap(browser, 1)  # side B starts side A's clock
    for move in range(40):
        time.sleep(rng.uniform(0.02, 0.12))
        tap(browser, move % 2)
    waiting = wait_for(browser, "var s = document.getElementById('clock-status');"
                                "return s.dataset.waiting === '41' && s.textContent;")
    assert "41" in waiting
    browser.screenshot(artifacts / "phone-clock-375-en-offline.png", full_page=False)
    assert not ClockTap.objects.filter(session=session).exists()
    shown = browser.run("return [document.getElementById('time-0').textContent,"
                        " document.getElementById('time-1').textContent];")
    # reloaded while offline: the service worker's copy of the page, the taps from IndexedDB
    browser.get(url)
    wait_for(browser, "return document.getElementById('clock').dataset.ready === '1';")
    assert wait_for(browser, "return document.getElementById('clock-status').dataset.waiting;") \
        == "41"
    assert "20" in browser.run("return document.getElementById('moves-1').textContent;")
    assert not ClockTap.objects.filter(session=session).exists()

    offline(browser, False)
    deadline = time.monotonic() + 20
    while ClockTap.objects.filter(session=session).count() < 41 and time.monotonic() < deadline:
        time.sleep(0.2)
    wait_for(browser, "return document.getElementById('clock-status').dataset.waiting === '0';")
    session.refresh_from_db()
    taps = list(ClockTap.objects.filter(session=session).order_by("sequence"))
    assert [tap.sequence for tap in taps] == list(range(1, 42))
    assert len(session.record) == 40
    for side in (0, 1):
        moves = [entry for entry in session.record if entry["side"] == side]
        used = sum(entry["used_ms"] for entry in moves)
        left = moves[-1]["left_ms"]
        assert abs(BASE_MS + INCREMENT_MS * len(moves) - left - used) <= 1000
        # what the page showed (m:ss) is the stored time left, within a second; side A's
        # clock was running again (since the last move) when the page was read
        minutes, seconds = shown[side].split(":")
        page_left = int(minutes) * 60_000 + float(seconds) * 1000
        assert -1000 <= left - page_left <= (1000 if side == 1 else 5000)
    # the whole game's time used is the time between the first and the last tap
    assert abs(sum(e["used_ms"] for e in session.record) - (taps[-1].at_ms - taps[0].at_ms)) <= 1

    follow = f"{server}/clock/follow/{session.follow_token}/"
    browser.get(follow)
    wait_for(browser, "return document.getElementById('moves-0').textContent.indexOf('20') >= 0;")
    browser.screenshot(artifacts / "phone-clock-375-en-follow.png", full_page=False)
    browser.get(url)
    wait_for(browser, "return document.getElementById('clock').dataset.ready === '1';")
    browser.run("document.querySelector('form.language-switch button[value=\"ru\"]').click();")
    wait_for(browser, "return document.documentElement.lang === 'ru' && "
                      "document.getElementById('clock').dataset.ready === '1';")
    browser.run("document.getElementById('arbiter').open = true;")
    browser.screenshot(artifacts / "phone-clock-375-ru.png", full_page=False)
    browser.run("document.querySelector('[data-action=resign][data-seat=\"1\"]');"
                "window.confirm = function () { return true; };"
                "document.querySelector('[data-action=resign][data-seat=\"1\"]').click();")
    wait_for(browser, "return !document.getElementById('clock-result').hidden;")
    browser.run("document.getElementById('arbiter').open = false;")
    browser.screenshot(artifacts / "phone-clock-375-ru-resigned.png", full_page=False)
    deadline = time.monotonic() + 10
    while not ClockSession.objects.get(pk=session.pk).finish and time.monotonic() < deadline:
        time.sleep(0.2)
    session.refresh_from_db()
    assert (session.finish, session.winner_side) == ("resign", 0)
    # a second phone (another id) opening the clock follows it until its user takes it over
    browser.run("localStorage.setItem('phoneclock-phone', 'f'.repeat(32));")
    browser.get(url)
    wait_for(browser, "return !document.getElementById('clock-takeover').hidden;")
    assert "following" in browser.run("return document.getElementById('clock').className;")
    browser.screenshot(artifacts / "phone-clock-375-ru-other-phone.png", full_page=False)
    browser.run("window.confirm = function () { return true; };"
                "document.querySelector('[data-action=takeover]').click();")
    wait_for(browser, "return document.getElementById('clock-takeover').hidden;")
    session.refresh_from_db()
    assert session.runner == "f" * 32
    browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
    # the 409 that made the second phone a follower is the one expected
    errors = [line for line in browser.console_errors()
              if "favicon" not in line and "409" not in line]
    assert errors == [], errors[:3]
