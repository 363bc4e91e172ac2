"""The admin's printable hall lists in Chromium, in English and Russian, at 1280 and
375 px: nothing scrolls the page sideways (wide tables scroll in their own box), the draft
round is marked; screenshots (artifacts/screenshots/admin-lists-*)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "lists-walk-pw"
SHOTS = Path(os.environ.get("LIST_SHOTS", "/tmp/shots-lists"))


@pytest.fixture
def hall(transactional_db: Any) -> dict[str, str]:
    """A Swiss of eight, two rounds played and round 3 paired (a draft)."""
    from django.contrib.auth import get_user_model

    from games.series.format import MatchScore
    from matches.services import result_record
    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("lists_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Клуб на Неве", slug="neva")
    club.organizers.add(user)
    event = services.tournament_create(actor=user, club=club, name="Кубок Невы",
                                       game="kugamai", format="swiss", rounds_planned=5)
    names = ["Анна Петрова", "Борис Иванов", "Вера Смирнова", "Глеб Орлов",
             "Aleksandra Wiśniewska-Kowalczyk", "Émilie Fontaine", "Jan de Vries", "Bo Li"]
    for index, name in enumerate(names):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=event, player=player,
                                  rating=1900 - 25 * index)
    event = services.tournament_start(actor=user, tournament=event)
    for _number in range(2):
        round_ = services.round_pair_next(actor=user, tournament=event, release=True)
        for board in round_.pairings.filter(outcome="pending"):
            result_record(actor=user, pairing=board, expected_version=board.version,
                          score=MatchScore(1, 0) if board.board % 2 else MatchScore(0, 0, 1))
    services.round_pair_next(actor=user, tournament=event, release=False)  # a draft
    return {
        "starting": reverse("admin:tournaments_tournament_starting_list", args=[event.pk]),
        "by-name": reverse("admin:tournaments_tournament_by_name", args=[event.pk, 3]),
        "standings": reverse("admin:tournaments_tournament_standings_after",
                             args=[event.pk]) + "?after=1",
        "wall-chart": reverse("admin:tournaments_tournament_wall_chart", args=[event.pk]),
    }


@pytest.mark.parametrize("language", ["en", "ru"])
def test_printable_lists(browser: Browser, live_server: Any, hall: dict[str, str],
                         artifacts: Path, language: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = str(live_server.url)
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    try:
        browser.get(f"{server}/admin/login/?next={hall['starting']}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "lists_director",
                    PASSWORD)
        wait_for(browser, "return document.getElementById('starting-list');")
        for width, height in ((1280, 900), (375, 800)):
            browser.set_size(width, height)
            for name, path in hall.items():
                browser.console_errors()
                browser.get(server + path)
                wait_for(browser, "return document.readyState === 'complete';")
                lang, overflow, text = browser.run(
                    "return [document.documentElement.lang,"
                    " document.documentElement.scrollWidth > window.innerWidth,"
                    " document.body.innerText];")
                where = f"{name} at {width} in {language}"
                assert lang.startswith(language), where
                assert not overflow, f"{where} scrolls sideways"
                assert browser.console_errors() == [], where
                if name == "by-name":
                    assert ("Черновик" if language == "ru" else "Draft") in text, where
                shot = f"admin-lists-{language}-{name}-{width}.png"
                browser.screenshot(artifacts / shot)
                browser.screenshot(SHOTS / shot)
    finally:
        browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
