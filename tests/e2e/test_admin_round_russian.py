"""The admin round page (result entry) in Russian, in a real headless Chromium: the
organizer's language cookie picks Russian; the page's labels, the phone layout's captions
and the save message are Russian; screenshots at 1280 and 375 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import TAB, type_text, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "russian-walk-pw"


@pytest.fixture
def russian_round(transactional_db: Any) -> dict[str, Any]:
    """A running round robin (best of 3), round 1 paired, and its organizer."""
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("ru_director", password=PASSWORD,
                                                is_staff=True)
    club = Club.objects.create(name="Клуб на Неве", slug="neva")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Кубок Невы", game="kugamai", format="round_robin",
        match_format="bo3")
    for name in ("Анна Петрова", "Борис Иванов", "Вера Смирнова", "Глеб Орлов"):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    return {"round": services.round_pair_next(actor=user, tournament=tournament, release=True)}


def test_round_page_in_russian(browser: Browser, live_server: Any,
                               russian_round: dict[str, Any], artifacts: Path) -> None:
    server = str(live_server.url)
    page = f"/admin/tournaments/round/{russian_round['round'].pk}/change/"
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    browser.run("document.cookie = 'django_language=ru; path=/';")
    try:
        browser.get(f"{server}/admin/login/?next={page}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "ru_director", PASSWORD)
        wait_for(browser, f"return location.pathname === '{page}' && "
                          "document.readyState === 'complete';")
        assert browser.run("return document.documentElement.lang;") == "ru"
        text = browser.run("return document.body.textContent;")
        for words in ("Панель турнира", "Лист пар", "Бланки результатов",
                      "Совет по контролю времени", "партии и журнал"):
            assert words in text, words
        outcome = browser.run("var s = document.getElementById('id_pairings-0-outcome');"
                              "return s.options[s.selectedIndex].text;")
        assert outcome == "Ожидается"
        browser.screenshot(artifacts / "admin-round-ru-1280.png")

        wait_for(browser, "return document.activeElement && document.activeElement.id;")
        type_text(browser, "2")
        browser.press(TAB)
        type_text(browser, "1")
        browser.run("document.querySelector('input[name=_save]').click();")
        message = wait_for(browser, "var m = document.querySelector('.messagelist');"
                                    "return m && m.innerText;")
        assert "Сохранена доска 1." in message

        browser.set_size(375, 800)
        browser.get(server + page)
        wait_for(browser, "return document.readyState === 'complete' && "
                          "document.getElementById('id_pairings-1-wins_a');")
        caption = browser.run(
            "return getComputedStyle(document.querySelector("
            "'#pairings-group td.field-wins_a'), '::before').content;")
        assert caption == '"Выиграл A"'
        width = browser.run("return document.documentElement.scrollWidth;")
        assert width <= 400  # no sideways scroll on a phone
        browser.screenshot(artifacts / "admin-round-ru-375.png")
    finally:
        browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
        browser.set_size(1280, 900)


def test_a_draft_swiss_round_in_russian(browser: Browser, live_server: Any,
                                        artifacts: Path) -> None:
    """A Swiss round not yet released: the draft mark, the pairing settings, release and
    unpair buttons and the edit forms in Russian, at 1280 and 375 px."""
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("ru_swiss", password=PASSWORD, is_staff=True)
    club = Club.objects.create(name="Клуб у Моря", slug="more")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Швейцарка у моря", game="kugamai", format="swiss",
        rounds_planned=3, baku_acceleration=True)
    for name in ("Анна Петрова", "Борис Иванов", "Вера Смирнова", "Глеб Орлов", "Дина Ким"):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=False)
    server = str(live_server.url)
    page = f"/admin/tournaments/round/{round_.pk}/change/"
    browser.set_size(1280, 900)
    browser.get(server + "/healthz")
    browser.run("document.cookie = 'django_language=ru; path=/';")
    try:
        browser.get(f"{server}/admin/login/?next={page}")
        wait_for(browser, "return document.getElementById('id_username');")
        browser.run("document.getElementById('id_username').value = arguments[0];"
                    "document.getElementById('id_password').value = arguments[1];"
                    "document.getElementById('login-form').submit();", "ru_swiss", PASSWORD)
        wait_for(browser, f"return location.pathname === '{page}' && "
                          "document.readyState === 'complete';")
        browser.run("document.getElementById('edit-pairings').open = true;")
        text = browser.run("return document.getElementById('round-tools').textContent"
                           " + document.getElementById('round-edit-tools').textContent;")
        for words in ("Черновик", "Бакинская акселерация: включена", "Первый ход в 1-м туре",
                      "Опубликовать тур 1", "Отменить жеребьёвку тура 1",
                      "Поменять, кто ходит первым", "Составить пару вручную"):
            assert words in text, words
        browser.screenshot(artifacts / "admin-round-draft-ru-1280.png")
        browser.set_size(375, 800)
        browser.get(server + page)
        wait_for(browser, "return document.readyState === 'complete';")
        browser.run("document.getElementById('edit-pairings').open = true;")
        assert browser.run("return document.documentElement.scrollWidth;") <= 400
        browser.screenshot(artifacts / "admin-round-draft-ru-375.png")
    finally:
        browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
        browser.set_size(1280, 900)
