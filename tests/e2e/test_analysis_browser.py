"""The game viewer's analysis panel in a real headless Chromium: a Kugamai game with a
known blunder, analysed by the worker's service; the move list marks the blunder with the
better move, and the panel shows every move's perfect-play value for the position shown,
at 1280 and at 375 px (screenshots in artifacts/screenshots/), under the site's CSP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.data import ClubData
from tests.e2e.test_admin_walkthrough import wait_for
from tests.unit.analysis.exhaustive import blunder_game


@pytest.fixture
def analysed_game(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from analysis import services as analysis_services
    from matches.models import Game
    from matches.services.games import game_entry_record
    from players.models import Club, Player
    from tournaments import services

    record, number, before, after, better, referee = blunder_game(3)
    user = get_user_model().objects.create_user("analyst", password="pw-analyst")
    club = Club.objects.create(name="Analysis Club", slug="analysis-club")
    club.organizers.add(user)
    tournament = services.tournament_create(actor=user, club=club, name="Analysis cup",
                                            game="kugamai", format="round_robin")
    for name in ("Ann", "Bob"):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    pairing = services.round_pair_next(actor=user, tournament=tournament,
                                       release=True).pairings.get()
    game_entry_record(actor=user, pairing=pairing, expected_version=pairing.version,
                      record=record)
    game = Game.objects.get(pairing=pairing)
    analysis, _ = analysis_services.game_analysis_start(actor=user, game=game, iterations=100)
    game.analysis.refresh_from_db()
    assert game.analysis.status == "done", game.analysis.message  # eager task on commit
    return {"game": game, "record": record, "number": number, "better": better,
            "values": referee.move_values(
                referee.engine.replay({**record, "moves": record["moves"][:number - 1],
                                       "result": None})[0])}


def _show(browser: Browser, step: int) -> list[Any]:
    browser.run(f"document.querySelector('[data-step-link=\"{step}\"]').click();")
    wait_for(browser, f"return document.getElementById('analysis-panel')"
                      f".getAttribute('data-shown') === '{step}';", timeout=40)
    return browser.run(
        "var panel = document.getElementById('analysis-panel');"
        "return [panel.hidden, panel.querySelector('.analysis-status').textContent,"
        " Array.from(panel.querySelectorAll('tbody tr')).filter(function (tr) {"
        "  return tr.cells.length > 1; }).map(function (tr) {"
        "  return [tr.cells[0].textContent, tr.cells[1].textContent, tr.className]; })];")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height", "name"), [(1280, 900, "desktop"),
                                                       (375, 800, "phone")])
def test_the_viewer_shows_position_values_and_the_stored_blunder(
        browser: Browser, live_server: Any, analysed_game: dict[str, Any], artifacts: Path,
        width: int, height: int, name: str) -> None:
    game, record, number = analysed_game["game"], analysed_game["record"], analysed_game["number"]
    browser.set_size(width, height)
    browser.console_errors()
    browser.get(f"{live_server.url}/games/{game.pk}/")
    wait_for(browser, "return document.getElementById('analysis-panel')"
                      ".getAttribute('data-shown') !== null;")
    marks = browser.run(
        "return Array.from(document.querySelectorAll('.moves li.blunder')).map(function (li) {"
        " return [li.querySelector('button').getAttribute('data-step-link'),"
        "  li.querySelector('.better-move').textContent,"
        "  li.querySelector('.blunder-mark').title]; });")
    blunders = {int(step): (better, title) for step, better, title in marks}
    assert number in blunders
    better, title = blunders[number]
    assert better in {f"better {move}" for move in analysed_game["better"]}
    assert title.startswith("Blunder: ")
    hidden, summary, rows = _show(browser, number - 1)
    assert not hidden and summary.startswith("With perfect play ")
    shown = {move: (value, classes) for move, value, classes in rows}
    words = {1: "win", 0: "draw", -1: "loss"}
    assert {move: value for move, (value, _) in shown.items()} == {
        move: words[value] for move, value in analysed_game["values"].items()}
    assert "played" in shown[record["moves"][number - 1]][1]
    assert all("best" in shown[move][1] for move in analysed_game["better"])
    widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert widths[0] <= widths[1], widths
    browser.run("document.getElementById('analysis-panel').scrollIntoView();")
    assert browser.console_errors() == []
    browser.screenshot(artifacts / f"game-analysis-{name}.png")


@pytest.mark.parametrize(("game", "source", "summary"), [
    ("kazambi", "knockout", "Search estimate (500 iterations"),
    ("stolbiki", "swiss", "Expected column points, the side to move's to the other side's"),
])
def test_the_panel_shows_search_values_before_the_end(
        browser: Browser, page_server: str, club_data: ClubData, unblocked: None,
        artifacts: Path, game: str, source: str, summary: str) -> None:
    from django.urls import reverse

    recorded = club_data.game_of(getattr(club_data, source), game)
    browser.set_size(375, 800)
    browser.console_errors()
    browser.get(page_server + reverse("pages:game-detail", args=[recorded.pk]))
    hidden, status, rows = _show(browser, 1)
    assert not hidden and status.startswith(summary), status
    assert rows and "best" in rows[0][2]
    if game == "kazambi":
        assert all(value.endswith("%") for _, value, _ in rows)
    else:
        assert all(" to " in value and value.endswith("%)") for _, value, _ in rows)
        assert "every hand known" in status  # a finished game hides nothing any more
    widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert widths[0] <= widths[1], widths
    assert browser.console_errors() == []
    browser.run("document.getElementById('analysis-panel').scrollIntoView();")
    browser.screenshot(artifacts / f"game-analysis-{game}-phone.png", full_page=False)


STATUS = "document.querySelector('#analysis-panel .analysis-status').textContent"


def test_the_panel_says_when_the_analysis_is_refused_and_asks_again(
        browser: Browser, page_server: str, club_data: ClubData, unblocked: None,
        settings: Any, artifacts: Path) -> None:
    """While another visitor's analysis holds the site's one slot the panel says the
    analysis is busy, then asks again by itself and shows the values; a spent budget is
    said with the seconds to wait."""
    from django.core.cache import cache
    from django.urls import reverse

    from analysis import limits

    cache.clear()  # no kept answers, no time spent
    recorded = club_data.game_of(club_data.knockout, "kazambi")
    browser.set_size(375, 800)
    browser.get(page_server + reverse("pages:game-detail", args=[recorded.pk]))
    wait_for(browser, "return document.getElementById('analysis-panel')"
                      ".getAttribute('data-shown') !== null;")  # the final position
    browser.console_errors()
    with limits.anonymous_search("192.0.2.1"):  # another visitor's analysis, running
        browser.run("document.querySelector('[data-step-link=\"1\"]').click();")
        wait_for(browser, f"return {STATUS}.indexOf('busy with other visitors') >= 0;")
        text = browser.run(f"return {STATUS};")
        assert text == ("The analysis is busy with other visitors' positions: asking again "
                        "in 1 s…"), text
        browser.run("document.getElementById('analysis-panel').scrollIntoView();")
        browser.screenshot(artifacts / "game-analysis-busy-phone.png", full_page=False)
    wait_for(browser, "return document.getElementById('analysis-panel')"
                      ".getAttribute('data-shown') === '1';", timeout=20)
    assert browser.run(f"return {STATUS};").startswith("Search estimate (")
    settings.ANALYSIS_ADDRESS_CPU_PER_MINUTE = 0.001  # this address's time is spent
    browser.run("document.querySelector('[data-step-link=\"2\"]').click();")
    wait_for(browser, f"return {STATUS}.indexOf('used up for the moment') >= 0;")
    assert "asking again in" in browser.run(f"return {STATUS};")
    errors = browser.console_errors()
    assert errors and all("429" in error for error in errors), errors  # the refusals only
