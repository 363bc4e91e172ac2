"""The Print block in Chromium, in English and Russian, at 1280 and 375 px: on the
tournament dashboard and on a draft round's page, nothing scrolls sideways, and a button
of the form downloads a PDF (the form's own fields, read back through the browser);
screenshots (artifacts/screenshots/print-block-*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "print-walk-pw"

#: The form's GET for one of its buttons, sent by the browser itself (status, type).
DOWNLOAD = """
var form = document.getElementById('print-pack');
var data = new FormData(form);
data.set('kind', arguments[0]);
var request = new XMLHttpRequest();
request.open('GET', form.action + '?' + new URLSearchParams(data).toString(), false);
request.send();
return [request.status, request.getResponseHeader('Content-Type'),
        request.getResponseHeader('Content-Disposition')];
"""


@pytest.fixture
def hall(transactional_db: Any) -> dict[str, str]:
    """A Swiss of six with Cyrillic names, one round played and round 2 paired (a draft)."""
    from django.contrib.auth import get_user_model

    from games.series.format import MatchScore
    from matches.services import result_record
    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("print_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Клуб на Неве", slug="neva-print")
    club.organizers.add(user)
    event = services.tournament_create(actor=user, club=club, name="Кубок Невы",
                                       game="kugamai", format="swiss", rounds_planned=4,
                                       rated=False)
    for index, name in enumerate(["Анна Петрова", "Борис Иванов", "Вера Смирнова",
                                  "Глеб Орлов", "Émilie Fontaine", "Jan de Vries"]):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=event, player=player,
                                  rating=1900 - 25 * index)
    event = services.tournament_start(actor=user, tournament=event)
    round_ = services.round_pair_next(actor=user, tournament=event, release=True)
    for board in round_.pairings.filter(outcome="pending"):
        result_record(actor=user, pairing=board, expected_version=board.version,
                      score=MatchScore(1, 0))
    draft = services.round_pair_next(actor=user, tournament=event, release=False)
    return {"dashboard": f"/admin/tournaments/tournament/{event.pk}/dashboard/",
            "round": f"/admin/tournaments/round/{draft.pk}/change/"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_print_block(browser: Browser, live_server: Any, hall: dict[str, str],
                     artifacts: Path, language: str) -> None:
    server = str(live_server.url)
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    try:
        browser.get(f"{server}/admin/login/?next={hall['dashboard']}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "print_director",
                    PASSWORD)
        wait_for(browser, "return document.getElementById('print-pack');")
        for width, height in ((1280, 900), (375, 800)):
            browser.set_size(width, height)
            for name, path in hall.items():
                browser.console_errors()
                browser.get(server + path)
                wait_for(browser, "return document.readyState === 'complete';")
                lang, overflow, text = browser.run(
                    "return [document.documentElement.lang,"
                    " document.documentElement.scrollWidth > window.innerWidth,"
                    " document.getElementById('print-pack').textContent];")
                where = f"{name} at {width} in {language}"
                assert lang.startswith(language), where
                assert not overflow, f"{where} scrolls sideways"
                assert ("Печать (PDF)" if language == "ru" else "Print (PDF)") in text, where
                assert browser.console_errors() == [], where
                status, kind, disposition = browser.run(DOWNLOAD, "pairings")
                assert (status, kind) == (200, "application/pdf"), where
                assert "round-2-pairings-a4.pdf" in disposition, where
                if name == "round":  # folded there: open it for the picture
                    browser.run("document.getElementById('print-pack-fold').open = true;")
                browser.screenshot(artifacts / f"print-block-{language}-{name}-{width}.png")
    finally:
        browser.run("document.cookie = 'django_language=; max-age=0; path=/';")
