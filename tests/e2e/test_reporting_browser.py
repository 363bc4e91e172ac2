"""Players report their boards from their private links in a real headless Chromium at
375 px, each link in its own cookie-less session (English and Russian); the director then
confirms the agreed board in one click and turns a no-show claim into a forfeit from the
conflict queue. Screenshots go to artifacts/screenshots/reporting-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "reporting-walk-pw"


@pytest.fixture
def reporting_round(transactional_db: Any) -> dict[str, Any]:
    """A running Swiss event of Kazambi (best of 3, no draws): round 1 released, a link
    per player."""
    from django.contrib.auth import get_user_model

    from playerlinks import services as links
    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("reports_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Reporting club", slug="reporting-club")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Phone cup", game="kazambi", format="swiss",
        match_format="bo3", rounds_planned=3, release_pairings_at_once=True)
    for name in ("Anna Kowalska", "Boris Ivanov", "Вера Смирнова", "Gleb Orlov",
                 "Dana Novak", "Egor Belov"):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    links.links_issue_missing(actor=user, tournament=tournament)
    tokens = {link.entrant_id: links.link_token(link)
              for link in links.EntrantLink.objects.filter(entrant__tournament=tournament)}
    return {"round": round_, "tokens": tokens, "user": user, "tournament": tournament}


def fresh_session(browser: Browser, server: str, language: str) -> None:
    """A new person's phone: no cookies but the language."""
    browser.get(server + "/healthz")
    browser._call("DELETE", f"{browser.session}/cookie")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")


def open_page(browser: Browser, server: str, token: str) -> None:
    browser.get(f"{server}/p/{token}/report/")
    wait_for(browser, "return document.readyState === 'complete' && "
                      "document.querySelector('h1');")


def send(browser: Browser, kind: str, **values: str) -> None:
    browser.run("""
        const [kind, values] = arguments;
        document.querySelector(`input[name=kind][value=${kind}]`).click();
        for (const [name, value] of Object.entries(values)) {
            document.querySelector(`[name=${name}]`).value = value;
        }
        document.querySelector('.report-send').click();""", kind, values)
    wait_for(browser, "return document.readyState === 'complete' && "
                      "(location.search === '?sent=1' || document.getElementById('form-error'));")


def no_sideways_scroll(browser: Browser) -> None:
    assert browser.run("return document.documentElement.scrollWidth;") <= 375


def test_players_report_from_their_phones(browser: Browser, live_server: Any,
                                          reporting_round: dict[str, Any],
                                          artifacts: Path) -> None:
    from tournaments.models import Outcome

    server = str(live_server.url)
    round_, tokens = reporting_round["round"], reporting_round["tokens"]
    first, second, third = round_.pairings.order_by("board")
    browser.set_size(375, 800)
    try:
        # board 1: A sends a score with a drawn game first (Kazambi has no draws) ...
        fresh_session(browser, server, "en")
        open_page(browser, server, tokens[first.entrant_a_id])
        assert browser.run("return document.getElementById('draws');") is None
        send(browser, "score", wins_a="1", wins_b="1")
        error = browser.run("return document.getElementById('form-error').textContent;")
        assert "Not saved" in error
        browser.screenshot(artifacts / "reporting-error-375.png")
        no_sideways_scroll(browser)
        send(browser, "score", wins_a="2", wins_b="0")
        assert "Thank you" in browser.run("return document.body.textContent;")
        browser.screenshot(artifacts / "reporting-sent-375.png")

        # ... and B, in Russian, sends the same two games one by one: agreed
        fresh_session(browser, server, "ru")
        open_page(browser, server, tokens[first.entrant_b_id])
        assert browser.run("return document.documentElement.lang;") == "ru"
        send(browser, "games", game_1="a", game_2="a")
        text = browser.run("return document.body.textContent;")
        assert "Обе стороны согласны" in text and "Заявка соперника" in text
        no_sideways_scroll(browser)
        browser.screenshot(artifacts / "reporting-agreed-ru-375.png")

        # board 2: A says B did not show
        fresh_session(browser, server, "en")
        open_page(browser, server, tokens[second.entrant_a_id])
        send(browser, "no_show")
        assert "No-show claim" in browser.run("return document.body.textContent;")
        browser.screenshot(artifacts / "reporting-no-show-375.png")

        # board 3: the two sides disagree (each says they won)
        fresh_session(browser, server, "en")
        open_page(browser, server, tokens[third.entrant_a_id])
        send(browser, "score", wins_a="2", wins_b="1")
        fresh_session(browser, server, "ru")
        open_page(browser, server, tokens[third.entrant_b_id])
        send(browser, "games", game_1="b", game_2="b")
        assert "Спор" in browser.run("return document.body.textContent;")
        browser.screenshot(artifacts / "reporting-conflict-ru-375.png")

        # round 2 waits for the conflict and the no-show claim
        from core.errors import ApplicationError
        from tournaments.services import round_pair_next
        with pytest.raises(ApplicationError):
            round_pair_next(actor=reporting_round["user"],
                            tournament=reporting_round["tournament"], release=True)

        # the director: one click confirms the agreed board, the queue settles the rest
        fresh_session(browser, server, "en")
        page = f"/admin/tournaments/round/{round_.pk}/change/"
        browser.get(f"{server}/admin/login/?next={page}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "reports_director",
                    PASSWORD)
        wait_for(browser, f"return location.pathname === '{page}' && "
                          "document.getElementById('round-reports');")
        browser.screenshot(artifacts / "reporting-round-admin-375.png")
        browser.run("document.getElementById('confirm-all-agreed').click();")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "!document.getElementById('confirm-all-agreed') && "
                          "document.querySelector('.messagelist');")
        browser.run("document.getElementById('reports-queue-link').click();")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.querySelector('.queue-board');")
        browser.screenshot(artifacts / "reporting-queue-375.png")
        for left in (1, 0):  # the first claim shown: the no-show's, then A's of board 3
            browser.run("document.querySelector('.queue-board button[id^=accept-]').click();")
            wait_for(browser, "return document.readyState === 'complete' && "
                              f"document.querySelectorAll('.queue-board').length === {left} "
                              "&& document.querySelector('.messagelist');")
        assert browser.run("return document.getElementById('queue-empty') !== null;")
    finally:
        browser.set_size(1280, 900)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.outcome, first.wins_a, first.wins_b) == (Outcome.A_WINS, 2, 0)
    assert second.outcome == Outcome.A_FORFEIT_WIN
    third.refresh_from_db()
    assert (third.outcome, third.wins_a, third.wins_b) == (Outcome.A_WINS, 2, 1)
    from tournaments.services import round_pair_next
    assert round_pair_next(actor=reporting_round["user"], tournament=reporting_round[
        "tournament"], release=True).number == 2
