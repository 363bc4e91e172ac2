"""A knockout on a phone and a team's page, in Chromium: at 375 px the champion and the
final are on screen in the bracket's list (no sideways scrolling), matches are named in
words ("Grand final", "Winners' final"), not codes, in English and Russian; at 1280 px the
drawing names them too. A team event links each team to its page (members, results,
games). Screenshots land in /tmp/shots-knockout/ (KNOCKOUT_SHOTS overrides)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData
from tests.e2e.test_russian_walk import _switch

SHOTS = Path(os.environ.get("KNOCKOUT_SHOTS", "/tmp/shots-knockout"))
WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}
#: A knockout match code shown where a name belongs.
CODE = re.compile(r"\b(W\d+-\d+|L\d+-\d+|3RD|GF2?)\b")


def _tournament_url(t: Any, tail: str = "") -> str:
    return reverse("pages:tournament-detail", args=[t.club.slug, t.slug]) + tail


@pytest.fixture
def released(club_data: ClubData, unblocked: None) -> ClubData:
    """The club's rounds published (the director's release), as readers see them."""
    from tournaments.models import Round

    Round.objects.filter(released_at__isnull=True).update(released_at=timezone.now())
    return club_data


@pytest.fixture
def language(browser: Browser, page_server: str,
             request: pytest.FixtureRequest) -> Iterator[str]:
    """The browser in the language of the test's parameter; English afterwards."""
    code = request.param
    browser.set_size(1280, 900)
    browser.get(page_server + "/")
    if code == "ru":
        _switch(browser, "ru")
    try:
        yield code
    finally:
        browser.get(page_server + "/")
        browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
        browser.get(page_server + "/")


def _visible_text(browser: Browser, selector: str) -> list[str]:
    """The texts of the elements ``selector`` finds that are on screen, left to right."""
    return browser.run(
        "return Array.from(document.querySelectorAll(arguments[0])).filter(function (e) {"
        " var box = e.getBoundingClientRect();"
        " return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;"
        "}).map(function (e) { return e.textContent.trim(); });", selector)


@pytest.mark.parametrize("language", ["en", "ru"], indirect=True)
def test_a_knockout_on_a_phone_shows_the_champion_and_the_final_first(
        browser: Browser, page_server: str, released: ClubData, language: str) -> None:
    from tournaments.selectors import standings

    cup = released.knockout
    champion = cup.entrants.get(seed=standings(cup)["bracket"]["champion"]).name
    final, champion_word = (("Grand final", "Champion") if language == "en"
                            else ("Суперфинал", "Чемпион"))
    browser.set_size(*WIDTHS["phone"])
    browser.get(page_server + _tournament_url(cup))
    time.sleep(0.3)
    widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert widths[0] <= widths[1], widths
    champion_line = _visible_text(browser, ".bracket-list .champion-line")
    assert champion_line == [f"{champion_word}: {champion}"]
    names = _visible_text(browser, ".bracket-list .match-name")
    assert names and names[0].startswith(final), names
    first_card = browser.run(
        "var card = document.querySelector('.bracket-list li'); var box ="
        " card.getBoundingClientRect(); return [card.textContent, box.right <= window.innerWidth,"
        " box.top < 2 * window.innerHeight];")
    assert champion in first_card[0] and first_card[1] and first_card[2], first_card
    listed = browser.run("return document.querySelector('.bracket-list').innerText;")
    assert CODE.findall(listed) == [], listed
    browser.screenshot(SHOTS / f"knockout-{language}-phone.png")
    browser.set_size(*WIDTHS["desktop"])
    browser.get(page_server + _tournament_url(cup))
    assert browser.run("return getComputedStyle(document.querySelector('.bracket-list'))"
                       ".display;") == "none"
    labels = browser.run("return Array.from(document.querySelectorAll('svg.bracket "
                         ".match-id')).map(function (t) { return t.textContent; });")
    assert final in labels and CODE.findall(" ".join(labels)) == [], labels
    round_one = browser.run("return Array.from(document.querySelectorAll('td.match'))"
                            ".map(function (td) { return td.textContent; });")
    assert round_one and CODE.findall(" ".join(round_one)) == [], round_one
    browser.screenshot(SHOTS / f"knockout-{language}-desktop.png")


@pytest.mark.parametrize("language", ["en", "ru"], indirect=True)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_team_event_links_each_team_to_its_page(
        browser: Browser, page_server: str, released: ClubData, language: str,
        width: str) -> None:
    event = released.teams
    assert event is not None
    entrant = event.entrants.order_by("seed").first()
    assert entrant is not None and entrant.team is not None
    members = sorted(entrant.team.players.values_list("display_name", flat=True))
    browser.set_size(*WIDTHS[width])
    browser.get(page_server + _tournament_url(event))
    time.sleep(0.3)
    shown = browser.run(
        "var name = arguments[0];"
        "var row = Array.from(document.querySelectorAll('table.standings th[scope=row]'))"
        ".find(function (th) { return th.textContent.trim().indexOf(name) === 0; });"
        "return row && [row.querySelector('a').getAttribute('href'),"
        " Array.from(row.querySelectorAll('small.members a')).map(function (a) {"
        " return a.textContent; })];", entrant.team.name)
    assert shown is not None, "the team's row in the standings"
    assert shown[0] == _tournament_url(event, f"teams/{entrant.team_id}/")
    assert sorted(shown[1]) == members
    browser.screenshot(SHOTS / f"teams-{language}-{width}.png")
    browser.console_errors()
    browser.get(page_server + shown[0])
    time.sleep(0.3)
    text, overflow = browser.run("return [document.querySelector('main').innerText,"
                                 " document.documentElement.scrollWidth > window.innerWidth];")
    assert not overflow and browser.console_errors() == []
    for member in members:
        assert member in text
    assert ("Round 1, board" if language == "en" else "Тур 1, доска") in text, text
    browser.screenshot(SHOTS / f"team-page-{language}-{width}.png")
