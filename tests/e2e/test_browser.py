"""The public pages in a real headless Chromium (through chromedriver), at 1280 and at
375 px: no console errors, no sideways scrolling of the page, a screenshot of each in
artifacts/screenshots/. Then what people do on them: step through a game with the arrow
keys, read the bracket's champion, watch the bots play, watch the director's results
arrive without reloading, and meet the login pause."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData

PAGES = ["home", "tournaments", "round-robin", "round-robin-table", "swiss", "swiss-table",
         "knockout", "knockout-round", "live", "teams", "club-night", "night", "night-round",
         "night-table", "player", "night-player", "game-kugamai", "game-kazambi",
         "game-stolbiki", "leaderboard", "not-found"]
WIDTHS = {"desktop": (1280, 900), "phone": (375, 800)}


def page_path(data: ClubData, name: str) -> str:
    def tournament(t: Any) -> str:
        return reverse("pages:tournament-detail", args=[t.club.slug, t.slug])

    if name.startswith("game-"):
        game = name.removeprefix("game-")
        source = {"kugamai": data.round_robin, "kazambi": data.knockout,
                  "stolbiki": data.swiss}[game]
        return reverse("pages:game-detail", args=[data.game_of(source, game).pk])
    if name in ("player", "night-player"):
        event = data.round_robin if name == "player" else data.results_night
        assert event is not None
        entrant = event.entrants.order_by("id").first()
        assert entrant is not None and entrant.player_id is not None
        return reverse("pages:player-detail", args=[entrant.player_id])
    night = data.results_night
    assert night is not None
    return {
        "home": "/", "tournaments": "/tournaments/",
        "round-robin": tournament(data.round_robin), "swiss": tournament(data.swiss),
        "knockout": tournament(data.knockout),
        "live": tournament(data.running) if data.running else "/",
        "teams": tournament(data.teams), "club-night": tournament(data.club_night),
        "round-robin-table": tournament(data.round_robin) + "table/",
        "swiss-table": tournament(data.swiss) + "table/",
        "knockout-round": tournament(data.knockout) + "rounds/1/",
        "night": tournament(night), "night-round": tournament(night) + "rounds/4/",
        "night-table": tournament(night) + "table/",
        "leaderboard": reverse("pages:leaderboard", args=["kugamai"]),
        "not-found": "/tournaments/riverside/no-such-cup/",
    }[name]


@pytest.fixture
def paths(club_data: ClubData, unblocked: None) -> dict[str, str]:
    return {name: page_path(club_data, name) for name in PAGES}


def _open(browser: Browser, url: str) -> None:
    browser.console_errors()  # what earlier pages logged does not count
    browser.get(url)


def _errors(browser: Browser, name: str) -> list[str]:
    errors = browser.console_errors()
    if name == "not-found":  # the browser logs the 404 answer itself
        errors = [e for e in errors if "status of 404" not in e]
    return errors


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("name", PAGES)
def test_page_at_width(browser: Browser, page_server: str, paths: dict[str, str],
                       artifacts: Path, name: str, width: str) -> None:
    """No console error, one h1, no page-wide sideways scrolling, labelled drawings."""
    browser.set_size(*WIDTHS[width])
    _open(browser, page_server + paths[name])
    state = browser.run("return [document.readyState, document.querySelectorAll('h1').length,"
                        " document.querySelector('main') !== null, document.title];")
    assert state[0] == "complete" and state[1] == 1 and state[2], state
    time.sleep(0.3)  # let deferred scripts run
    assert _errors(browser, name) == [], name
    widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert widths[0] <= widths[1], f"{name} at {width}: {widths}"
    missing_labels = browser.run(
        "return Array.from(document.querySelectorAll('svg')).filter(function (svg) {"
        " return svg.getAttribute('role') !== 'img' || !svg.getAttribute('aria-labelledby');"
        "}).length;")
    assert missing_labels == 0
    tab_rows = browser.run("return new Set(Array.from(document.querySelectorAll('.tabs a'))"
                           ".map(function (a) { return a.getBoundingClientRect().top; })).size;")
    assert tab_rows <= 1, f"{name} at {width}: the tabs take {tab_rows} lines"
    browser.screenshot(artifacts / f"{name}-{width}.png")


def test_round_by_round_cells_stay_on_one_line_on_a_phone(
        browser: Browser, page_server: str, paths: dict[str, str]) -> None:
    """"12f 1" on the cell's first line (the running score under it), never wrapped."""
    browser.set_size(375, 800)
    _open(browser, page_server + paths["night-table"])
    offsets = browser.run(
        "return Array.from(document.querySelectorAll('table.round-by-round tbody td b'))"
        ".filter(function (b) { return b.parentNode.cellIndex > 2; })"
        ".map(function (b) { var cell = b.parentNode, style = getComputedStyle(cell);"
        " return (b.getBoundingClientRect().top - cell.getBoundingClientRect().top"
        " - parseFloat(style.paddingTop)) / parseFloat(style.lineHeight); });")
    assert offsets and max(offsets) < 0.5, offsets


def test_touching_a_round_by_round_cell_names_the_opponent(
        browser: Browser, page_server: str, paths: dict[str, str], club_data: ClubData,
        artifacts: Path) -> None:
    night = club_data.results_night
    assert night is not None
    browser.set_size(375, 800)
    _open(browser, page_server + paths["night-table"])
    detail = browser.run(
        "var row = document.querySelector('table.round-by-round tbody tr');"
        "row.cells[3].scrollIntoView(); row.cells[3].click();"
        "var number = row.cells[3].firstChild.textContent.trim();"
        "var picked = document.querySelectorAll('table.round-by-round .picked').length;"
        "return [row.cells[2].textContent, number, picked,"
        " document.getElementById('rbr-detail').textContent,"
        " document.getElementById('rbr-detail').hidden];")
    name, number, picked, text, hidden = detail
    opponent = night.entrants.get(seed=int(number)).name
    assert not hidden and picked == 2  # the cell and the opponent's row
    assert text.startswith(f"{name}, round 1: ") and f"against {opponent} (No. {number})" in text
    assert browser.console_errors() == []
    browser.screenshot(artifacts / "night-table-touched-phone.png", full_page=False)


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
    _open(browser, page_server + paths[f"game-{game}"])
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
                                    paths: dict[str, str]) -> None:
    from tournaments.selectors import standings

    table = standings(club_data.knockout)
    champion_seed = table["bracket"]["champion"]
    champion = club_data.knockout.entrants.get(seed=champion_seed).name
    browser.set_size(1280, 900)
    _open(browser, page_server + paths["knockout"])
    banner, boxes, winner_rows = browser.run(
        "var svg = document.querySelector('svg.bracket');"
        "return [svg.querySelector('.champion-text').textContent,"
        " svg.querySelectorAll('.match-box.champion').length,"
        " document.querySelectorAll('table.standings tr.winner-row th').length];")
    assert banner == f"Champion: {champion}"
    assert boxes == 1 and winner_rows == 1
    assert champion in browser.run(
        "return document.querySelector('table.standings tr.winner-row th').textContent;")


def _wait(browser: Browser, script: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = browser.run(script)
        if value:
            return value
        time.sleep(0.25)
    return value


def test_live_page_follows_the_bots(browser: Browser, page_server: str, club_data: ClubData,
                                    paths: dict[str, str]) -> None:
    from botruns import services as bot_tournaments
    from botruns.models import BotGameTask

    assert club_data.running is not None
    browser.set_size(1280, 900)
    _open(browser, page_server + paths["live"])
    before = int(browser.run("return document.querySelector('[data-field=games_done]')"
                             ".textContent;"))
    task = BotGameTask.objects.filter(run__tournament=club_data.running, done_at=None) \
        .order_by("id").first()
    assert task is not None
    bot_tournaments.bot_game_play(task.pairing_id, task.number)
    shown = _wait(browser, f"var n = Number(document.querySelector('[data-field=games_done]')"
                           f".textContent); return n > {before} ? n : 0;", timeout=15)
    assert shown == before + 1
    assert browser.console_errors() == []


def test_club_night_page_shows_a_result_the_moment_it_is_saved(
        browser: Browser, page_server: str, club_data: ClubData, paths: dict[str, str],
        artifacts: Path) -> None:
    """The director saves a result through the service; the open page shows it within a
    poll (5 s), without reloading, and says when it was updated."""
    from games.series.format import MatchScore
    from matches import services as match_services

    night = club_data.club_night
    assert night is not None
    pairing = night.rounds.get(number=1).pairings.exclude(outcome="a_wins") \
        .filter(outcome="pending").order_by("board").first()
    assert pairing is not None
    browser.set_size(375, 800)
    _open(browser, page_server + paths["club-night"])
    browser.run("window.notReloaded = true;")
    row = (f"Array.from(document.querySelectorAll('#results table.pairings tbody tr'))"
           f".find(function (tr) {{ return tr.cells[0].textContent.trim() === "
           f"'{pairing.board}'; }})")
    assert browser.run(f"return {row}.cells[2].textContent.trim();") == "playing"
    match_services.match_result_record(actor=club_data.organizer, pairing=pairing,
                                 score=MatchScore(1, 0, 0), expected_version=pairing.version)
    shown = _wait(browser, f"var tr = {row}; return tr && tr.cells[2].textContent.trim() "
                           f"=== '1–0' && window.notReloaded === true;")
    assert shown, browser.run(f"return {row}.cells[2].textContent;")
    assert browser.run("return document.getElementById('results-updated').textContent;") \
        .startswith("Updated at")
    assert browser.console_errors() == []
    browser.screenshot(artifacts / "club-night-updated-phone.png")


def test_login_pause_page_has_a_way_back(browser: Browser, page_server: str,
                                         artifacts: Path, unblocked: None) -> None:
    from django.conf import settings
    from django.core.cache import cache

    cache.clear()
    try:
        for width in WIDTHS:
            browser.set_size(*WIDTHS[width])
            for _ in range(settings.LOGIN_FAILURE_LIMIT + 1):
                _open(browser, page_server + "/admin/login/")
                browser.run("document.getElementById('id_username').value = 'nobody-here';"
                            "document.getElementById('id_password').value = 'wrong';"
                            "document.querySelector('#login-form').submit();")
                assert _wait(browser, "return document.readyState === 'complete' && ("
                                      "document.querySelector('.errornote') !== null ||"
                                      " document.title.indexOf('Login paused') === 0);")
            heading = browser.run("return document.querySelector('h1').textContent;")
            assert heading == "Login paused"
            back = browser.run("return Array.from(document.querySelectorAll('.error-ways a'))"
                               ".map(function (a) { return a.getAttribute('href'); });")
            assert "/admin/login/" in back and "/" in back
            widths = browser.run("return [document.documentElement.scrollWidth,"
                                 " window.innerWidth];")
            assert widths[0] <= widths[1]
            browser.screenshot(artifacts / f"login-paused-{width}.png")
            cache.clear()
    finally:
        cache.clear()


@pytest.mark.django_db
def test_forbidden_page_is_styled_with_a_way_back(client: Any, make_user: Any) -> None:
    """A logged-in user without the rights sees the site's 403 page (also keeps the test
    database set up when this file runs alone)."""
    from django.core.exceptions import PermissionDenied
    from django.test import RequestFactory
    from django.views.defaults import permission_denied

    request = RequestFactory().get("/admin/tournaments/")
    answer = permission_denied(request, PermissionDenied())
    body = answer.content.decode()
    assert answer.status_code == 403
    assert "You may not open this page" in body and 'href="/"' in body
    assert 'href="/admin/"' in body


def test_a_match_in_progress_shows_each_game_as_it_is_entered(
        browser: Browser, page_server: str, club_data: ClubData, paths: dict[str, str],
        artifacts: Path) -> None:
    """Round 4 of the results night, open on a phone: the director enters the second game
    of a best-of-3 board; the board's running score moves on without a reload."""
    from django.db.models import Count

    from matches.services.games import game_entry_record

    night = club_data.results_night
    assert night is not None
    pairing = (night.rounds.get(number=4).pairings.filter(outcome="pending")
               .annotate(n=Count("games")).filter(n=1).order_by("board").first())
    assert pairing is not None
    browser.set_size(375, 800)
    _open(browser, page_server + paths["night-round"])
    browser.run("window.notReloaded = true;")
    cell = (f"Array.from(document.querySelectorAll('#results table.pairings tbody tr'))"
            f".find(function (tr) {{ return tr.cells[0].textContent.trim() === "
            f"'{pairing.board}'; }}).cells[2]")
    before = browser.run(f"return {cell}.textContent;")
    assert before in ("1–0game 2 playing", "0–1game 2 playing"), before
    game_entry_record(actor=club_data.organizer, pairing=pairing, result="b",
                      expected_version=pairing.version)
    expected = "1–1game 3 playing" if before.startswith("1–0") else "0–2"
    shown = _wait(browser, f"return {cell}.textContent === '{expected}' "
                           f"&& window.notReloaded === true;")
    assert shown, browser.run(f"return {cell}.textContent;")
    assert browser.console_errors() == []
    browser.screenshot(artifacts / "night-round-game-entered-phone.png", full_page=False)
