"""The public pages in Russian in a real Chromium, at 1280 and 375 px: the language switch
chooses Russian, every page then speaks it (html lang, navigation, headings, the scripts'
words), nothing overflows, and a screenshot of each lands in artifacts/screenshots/ru-*.
The switch also works from a tournament page kept in the cache for everyone (its CSRF
token comes from the cookie), and the walk ends in English for the other browser tests."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData
from tests.e2e.test_browser import page_path

WALK = ["home", "tournaments", "round-robin", "round-robin-table", "swiss", "swiss-table",
        "knockout", "knockout-round", "player", "leaderboard", "game-kugamai",
        "game-kazambi", "game-stolbiki"]
WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}
#: English words of the pages' own texts that a Russian page must not show.
ENGLISH = ["Leaderboards", "Standings", "Crosstable", "Round by round", "Recent games",
           "Start position", "Skip to content", "Running now", "Tie-breaks, in order",
           "Result symbols", "Moves", "Rating over time"]
#: A Russian text each page shows (its heading or a label of its own).
RUSSIAN = {"home": "Идут сейчас", "tournaments": "Все игры", "round-robin": "Тур",
           "round-robin-table": "Кросс-таблица", "swiss": "Дополнительные показатели",
           "swiss-table": "По турам", "knockout": "Сетка", "knockout-round": "Тур 1",
           "player": "Последние партии", "leaderboard": "Рейтинг-лист",
           "game-kugamai": "Ходы", "game-kazambi": "Ходы", "game-stolbiki": "Ходы"}


@pytest.fixture
def walk_paths(club_data: ClubData, unblocked: None) -> dict[str, str]:
    return {name: page_path(club_data, name) for name in WALK}


def _wait(browser: Browser, script: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        try:
            value = browser.run(script)
        except Exception:  # noqa: BLE001 - the page is being replaced
            value = None
        if value:
            return value
        time.sleep(0.2)
    return value


def _switch(browser: Browser, code: str) -> None:
    browser.run(f"document.querySelector('form.language-switch button[value=\"{code}\"]')"
                ".click();")
    assert _wait(browser, f"return document.readyState === 'complete'"
                          f" && document.documentElement.lang === '{code}';"), code


@pytest.fixture
def russian(browser: Browser, page_server: str,
            walk_paths: dict[str, str]) -> Iterator[Browser]:
    """The browser switched to Russian with the home page's switch; English afterwards."""
    browser.set_size(1280, 900)
    browser.get(page_server + "/")
    browser.console_errors()
    _switch(browser, "ru")
    try:
        yield browser
    finally:
        browser.get(page_server + "/")
        browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
        browser.get(page_server + "/")
        assert browser.run("return document.documentElement.lang;") == "en-gb"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_public_pages_in_russian(russian: Browser, page_server: str,
                                     walk_paths: dict[str, str], artifacts: Path,
                                     width: str) -> None:
    browser = russian
    for name in WALK:
        browser.set_size(*WIDTHS[width])
        browser.console_errors()
        browser.get(page_server + walk_paths[name])
        time.sleep(0.3)  # let deferred scripts run
        lang, text, nav, overflow = browser.run(
            "return [document.documentElement.lang, document.body.innerText,"
            " document.querySelector('.site-nav').innerText,"
            " document.documentElement.scrollWidth > window.innerWidth];")
        assert lang == "ru", name
        assert "Турниры" in nav and "Рейтинг-листы" in nav, name
        assert RUSSIAN[name] in text, name
        assert [word for word in ENGLISH if word in text] == [], name
        assert not overflow, f"{name} at {width} scrolls sideways"
        assert browser.console_errors() == [], name
        browser.screenshot(artifacts / f"ru-{name}-{width}.png")


def test_the_scripts_speak_russian_and_a_cached_page_switches_back(
        russian: Browser, page_server: str, walk_paths: dict[str, str],
        artifacts: Path) -> None:
    browser = russian
    browser.get(page_server + walk_paths["game-kazambi"])
    last = int(browser.run("return document.getElementById('viewer').dataset.last;"))
    browser.press("Home")
    browser.press("ArrowRight")
    label = browser.run("return document.getElementById('step-label').textContent;")
    assert label.startswith(f"Ход 1 из {last}: "), label

    browser.set_size(375, 800)
    browser.get(page_server + walk_paths["swiss-table"])
    detail = browser.run(
        "var row = document.querySelector('table.round-by-round tbody tr');"
        "row.cells[3].scrollIntoView(); row.cells[3].click();"
        "return [row.cells[2].textContent, document.getElementById('rbr-detail').textContent];")
    assert detail[1].startswith(f"{detail[0]}, тур 1: "), detail
    assert " против" in detail[1] and "после него" in detail[1], detail
    browser.screenshot(artifacts / "ru-swiss-table-touched-phone.png", full_page=False)

    browser.set_size(1280, 900)
    browser.get(page_server + walk_paths["swiss"])  # a page kept for every visitor
    token = browser.run("return document.querySelector("
                        "'form.language-switch input[name=csrfmiddlewaretoken]').value;")
    assert token == ""  # the cached page has none: language.js reads the cookie
    _switch(browser, "en-gb")
    assert "Standings" in browser.run("return document.body.innerText;")
    assert browser.console_errors() == []
