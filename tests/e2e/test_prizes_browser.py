"""The prize list of a finished tournament (a page of its "Lists" tab) in Chromium, at 375
and 1280 px, in English and Russian: the page never scrolls sideways, the tabs stay on one
line, no console error; a screenshot of each (artifacts/screenshots/prizes-*). The prize
groups are added for the test and removed after it, so the other page tests see the club
as it was."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import reverse

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData
from tests.e2e.test_admin_walkthrough import wait_for
from tests.e2e.test_lists_browser import WIDTHS, _language
from tournaments import services
from tournaments.models import PrizeGroup, Status
from tournaments.services.prizes import PrizeSpec, prize_group_create, prize_settings_update


@pytest.fixture
def prize_path(club_data: ClubData, unblocked: None) -> Iterator[str]:
    event = club_data.swiss
    organizer = club_data.organizer
    if event.status != Status.FINISHED:
        event = services.tournament_finish(actor=organizer, tournament=event)
    ties, currency = event.prize_ties, event.currency
    event = prize_settings_update(actor=organizer, tournament=event, prize_ties="hort",
                                  currency="EUR")
    ratings = sorted(event.entrants.values_list("rating", flat=True))
    prize_group_create(actor=organizer, tournament=event, name="Overall", prizes=[
        PrizeSpec(cash=300, item="Trophy"), PrizeSpec(cash=200), PrizeSpec(cash=100)])
    prize_group_create(actor=organizer, tournament=event, name="Best under the median",
                       kind="rating_band", rating_max=ratings[len(ratings) // 2],
                       prizes=[PrizeSpec(cash=80), PrizeSpec(item="Chess clock", value=50)])
    try:
        yield reverse("pages:tournament-prizes", args=[event.club.slug, event.slug])
    finally:
        PrizeGroup.objects.filter(tournament=event).delete()
        prize_settings_update(actor=organizer, tournament=event, prize_ties=ties,
                              currency=currency)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_prize_page_at_both_widths(browser: Browser, page_server: str, prize_path: str,
                                   artifacts: Path, language: str) -> None:
    _language(browser, page_server, language)
    try:
        for width, size in WIDTHS.items():
            browser.set_size(*size)
            browser.console_errors()
            browser.get(page_server + prize_path)
            time.sleep(0.2)
            lang, scroll_width, inner_width, tab_rows, tables, current = browser.run(
                "return [document.documentElement.lang,"
                " document.documentElement.scrollWidth, window.innerWidth,"
                " new Set(Array.from(document.querySelectorAll('.tabs a')).map("
                "function (a) { return a.getBoundingClientRect().top; })).size,"
                " document.querySelectorAll('#prize-list table').length,"
                " (document.querySelector('.lists-nav a[aria-current=page]') || {}).textContent];")
            where = f"prizes at {width} in {language}"
            assert lang.startswith(language), where
            assert scroll_width <= inner_width, f"{where} scrolls sideways"
            assert tab_rows <= 1, f"{where}: the tabs take {tab_rows} lines"
            assert tables == 2, where
            assert current == ("Prizes" if language == "en" else "Призы"), where
            assert browser.console_errors() == [], where
            browser.screenshot(artifacts / f"prizes-{language}-{width}.png")
    finally:
        if language != "en":
            browser.run("document.cookie = 'django_language=; max-age=0; path=/';")


def test_admin_prizes_page_on_a_phone(browser: Browser, page_server: str, prize_path: str,
                                      club_data: ClubData, artifacts: Path) -> None:
    """The organizer's prizes page at 375 px, in Russian then English: settings, groups,
    the preview; nothing wider than the phone."""
    page = f"/admin/tournaments/tournament/{club_data.swiss.pk}/prizes/"
    browser.set_size(375, 800)
    try:
        browser.get(f"{page_server}/admin/login/?next={page}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();",
                    "organizer", "organizer-pw")
        wait_for(browser, f"return location.pathname === '{page}' && "
                          "document.readyState === 'complete';")
        for language in ("ru", "en"):
            browser.run(f"document.cookie = 'django_language={language}; path=/';")
            browser.get(page_server + page)
            wait_for(browser, "return document.readyState === 'complete' && "
                              "document.getElementById('prize-list');")
            lang, scroll_width, tables = browser.run(
                "return [document.documentElement.lang, document.documentElement.scrollWidth,"
                " document.querySelectorAll('#prize-list table').length];")
            assert lang.startswith(language)
            browser.screenshot(artifacts / f"prizes-admin-{language}-375.png")
            assert scroll_width <= 380, f"{language}: {scroll_width} px wide"
            assert tables == 2
            browser.screenshot(artifacts / f"prizes-admin-{language}-375.png")
    finally:
        browser._call("DELETE", f"{browser.session}/cookie")  # logged out, English again
