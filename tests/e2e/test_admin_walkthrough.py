"""A tournament director's walk through the admin in a real headless Chromium: log in,
open the round, type the match scores with the keyboard only (the cursor starts in the
first empty result, Tab moves along, Enter saves), and see the standings change."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser

# Committed data for the live server; the database is flushed after the test (this file
# sorts before the package's other browser tests, whose shared data is built later).
pytestmark = pytest.mark.django_db(transaction=True)

TAB, ENTER = "\ue004", "\ue007"
PASSWORD = "walk-through-pw"


@pytest.fixture
def director_round(transactional_db: Any) -> dict[str, Any]:
    """A running round robin (best of 3) with round 1 paired, and its organizer."""
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("walk_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Walk Club", slug="walk-club")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Walk cup", game="kugamai", format="round_robin",
        match_format="bo3")
    for index in range(4):
        player = Player.objects.create(display_name=f"Walker {index + 1}", club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    return {"round": round_, "tournament": tournament}


@pytest.fixture
def server(director_round: Any, live_server: Any) -> str:
    return str(live_server.url)


def wait_for(browser: Browser, script: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = browser.run(script)
        except Exception:  # the page is being replaced
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {script}")


def standings(browser: Browser, server: str, tournament_id: int) -> dict[str, Any]:
    """The standings API, read by the page (the browser's session and origin)."""
    text = browser.run(
        "return fetch(arguments[0], {headers: {Accept: 'application/json'}})"
        ".then(function (r) { return r.text(); });",
        f"{server}/api/tournaments/{tournament_id}/standings/")
    return dict(json.loads(text))


def type_text(browser: Browser, text: str) -> None:
    for key in text:
        browser.press(key)


def test_director_enters_results_with_the_keyboard(browser: Browser, server: str,
                                                   director_round: dict[str, Any],
                                                   artifacts: Path) -> None:
    round_, tournament = director_round["round"], director_round["tournament"]
    browser.get(server + "/healthz")
    before = standings(browser, server, tournament.pk)
    assert before["after_round"] == 0

    page = f"/admin/tournaments/round/{round_.pk}/change/"
    browser.get(f"{server}/admin/login/?next={page}")
    wait_for(browser, "return document.getElementById('id_username');")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "walk_director", PASSWORD)
    wait_for(browser, f"return location.pathname === '{page}' && "
                      "document.readyState === 'complete';")
    focused = wait_for(browser, "return document.activeElement && document.activeElement.id;")
    assert focused == "id_pairings-0-wins_a"  # the first empty result has the cursor

    # board 1: A wins 2-1; board 2: B wins 2-0 (draws stay 0, the outcome follows the score)
    type_text(browser, "2")
    browser.press(TAB)
    type_text(browser, "1")
    for _ in range(3):  # draws, outcome, then the next board's first score
        browser.press(TAB)
    assert browser.run("return document.activeElement.id;") == "id_pairings-1-wins_a"
    type_text(browser, "0")
    browser.press(TAB)
    type_text(browser, "2")
    browser.press(ENTER)
    message = wait_for(browser, "var m = document.querySelector('.messagelist');"
                                "return m && m.innerText;")
    assert "Saved boards 1, 2." in message
    assert browser.run("return location.pathname;") == page  # still on the round
    assert browser.run("return document.getElementById('id_pairings-0-outcome').value;") \
        == "a_wins"
    browser.screenshot(artifacts / "admin-round-saved.png")

    after = standings(browser, server, tournament.pk)
    assert after["after_round"] == 1
    points = {row["name"]: float(row["points"]) for row in after["rows"]}
    pairings = list(round_.pairings.select_related("entrant_a__player", "entrant_b__player")
                    .order_by("board"))
    assert points[pairings[0].entrant_a.name] == 1.0
    assert points[pairings[0].entrant_b.name] == 0.0
    assert points[pairings[1].entrant_b.name] == 1.0
    assert after["rows"][0]["points"] != before["rows"][0]["points"]
