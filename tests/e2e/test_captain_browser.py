"""A league captain on a phone (375 px, headless Chromium): the private page in English
and Russian without sideways scrolling, a lineup out of order refused with its reason next
to the form, then the lineup submitted and shown back, and a player marked unavailable.
Screenshots go to artifacts/screenshots/captain-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for
from tests.e2e.test_reporting_browser import fresh_session, no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def captain_world(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    from players.models import Club
    from tests.integration.leagues.test_captain_pages import _world

    user = get_user_model().objects.create_user("league_manager", password="pw-league")
    club = Club.objects.create(name="League club", slug="league-club")
    club.organizers.add(user)
    return _world(user, club)


def _open(browser: Browser, url: str) -> None:
    browser.get(url)
    wait_for(browser, "return document.readyState === 'complete' && document.querySelector('h1');")


def _submit(browser: Browser, form_id: str) -> None:
    browser.run("document.getElementById(arguments[0]).querySelector('button[type=submit]')"
                ".click();", form_id)
    wait_for(browser, "return document.readyState === 'complete' && "
                      "(location.search.includes('sent=') || document.querySelector('.pl-error'));")


def test_a_captain_submits_the_lineup_from_a_phone(browser: Browser, live_server: Any,
                                                   captain_world: Any,
                                                   artifacts: Path) -> None:
    from leagues.models import Availability, Lineup

    world = captain_world
    url = str(live_server.url) + world.url
    squad = world.players[world.mine.pk]
    form = f"lineup-form-{world.match.pk}"
    browser.set_size(375, 800)
    fresh_session(browser, str(live_server.url), "en")
    _open(browser, url)
    no_sideways_scroll(browser)
    browser.screenshot(artifacts / "captain-page-375.png")

    # boards 1 and 2 swapped: refused, the reason above the form, nothing saved
    browser.run("""const [form, first, second] = arguments;
        const boxes = document.getElementById(form);
        boxes.querySelector('[name=board_1]').value = second;
        boxes.querySelector('[name=board_2]').value = first;""",
                form, str(squad[0].pk), str(squad[1].pk))
    _submit(browser, form)
    error = browser.run("return document.querySelector('.pl-error').textContent;")
    assert squad[0].display_name in error and not Lineup.objects.exists()
    no_sideways_scroll(browser)
    browser.screenshot(artifacts / "captain-refused-375.png")

    # put back in order and sent
    browser.run("""const [form, first, second] = arguments;
        const boxes = document.getElementById(form);
        boxes.querySelector('[name=board_1]').value = first;
        boxes.querySelector('[name=board_2]').value = second;""",
                form, str(squad[0].pk), str(squad[1].pk))
    _submit(browser, form)
    assert "Your lineup is in." in browser.run("return document.body.textContent;")
    assert Lineup.objects.filter(team=world.mine).count() == 1

    # in Russian: a player unavailable for round 2
    fresh_session(browser, str(live_server.url), "ru")
    _open(browser, url)
    assert browser.run("return document.documentElement.lang;") == "ru"
    assert "Ваш состав" in browser.run("return document.body.textContent;")
    browser.run("document.getElementById(arguments[0]).click();",
                f"avail_{squad[2].pk}_2")
    browser.run("document.getElementById('save-availability').click();")
    wait_for(browser, "return document.readyState === 'complete' && "
                      "location.search.includes('sent=availability');")
    assert Availability.objects.get(player=squad[2], round_number=2).available is False
    no_sideways_scroll(browser)
    browser.screenshot(artifacts / "captain-ru-375.png")
