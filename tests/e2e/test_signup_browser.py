"""Public sign-up in a real headless Chromium at a phone's width (375 px), in English and
Russian: a 20-player Swiss with a cap of 20 where 21 people sign up (most through the
service, the last three through the browser); the 21st is waitlisted and moves up when
one withdraws from their status page. Screenshots of every step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-signup")


@pytest.fixture
def open_swiss(transactional_db: Any, settings: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from players.models import Club
    from signup import services
    from tournaments import services as tournament_services

    cache.clear()
    settings.SIGNUP_SUBMISSIONS_PER_WINDOW = 50
    user = get_user_model().objects.create_user("signup-organizer", password="pw-signup")
    club = Club.objects.create(name="Riverside Club", slug="riverside")
    club.organizers.add(user)
    tournament = tournament_services.tournament_create(
        actor=user, club=club, name="Spring Swiss", game="kugamai", format="swiss",
        rounds_planned=5)
    tournament_services.tournament_open_registration(actor=user, tournament=tournament)
    services.signup_settings_update(
        actor=user, tournament=tournament, is_open=True, cap=20, ask_email=True,
        ask_birth_year=True, message="Rounds start at 18:00. Bring your own clock.")
    for number in range(1, 19):
        services.sign_up(tournament=tournament, name=f"Runner {number:02d}",
                         fields={"email": f"r{number}@example.org", "birth_year": "1990"})
    return {"tournament": tournament, "organizer": user}


def _ready(browser: Browser, element: str) -> None:
    wait_for(browser, f"return document.readyState === 'complete' && "
                      f"document.getElementById('{element}');")


def _shot(browser: Browser, name: str, artifacts: Path) -> None:
    assert browser.run("return document.documentElement.scrollWidth;") <= 380, name
    for folder in (artifacts, SHOTS):
        browser.screenshot(folder / name)
    browser.set_size(375, 800)


def _sign_up(browser: Browser, name: str, email: str, year: str) -> str:
    """Fill and send the form the way a person does; the status page's path."""
    browser.run("document.getElementById('id_name').value = arguments[0];"
                "document.getElementById('id_email').value = arguments[1];"
                "document.getElementById('id_birth_year').value = arguments[2];"
                "document.querySelector('#signup-form button[type=submit]').click();",
                name, email, year)
    wait_for(browser, "return location.pathname.startsWith('/sign-up/') && "
                      "document.readyState === 'complete' && "
                      "document.getElementById('signup-status');")
    return str(browser.run("return location.pathname;"))


def test_twenty_one_sign_up_for_twenty_places(browser: Browser, live_server: Any,
                                              open_swiss: dict[str, Any],
                                              artifacts: Path) -> None:
    from signup.models import SignUp

    server = str(live_server.url)
    tournament = open_swiss["tournament"]
    detail = f"{server}/tournaments/{tournament.club.slug}/{tournament.slug}/"
    browser.set_size(375, 800)
    browser.get(server + "/healthz")
    try:
        browser.run("document.cookie = 'django_language=en; path=/';")
        browser.get(detail)
        _ready(browser, "signup-link")
        _shot(browser, "signup-tournament-en-375.png", artifacts)
        browser.run("document.getElementById('signup-link').click();")
        _ready(browser, "signup-form")
        assert "2 places left." in browser.run("return document.body.innerText;")
        _shot(browser, "signup-form-en-375.png", artifacts)

        # a mistake first: the field is named, nothing is written
        browser.run("document.getElementById('id_name').value = 'Sam Reed';"
                    "document.getElementById('id_email').value = 'not-an-address';"
                    "document.getElementById('id_birth_year').value = '1985';"
                    "document.querySelector('#signup-form button[type=submit]').click();")
        _ready(browser, "error-email")
        assert SignUp.objects.count() == 18
        _shot(browser, "signup-error-en-375.png", artifacts)

        nineteenth = _sign_up(browser, "Sam Reed", "sam@example.org", "1985")
        text = browser.run("return document.body.innerText;")
        assert "You are entered." in text and "/p/" in text
        _shot(browser, "signup-accepted-en-375.png", artifacts)

        # Russian: the 20th takes the last place, the 21st waits
        browser.run("document.cookie = 'django_language=ru; path=/';")
        browser.get(detail + "sign-up/")
        _ready(browser, "signup-form")
        assert browser.run("return document.documentElement.lang;") == "ru"
        assert "Осталось 1 место." in browser.run("return document.body.innerText;")
        _shot(browser, "signup-form-ru-375.png", artifacts)
        _sign_up(browser, "Тамара Орлова", "tamara@example.org", "1979")
        assert "Вы в списке участников." in browser.run("return document.body.innerText;")
        browser.get(detail + "sign-up/")
        _ready(browser, "signup-form")
        assert "лист ожидания" in browser.run("return document.body.innerText;")
        twenty_first = _sign_up(browser, "Ульяна Котова", "u@example.org", "2001")
        text = browser.run("return document.body.innerText;")
        assert "Вы в листе ожидания: номер 1." in text
        assert browser.run("return document.getElementById('signup-status')"
                           ".dataset.status;") == "waitlisted"
        _shot(browser, "signup-waitlisted-ru-375.png", artifacts)
        assert tournament.entrants.count() == 20

        # the 19th withdraws from the status page: the 21st moves up
        browser.get(server + nineteenth)
        _ready(browser, "withdraw-link")
        browser.run("document.getElementById('withdraw-link').click();")
        _ready(browser, "withdraw-form")
        _shot(browser, "signup-withdraw-ru-375.png", artifacts)
        browser.run("document.querySelector('.signup-withdraw input[name=confirm]')"
                    ".checked = true;"
                    "document.querySelector('.signup-withdraw button').click();")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('signup-status') && "
                          "document.getElementById('signup-status').dataset.status "
                          "=== 'withdrawn';")
        assert "Вы отозвали заявку." in browser.run("return document.body.innerText;")
        _shot(browser, "signup-withdrawn-ru-375.png", artifacts)
        browser.get(server + twenty_first)
        _ready(browser, "signup-status")
        assert browser.run("return document.getElementById('signup-status')"
                           ".dataset.status;") == "accepted"
        assert "Ваша личная ссылка" in browser.run("return document.body.innerText;")
        _shot(browser, "signup-moved-up-ru-375.png", artifacts)
        browser.run("document.cookie = 'django_language=en; path=/';")
        browser.get(server + twenty_first)
        _ready(browser, "signup-status")
        assert "You are entered." in browser.run("return document.body.innerText;")
        _shot(browser, "signup-moved-up-en-375.png", artifacts)
        assert tournament.entrants.count() == 20
        assert not tournament.entrants.filter(player__display_name="Sam Reed").exists()
        # the only console errors: /healthz's favicon and the refused form's 400
        assert [error for error in browser.console_errors()
                if "favicon" not in error and "400" not in error] == []
    finally:
        browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
        browser.set_size(1280, 900)


def test_the_organizer_decides_in_the_admin(browser: Browser, live_server: Any,
                                            transactional_db: Any, artifacts: Path) -> None:
    """Acceptance by the organizer, a cap of 2: the admin lists the sign-ups to decide;
    one is declined from its page, so the first waiting becomes pending."""
    from django.contrib.auth import get_user_model

    from players.models import Club
    from signup import services
    from signup.models import SignUp
    from tournaments import services as tournament_services

    user = get_user_model().objects.create_user("signup-desk", password="pw-desk")
    club = Club.objects.create(name="Harbour Club", slug="harbour")
    club.organizers.add(user)
    tournament = tournament_services.tournament_create(
        actor=user, club=club, name="Harbour Open", game="kugamai", format="swiss",
        rounds_planned=5)
    services.signup_settings_update(actor=user, tournament=tournament, is_open=True, cap=2,
                                    acceptance="organizer", ask_email=True)
    for name in ("Olga Berg", "Piet Mol", "Quinn Ash"):
        services.sign_up(tournament=tournament, name=name,
                         fields={"email": f"{name.split()[0].lower()}@example.org"})
    server = str(live_server.url)
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    try:
        browser.get(f"{server}/admin/login/?next=/admin/signup/signup/")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "signup-desk", "pw-desk")
        wait_for(browser, "return location.pathname === '/admin/signup/signup/' && "
                          "document.readyState === 'complete';")
        text = browser.run("return document.getElementById('result_list').innerText;")
        assert "Olga Berg" in text and "Quinn Ash" in text and "On the waiting list" in text
        for folder in (artifacts, SHOTS):
            browser.screenshot(folder / "signup-admin-list-en-1280.png")
        olga = SignUp.objects.get(name="Olga Berg")
        browser.get(f"{server}/admin/signup/signup/{olga.pk}/change/")
        wait_for(browser, "return document.getElementById('signup-decide');")
        browser.run("document.querySelector('#signup-decide button[name=decline]').click();")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "!document.getElementById('signup-decide') && "
                          "document.querySelector('.messagelist');")
        assert SignUp.objects.get(name="Olga Berg").status == "declined"
        assert SignUp.objects.get(name="Quinn Ash").status == "pending"
        for folder in (artifacts, SHOTS):
            browser.screenshot(folder / "signup-admin-declined-en-1280.png")
        browser.set_size(375, 800)
        browser.run("document.cookie = 'django_language=ru; path=/';")
        browser.get(f"{server}/admin/signup/signup/")
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('result_list');")
        assert "Ожидает решения" in browser.run("return document.body.innerText;")
        for folder in (artifacts, SHOTS):
            browser.screenshot(folder / "signup-admin-list-ru-375.png")
    finally:
        browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
        browser.set_size(1280, 900)
