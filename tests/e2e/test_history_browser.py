"""The tournament's History page in a real headless Chromium: an organizer reads the event
in English and (by the language cookie) in Russian, filters it by round, and at a phone's
width (375 px) it does not scroll sideways; screenshots at 1280 and 375 px, both
languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "history-walk-pw"


@pytest.fixture
def told_event(transactional_db: Any) -> dict[str, Any]:
    """A Swiss with entries, a late entry, a withdrawal, a bye, a forbidden pair, results,
    a correction, a round clock, and the release and pairing-edit lines of round 2."""
    from django.contrib.auth import get_user_model

    from games.series import MatchScore
    from matches.services import match_result_record
    from players.models import Club, Player
    from tournaments import services
    from tournaments.history import EventKind, record
    from tournaments.services.rounds import round_clock_update

    user = get_user_model().objects.create_user("historian", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Клуб на Неве", slug="neva")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Кубок Невы", game="kugamai", format="swiss",
        rounds_planned=4)
    names = ("Анна Петрова", "Борис Иванов", "Вера Смирнова", "Глеб Орлов", "Дарья Лебедева")
    players = [Player.objects.create(display_name=name, club=club) for name in names]
    for rating, player in zip((1900, 1800, 1700, 1600), players[:4], strict=True):
        services.entrant_register(actor=user, tournament=tournament, player=player,
                                  rating=rating)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    entrants = list(tournament.entrants.order_by("seed"))
    services.forbid_pairing(actor=user, tournament=tournament, entrant_a=entrants[0],
                            entrant_b=entrants[1])
    services.bye_request(actor=user, entrant=entrants[3], round_number=3)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    round_clock_update(actor=user, round_=round_, clock="25+5", time_slot_minutes=90)
    for pairing in round_.pairings.order_by("board"):
        match_result_record(actor=user, pairing=pairing, expected_version=pairing.version,
                            score=MatchScore(1, 0))
    first = round_.pairings.get(board=1)
    first.refresh_from_db()
    match_result_record(actor=user, pairing=first, expected_version=first.version,
                        outcome="b_forfeit_win")
    services.entrant_register(actor=user, tournament=tournament, player=players[4],
                              rating=1500, late_byes="half_point")
    services.entrant_withdraw(actor=user, entrant=entrants[2])
    services.round_pair_next(actor=user, tournament=tournament)
    record(tournament, EventKind.PAIRING_EDITED, actor=user, round_number=2,
           action="swap_first_move",
           changes=[{"board": 1, "before": ["1 Анна Петрова", "2 Борис Иванов"],
                     "after": ["2 Борис Иванов", "1 Анна Петрова"]}],
           broken=[{"rule": "same_colour_three", "names": ["Борис Иванов"]}])
    record(tournament, EventKind.ROUND_RELEASED, actor=user, round_number=2)
    return {"tournament": tournament}


def _shot(browser: Browser, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(path)


def test_history_page_in_english_and_russian(browser: Browser, live_server: Any,
                                             told_event: dict[str, Any],
                                             artifacts: Path) -> None:
    server = str(live_server.url)
    page = f"/admin/tournaments/tournament/{told_event['tournament'].pk}/events/"
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    try:
        browser.get(f"{server}/admin/login/?next={page}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "historian", PASSWORD)
        wait_for(browser, f"return location.pathname === '{page}' && "
                          "document.readyState === 'complete';")
        text = browser.run("return document.getElementById('history').innerText;")
        for words in ("Round 2 released.", "First move swapped. Board 1:",
                      "Board 1: 1-0 → forfeit, 3 Вера Смирнова wins",
                      "Дарья Лебедева entered late, from round 2 (rating 1500).",
                      "Вера Смирнова withdrawn from round 2.",
                      "Round 1: clock the tournament's → 25+5; time slot none → 90 minutes."):
            assert words in text, words
        for shot in (artifacts / "history-en-1280.png",
                     Path("/tmp/shots-history/history-en-1280.png")):
            _shot(browser, shot)

        browser.run("document.cookie = 'django_language=ru; path=/';")
        browser.get(server + page + "?round=1")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('history');")
        assert browser.run("return document.documentElement.lang;") == "ru"
        text = browser.run("return document.getElementById('history').innerText;")
        for words in ("Доска 1: 1-0 → неявка, побеждает 3 Вера Смирнова",
                      "Жеребьёвка тура 1 проведена (2 доски).",
                      "время на тур не задано → 90 минут"):
            assert words in text, words
        assert "Что произошло" in browser.run("return document.body.textContent;")
        assert "Тур 2 опубликован." not in text  # the round filter
        _shot(browser, Path("/tmp/shots-history/history-ru-round1-1280.png"))

        browser.get(server + page)
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('history');")
        _shot(browser, Path("/tmp/shots-history/history-ru-1280.png"))
        browser.set_size(375, 800)
        browser.get(server + page)
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('history');")
        assert browser.run("return document.documentElement.scrollWidth;") <= 380
        for shot in (artifacts / "history-ru-375.png",
                     Path("/tmp/shots-history/history-ru-375.png")):
            _shot(browser, shot)
        browser.run("document.cookie = 'django_language=en; path=/';")
        browser.get(server + page)
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('history');")
        assert browser.run("return document.documentElement.scrollWidth;") <= 380
        _shot(browser, Path("/tmp/shots-history/history-en-375.png"))
    finally:
        browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
        browser.set_size(1280, 900)
