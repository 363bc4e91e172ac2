"""Issue 34's player pages in Chromium, English and Russian, at 1280 and 375 px: the
entrants page with its pasted list and "New player" link, the likely-duplicate warning,
a delete refused in words, the merge page and the TRF import's warnings (screenshots in
artifacts/screenshots/players-*.png)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "players-pages-pw"


@pytest.fixture
def club_world(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from games.series.format import MatchScore
    from matches import services as match_services
    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("pl_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Rook Club", slug="rook-club")
    club.organizers.add(user)
    people = [Player.objects.create(display_name=name, club=club, federation="POL")
              for name in ("Anna Kowalska", "Jan Nowak", "Ewa Lis", "Piotr Zając")]
    copy = Player.objects.create(display_name="anna  kowalska", club=club)
    spring = services.tournament_create(actor=user, club=club, name="Spring Swiss",
                                        game="kazambi", format="swiss", rounds_planned=3)
    for rating, player in zip((1900, 1800, 1700, 1600), people, strict=True):
        services.entrant_register(actor=user, tournament=spring, player=player,
                                  rating=rating)
    spring = services.tournament_start(actor=user, tournament=spring)
    round_ = services.round_pair_next(actor=user, tournament=spring, release=True)
    for pairing in round_.pairings.filter(outcome="pending"):
        match_services.result_record(actor=user, pairing=pairing, score=MatchScore(1, 0, 0),
                                     expected_version=pairing.version)
    autumn = services.tournament_create(actor=user, club=club, name="Autumn Open",
                                        game="kugamai", format="round_robin")
    return {"user": user, "club": club, "anna": people[0], "copy": copy, "spring": spring,
            "autumn": autumn}


def _wait(browser: Browser, script: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = browser.run(script)
        except Exception:  # noqa: BLE001 - the page is being replaced
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {script}")


def _loaded(browser: Browser) -> None:
    _wait(browser, "return document.readyState === 'complete' && document.body;")


def _shots(browser: Browser, folder: Path, name: str) -> None:
    for label, size in {"1280": (1280, 900), "375": (375, 800)}.items():
        browser.set_size(*size)
        time.sleep(0.2)
        browser.screenshot(folder / f"players-{name}-{label}.png")
        if label == "1280":
            assert not browser.run(
                "return document.documentElement.scrollWidth > window.innerWidth + 1;"), name
    browser.set_size(1280, 900)


@pytest.mark.parametrize("language", ["en-gb", "ru"])
def test_player_pages(browser: Browser, live_server: Any, club_world: dict[str, Any],
                      artifacts: Path, language: str) -> None:
    from tournaments import selectors

    server = str(live_server.url)
    browser.set_size(1280, 900)
    browser.get(f"{server}/admin/login/")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    browser.get(f"{server}/admin/login/")
    _wait(browser, "return document.getElementById('id_username');")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "pl_director", PASSWORD)
    _wait(browser, "return location.pathname === '/admin/';")
    suffix = "ru" if language == "ru" else "en"

    autumn = club_world["autumn"]
    browser.get(f"{server}/admin/tournaments/tournament/{autumn.pk}/entrants/")
    _loaded(browser)
    browser.run("document.getElementById('entry-names').value = arguments[0];"
                "document.getElementById('paste-names').submit();",
                "Jan Nowak\nMaria Wiśniewska\nKowalski, Adam\n")
    _wait(browser, "return document.getElementById('upload-preview');")
    _shots(browser, artifacts, f"entrants-paste-{suffix}")

    browser.get(f"{server}/admin/players/player/add/?club={club_world['club'].pk}")
    _loaded(browser)
    browser.run("document.getElementById('id_display_name').value = 'JAN  nowak';"
                "document.querySelector('input[name=_save]').click();")
    _wait(browser, "return document.querySelector('.errorlist');")
    _shots(browser, artifacts, f"duplicate-{suffix}")

    browser.get(f"{server}/admin/players/player/{club_world['anna'].pk}/delete/")
    _wait(browser, "return document.querySelector('.messagelist');")
    text = browser.run("return document.body.innerText;")
    assert ("played 1 game in 1 tournament" in text) if suffix == "en" else \
        ("1 партия в 1 турнире" in text)
    _shots(browser, artifacts, f"delete-refused-{suffix}")

    anna, copy = club_world["anna"], club_world["copy"]
    browser.get(f"{server}/admin/players/player/merge/?a={anna.pk}&b={copy.pk}")
    _wait(browser, "return document.getElementById('merge-form');")
    _shots(browser, artifacts, f"merge-{suffix}")

    trf = artifacts / "players-spring.trf"
    trf.write_text(selectors.tournament_trf(club_world["spring"]), encoding="utf-8")
    browser.get(f"{server}/admin/tournaments/tournament/import-trf/")
    _wait(browser, "return document.getElementById('id_file');")
    browser.upload("#id_file", trf)
    browser.run("document.getElementById('import-preview-button').click();")
    _wait(browser, "return document.getElementById('import-same-games');")
    _shots(browser, artifacts, f"import-warning-{suffix}")
    assert [e for e in browser.console_errors() if "favicon.ico" not in e] == []
