"""The service in Russian as well as English: the browser's Accept-Language chooses, the
switch (Django's set_language) overrides it and is remembered for a signed-in user, the
API's messages follow the language while its field names and codes stay English, and
dates, numbers and points take the language's style."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from pages.models import LanguagePreference
from pages.templatetags.pages_tags import count, decimal_points, points, seconds

pytestmark = pytest.mark.django_db
RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}


def test_accept_language_chooses_the_language_of_a_page(client: Client) -> None:
    russian = client.get("/", headers=RU)
    english = client.get("/", headers=EN)
    assert russian.status_code == english.status_code == 200
    page = russian.content.decode()
    assert '<html lang="ru">' in page and "Клубные турниры" in page
    assert "Идут сейчас" in page and "Running now" not in page
    assert 'name="language" value="en-gb" lang="en-gb">English</button>' in page
    assert 'value="ru" lang="ru" aria-current="true" disabled>Русский</button>' in page
    assert "Running now" in english.content.decode()
    assert "Accept-Language" in russian["Vary"]
    assert "Running now" in client.get("/", headers={"Accept-Language": "fr"}).content.decode()


def test_a_tournament_page_is_kept_once_per_language(
        client: Client, make_tournament: Callable[..., Any],
        play_round: Callable[..., Any]) -> None:
    cache.clear()
    tournament = make_tournament(entrants=4)
    play_round(tournament)
    url = reverse("pages:tournament-detail", args=[tournament.club.slug, tournament.slug])
    english, russian = client.get(url, headers=EN), client.get(url, headers=RU)
    assert "Standings after round 1" in english.content.decode()
    page = russian.content.decode()
    assert "Турнирная таблица после 1‑го тура" in page and "Standings" not in page
    assert english["ETag"] != russian["ETag"]
    # The cached page holds no CSRF token: the switch takes it from the cookie set here.
    assert 'name="csrfmiddlewaretoken" value=""' in page
    assert settings.CSRF_COOKIE_NAME in english.cookies
    again = client.get(url, headers={**RU, "If-None-Match": russian["ETag"]})
    assert again.status_code == 304
    assert client.get(url, headers={**EN, "If-None-Match": russian["ETag"]}).status_code == 200
    part = client.get(reverse("pages:tournament-results",
                              args=[tournament.club.slug, tournament.slug]), headers=RU)
    assert "Тур 1" in part.content.decode()


def test_the_api_follows_accept_language_and_keeps_names_and_codes(api: Any) -> None:
    russian = api.post("/api/auth/token/", {}, format="json", headers=RU)
    english = api.post("/api/auth/token/", {}, format="json", headers=EN)
    assert russian.status_code == english.status_code == 400
    assert russian.json()["code"] == english.json()["code"] == "invalid"
    assert set(russian.json()["errors"]) == set(english.json()["errors"]) >= {"username"}
    assert russian.json()["errors"]["username"] == ["Обязательное поле."]
    assert english.json()["errors"]["username"] == ["This field is required."]
    refused = api.get("/api/players/?name=a%00b", headers=RU)
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "invalid" and list(body["errors"]) == ["name"]
    assert body["detail"] == "Параметр запроса 'name' содержит символ NUL."
    anonymous = api.post("/api/clubs/", {"name": "X"}, format="json", headers=RU)
    assert anonymous.status_code in (401, 403)
    assert anonymous.json()["detail"] == "Учетные данные не были предоставлены."


def test_the_api_list_cache_answers_each_language_apart(api: Any, make_players: Any) -> None:
    make_players(2)
    first = api.get("/api/players/", headers=RU)
    second = api.get("/api/players/", headers=EN)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()  # names and codes: the same in both languages


def test_the_switch_is_remembered_for_a_signed_in_user(organizer: Any) -> None:
    browser = Client()
    browser.force_login(organizer)
    answer = browser.post(reverse("set_language"), {"language": "ru", "next": "/"}, headers=EN)
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert LanguagePreference.objects.get(user=organizer).language == "ru"
    assert '<html lang="ru">' in browser.get("/", headers=EN).content.decode()

    elsewhere = Client()  # another browser: English until the login brings the choice
    assert "Running now" in elsewhere.get("/", headers=EN).content.decode()
    login = elsewhere.post(reverse("admin:login"), {
        "username": organizer.username, "password": "pw-" + organizer.username,
        "next": reverse("admin:index")}, headers=EN)
    assert login.status_code == 302
    assert login.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    admin = elsewhere.get(reverse("admin:index"), headers=EN).content.decode()
    assert "Турниры вашего клуба" in admin and 'value="en-gb"' in admin
    assert "Идут сейчас" in elsewhere.get("/", headers=EN).content.decode()

    elsewhere.post(reverse("set_language"), {"language": "en-gb", "next": "/"})
    assert LanguagePreference.objects.get(user=organizer).language == "en-gb"


def test_an_anonymous_switch_lives_in_the_cookie_alone_and_needs_the_csrf_token() -> None:
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/", headers=EN)
    token = page.context["csrf_token"] if page.context else None
    assert token
    refused = browser.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert refused.status_code == 403
    answer = browser.post(reverse("set_language"),
                          {"language": "ru", "next": "/", "csrfmiddlewaretoken": str(token)})
    assert answer.status_code == 302
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert not LanguagePreference.objects.exists()
    assert '<html lang="ru">' in browser.get("/", headers=EN).content.decode()


def test_dates_numbers_and_points_in_the_language_s_style() -> None:
    day = dt.date(2026, 12, 1)
    with translation.override("ru"):
        assert formats.date_format(day) == "1 декабря 2026"
        assert (points(5.5), points(0.5), points(5.0)) == ("5½", "½", "5")
        assert decimal_points(5.5) == "5,5" and points(12.25) == "12,25"
        assert count(12345) == "12\xa0345"
        assert seconds(3725) == "1 ч 02 мин"
    with translation.override("en-gb"):
        assert formats.date_format(day) == "1 Dec 2026"
        assert (points(5.5), decimal_points(5.5), points(12.25)) == ("5½", "5.5", "12.25")
        assert count(12345) == "12,345" and seconds(3725) == "1 h 02 min"
