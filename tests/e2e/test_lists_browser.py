"""The hall's lists in Chromium, at 1280 and 375 px, in English and Russian: the page never
scrolls sideways (wide tables scroll in their own box), the tabs stay on one line, no
console error; a screenshot of each (artifacts/screenshots/lists-*)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData
from tournaments.models import Round

WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}
#: Where the screenshots are also kept for a reviewer (LIST_SHOTS overrides).
SHOTS = Path(os.environ.get("LIST_SHOTS", "/tmp/shots-lists"))


@pytest.fixture
def list_paths(club_data: ClubData, unblocked: None) -> dict[str, str]:
    night = club_data.results_night
    assert night is not None and club_data.teams is not None
    for event in (night, club_data.teams):  # published, as the draw release does
        Round.objects.filter(tournament=event, released_at__isnull=True).update(
            released_at=timezone.now())
    entrant = night.entrants.order_by("seed").first()
    assert entrant is not None

    def base(t: Any) -> str:
        return reverse("pages:tournament-lists", args=[t.club.slug, t.slug])

    last = night.rounds.order_by("-number").first()
    assert last is not None
    return {
        "starting": base(night),
        "by-name": base(night) + f"rounds/{last.number}/by-name/",
        "standings-2": base(night) + "standings/2/",
        "wall-chart": base(night) + "wall-chart/",
        "card": reverse("pages:tournament-card", args=[night.club.slug, night.slug,
                                                       entrant.pk]),
        "teams-by-name": base(club_data.teams) + "rounds/1/by-name/",
    }


def _language(browser: Browser, server: str, code: str) -> None:
    for _attempt in range(3):  # the home page whole, with its switch (after any other page)
        browser.get(server + "/")
        if browser.run("return document.readyState === 'complete' && "
                       "!!document.querySelector('form.language-switch');"):
            break
        time.sleep(0.5)
    if browser.run("return document.documentElement.lang;").startswith(code):
        return
    # "en" picks "en-gb": a switch button whose language starts with the code
    browser.run(f"document.querySelector('form.language-switch button[value^=\"{code}\"]')"
                ".click();")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if browser.run("return document.readyState === 'complete' && "
                           f"document.documentElement.lang.startsWith('{code}');"):
                return
        except Exception:  # noqa: BLE001 - the page is being replaced
            pass
        time.sleep(0.2)
    raise AssertionError(f"the switch did not change the language to {code}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_lists_at_both_widths(browser: Browser, page_server: str,
                              list_paths: dict[str, str], artifacts: Path,
                              language: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    _language(browser, page_server, language)
    try:
        for width, size in WIDTHS.items():
            browser.set_size(*size)
            for name, path in list_paths.items():
                browser.console_errors()
                browser.get(page_server + path)
                time.sleep(0.2)
                state = browser.run(
                    "return [document.documentElement.lang,"
                    " document.documentElement.scrollWidth, window.innerWidth,"
                    " new Set(Array.from(document.querySelectorAll('.tabs a')).map("
                    "function (a) { return a.getBoundingClientRect().top; })).size,"
                    " document.querySelectorAll('section.hall-list table').length];")
                lang, scroll_width, inner_width, tab_rows, tables = state
                where = f"{name} at {width} in {language}"
                assert lang.startswith(language), where
                assert scroll_width <= inner_width, f"{where} scrolls sideways"
                assert tab_rows <= 1, f"{where}: the tabs take {tab_rows} lines"
                assert tables == 1, where
                assert browser.console_errors() == [], where
                shot = f"lists-{language}-{name}-{width}.png"
                browser.screenshot(artifacts / shot)
                browser.screenshot(SHOTS / shot)
    finally:
        if language != "en":
            browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
