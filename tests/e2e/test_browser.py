"""The pages in a real headless Chromium (through chromedriver): no console errors, no
sideways scrolling on a 375 px phone, the game viewer steps with the arrow keys, the
bracket names the winner and the live page follows the bots. Screenshots of the main
pages go to artifacts/screenshots/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData

PAGES = ["home", "tournaments", "round-robin", "swiss", "knockout", "live", "player",
         "game-kugamai", "game-kazambi", "game-stolbiki", "leaderboard"]


def page_path(data: ClubData, name: str) -> str:
    def tournament(t: Any) -> str:
        return reverse("pages:tournament-detail", args=[t.club.slug, t.slug])

    if name.startswith("game-"):
        game = name.removeprefix("game-")
        source = {"kugamai": data.round_robin, "kazambi": data.knockout,
                  "stolbiki": data.swiss}[game]
        return reverse("pages:game-detail", args=[data.game_of(source, game).pk])
    if name == "player":
        entrant = data.round_robin.entrants.order_by("id").first()
        assert entrant is not None and entrant.player_id is not None
        return reverse("pages:player-detail", args=[entrant.player_id])
    return {
        "home": "/", "tournaments": "/tournaments/",
        "round-robin": tournament(data.round_robin), "swiss": tournament(data.swiss),
        "knockout": tournament(data.knockout),
        "live": tournament(data.running) if data.running else "/",
        "leaderboard": reverse("pages:leaderboard", args=["kugamai"]),
    }[name]


@pytest.fixture(scope="package")
def paths(club_data: ClubData, django_db_blocker: Any) -> dict[str, str]:
    with django_db_blocker.unblock():
        return {name: page_path(club_data, name) for name in PAGES}


def _open(browser: Browser, url: str) -> None:
    browser.get(url)
    browser.console_errors()  # nothing before this page counts


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_without_console_errors(browser: Browser, page_server: str,
                                           paths: dict[str, str], artifacts: Path,
                                           name: str) -> None:
    browser.set_size(1280, 900)
    browser.get(page_server + paths[name])
    state = browser.run("return [document.readyState, document.querySelectorAll('h1').length,"
                        " document.querySelector('main') !== null, document.title];")
    assert state[0] == "complete" and state[1] == 1 and state[2], state
    time.sleep(0.3)  # let deferred scripts run
    assert browser.console_errors() == [], name
    missing_labels = browser.run(
        "return Array.from(document.querySelectorAll('svg')).filter(function (svg) {"
        " return svg.getAttribute('role') !== 'img' || !svg.getAttribute('aria-labelledby');"
        "}).length;")
    assert missing_labels == 0
    browser.screenshot(artifacts / f"{name}-desktop.png")


@pytest.mark.parametrize("name", PAGES)
def test_phone_width_has_no_sideways_scrolling(browser: Browser, page_server: str,
                                               paths: dict[str, str], artifacts: Path,
                                               name: str) -> None:
    browser.set_size(375, 800)
    browser.get(page_server + paths[name])
    widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert widths[1] <= 375 and widths[0] <= widths[1], f"{name}: {widths}"
    if name in ("home", "knockout", "swiss", "game-kazambi", "game-stolbiki", "player"):
        browser.screenshot(artifacts / f"{name}-phone.png")


def _viewer_state(browser: Browser) -> list[Any]:
    return browser.run(
        "var shown = Array.from(document.querySelectorAll('figure.step'))"
        ".filter(function (f) { return !f.hidden; });"
        "return [shown.length, shown.length ? Number(shown[0].dataset.step) : -1,"
        " document.getElementById('step-label').textContent];")


@pytest.mark.parametrize("game", ["kugamai", "kazambi", "stolbiki"])
def test_game_viewer_steps_through_the_whole_game_with_arrow_keys(
        browser: Browser, page_server: str, paths: dict[str, str], game: str) -> None:
    browser.set_size(1280, 900)
    browser.get(page_server + paths[f"game-{game}"])
    last = int(browser.run("return document.getElementById('viewer').dataset.last;"))
    assert last > 0
    assert _viewer_state(browser)[:2] == [1, last]  # opens on the final position
    browser.press("Home")
    assert _viewer_state(browser)[:2] == [1, 0]
    for step in range(1, last + 1):
        browser.press("ArrowRight")
        shown, current, label = _viewer_state(browser)
        assert (shown, current) == (1, step)
        assert label.startswith(f"Move {step} of {last}")
    browser.press("ArrowRight")  # past the end stays at the end
    assert _viewer_state(browser)[:2] == [1, last]
    browser.press("ArrowLeft")
    assert _viewer_state(browser)[:2] == [1, last - 1]
    assert browser.console_errors() == []


def test_bracket_shows_the_champion(browser: Browser, page_server: str, club_data: ClubData,
                                    paths: dict[str, str], django_db_blocker: Any) -> None:
    from tournaments.selectors import standings

    with django_db_blocker.unblock():
        table = standings(club_data.knockout)
        champion_seed = table["bracket"]["champion"]
        champion = club_data.knockout.entrants.get(seed=champion_seed).name
    browser.set_size(1280, 900)
    browser.get(page_server + paths["knockout"])
    banner, boxes, winner_rows = browser.run(
        "var svg = document.querySelector('svg.bracket');"
        "return [svg.querySelector('.champion-text').textContent,"
        " svg.querySelectorAll('.match-box.champion').length,"
        " document.querySelectorAll('table.standings tr.winner-row th').length];")
    assert banner == f"Champion: {champion}"
    assert boxes == 1 and winner_rows == 1
    assert champion in browser.run(
        "return document.querySelector('table.standings tr.winner-row th').textContent;")


def test_live_page_follows_the_bots(browser: Browser, page_server: str, club_data: ClubData,
                                    paths: dict[str, str], django_db_blocker: Any) -> None:
    from botruns import services as bot_tournaments
    from botruns.models import BotGameTask

    assert club_data.running is not None
    browser.set_size(1280, 900)
    browser.get(page_server + paths["live"])
    before = int(browser.run("return document.querySelector('[data-field=games_done]')"
                             ".textContent;"))
    with django_db_blocker.unblock():
        task = BotGameTask.objects.filter(run__tournament=club_data.running, done_at=None) \
            .order_by("id").first()
        assert task is not None
        bot_tournaments.bot_game_play(task.pairing_id, task.number)
    deadline = time.monotonic() + 15
    shown = before
    while time.monotonic() < deadline and shown == before:
        time.sleep(0.5)
        shown = int(browser.run("return document.querySelector('[data-field=games_done]')"
                                ".textContent;"))
    assert shown == before + 1
    assert browser.console_errors() == []
