"""Issue 34's layout defects, measured in a real headless Chromium (element boxes read with
JavaScript), in English and Russian, at 1280 and 375 px: the round page's boards near the
top of a phone, outcome choices shown whole, a stale-save note that does not push the
boards sideways, public tabs on one row with whole ordinals, and bye selects that show whole
names. Screenshots under /tmp/shots-polish/ (or SHOTS_DIR)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "polish-layout-pw"
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-polish"))
NAMES = ("Александра Константинопольская", "Maximilian Oberhauser-Wittgenstein",
         "Вера Смирнова", "Глеб Орлов", "Bartholomew Featherstonehaugh", "Ада Моро",
         "Евдокия Преображенская-Рождественская", "Ян Ли")

#: Each choice of the selects matching arguments[0], chosen in turn: the select's width
#: beside the choice's text width and the select's padding (the text shows whole when the
#: width holds both and the arrow).
CHOICE_WIDTHS = """
var found = [];
document.querySelectorAll(arguments[0]).forEach(function (select) {
  var style = getComputedStyle(select), probe = document.createElement('span');
  var kept = select.selectedIndex;
  probe.style.cssText = 'position:absolute;white-space:pre;visibility:hidden';
  probe.style.font = style.font;
  document.body.appendChild(probe);
  for (var index = 0; index < select.options.length; index++) {
    select.selectedIndex = index;
    probe.textContent = select.options[index].text;
    found.push({choice: select.options[index].text, select: select.getBoundingClientRect().width,
                text: probe.getBoundingClientRect().width,
                padding: parseFloat(style.paddingLeft) + parseFloat(style.paddingRight)});
  }
  select.selectedIndex = kept;
  probe.remove();
});
return found;
"""


def _whole(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The choices whose text does not fit their select (beside the arrow)."""
    return [c for c in choices if c["select"] < c["text"] + c["padding"] + 16]


#: Whether anything scrolls sideways: the page, or a scrolling box inside it.
SIDEWAYS = """
var page = document.documentElement, boxes = [];
document.querySelectorAll('#content *').forEach(function (element) {
  var overflow = getComputedStyle(element).overflowX;
  if ((overflow === 'auto' || overflow === 'scroll') &&
      element.scrollWidth > element.clientWidth + 1) {
    boxes.push(element.className || element.tagName);
  }
});
return {page: page.scrollWidth - page.clientWidth, boxes: boxes};
"""


@pytest.fixture
def desk(transactional_db: Any) -> dict[str, Any]:
    """A Kazambi Swiss of eight long names, round 1 paired, and its organizer."""
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("polish_director", password=PASSWORD)
    club = Club.objects.create(name="Клуб на Неве", slug="neva-polish")
    club.organizers.add(user)
    tournament = services.tournament_create(
        actor=user, club=club, name="Кубок Невы", game="kazambi", format="swiss",
        rounds_planned=5)
    for index, name in enumerate(NAMES):
        player = Player.objects.create(display_name=name, club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player,
                                  rating=2000 - 10 * index)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    return {"user": user, "tournament": tournament, "round": round_}


def _sign_in(browser: Browser, server: str, page: str, language: str) -> None:
    browser.get(server + "/healthz")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    browser.get(f"{server}/admin/login/?next={page}")
    wait_for(browser, "return document.getElementById('id_username');")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "polish_director", PASSWORD)
    wait_for(browser, f"return location.pathname === '{page}' && "
                      "document.readyState === 'complete';")


def _shot(browser: Browser, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.screenshot(SHOTS / f"{name}.png")


@pytest.fixture
def polish_browser(browser: Browser) -> Any:
    yield browser
    browser.run("document.cookie = 'django_language=; path=/; max-age=0';")
    browser.set_size(1280, 900)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_round_page_on_a_phone_shows_board_one_near_the_top(
        language: str, polish_browser: Browser, live_server: Any,
        desk: dict[str, Any]) -> None:
    browser, server = polish_browser, str(live_server.url)
    page = f"/admin/tournaments/round/{desk['round'].pk}/change/"
    browser.set_size(375, 800)
    _sign_in(browser, server, page, language)
    top = browser.run("var row = document.querySelector('#pairings-group tr.form-row');"
                      "return row.getBoundingClientRect().top + window.scrollY;")
    assert top < 450, f"board 1 starts {top:.0f} px down the page"
    assert browser.run(SIDEWAYS)["page"] <= 0
    clock = browser.run("return document.getElementById('id_clock').getBoundingClientRect()"
                        ".top + window.scrollY;")
    assert clock > top  # the round's settings follow the boards
    _shot(browser, f"round-375-{language}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_round_page_at_1280_keeps_outcomes_whole_and_a_stale_note_in_view(
        language: str, polish_browser: Browser, live_server: Any,
        desk: dict[str, Any]) -> None:
    from games.series.format import MatchScore
    from matches.services.results import result_record

    browser, server = polish_browser, str(live_server.url)
    round_ = desk["round"]
    page = f"/admin/tournaments/round/{round_.pk}/change/"
    browser.set_size(1280, 900)
    _sign_in(browser, server, page, language)
    choices = browser.run(CHOICE_WIDTHS, "select.result-outcome")
    assert choices and _whole(choices) == []
    # another director saves board 1 meanwhile; this one then saves board 1 too
    board = round_.pairings.get(board=1)
    result_record(actor=desk["user"], pairing=board, score=MatchScore(0, 1, 0),
                  expected_version=board.version)
    browser.run("var box = document.getElementById('id_pairings-0-wins_a');"
                "box.value = '1'; box.dispatchEvent(new Event('change'));"
                "document.querySelector('input[name=_continue]').click();")
    wait_for(browser, "return document.readyState === 'complete' && "
                      "document.querySelector('.conflict-note');")
    sideways = browser.run(SIDEWAYS)
    assert sideways == {"page": 0, "boxes": []}, sideways
    note = browser.run("return document.querySelector('.conflict-note')"
                       ".getBoundingClientRect().right;")
    assert note <= 1280
    assert _whole(browser.run(CHOICE_WIDTHS, "select.result-outcome")) == []
    _shot(browser, f"round-stale-1280-{language}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_public_tabs_stay_on_one_row_at_375_with_whole_ordinals(
        language: str, polish_browser: Browser, live_server: Any,
        desk: dict[str, Any]) -> None:
    from games.series.format import MatchScore
    from matches.services.results import result_record

    for board in desk["round"].pairings.exclude(entrant_b=None):
        result_record(actor=desk["user"], pairing=board, score=MatchScore(1, 0, 0),
                      expected_version=board.version)
    browser, server = polish_browser, str(live_server.url)
    tournament = desk["tournament"]
    browser.set_size(375, 800)
    browser.get(server + "/healthz")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    for path in ("", "table/"):
        browser.get(f"{server}/tournaments/{tournament.club.slug}/{tournament.slug}/{path}")
        wait_for(browser, "return document.readyState === 'complete';")
        tops = browser.run("return [...document.querySelectorAll('.tabs li')]"
                           ".map(e => Math.round(e.getBoundingClientRect().top));")
        assert len(tops) >= 2 and len(set(tops)) == 1, tops
        assert browser.run(SIDEWAYS)["page"] <= 0
        broken = browser.run("""
            var found = [], node;
            var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            while ((node = walker.nextNode())) {
              var match = /\\d+[-\\u2011](го|й)/.exec(node.textContent);
              if (!match) continue;
              var range = document.createRange();
              range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
              if (range.getClientRects().length > 1) found.push(node.textContent.trim());
            }
            return found;""")
        assert broken == []
        _shot(browser, f"public-{path.strip('/') or 'overview'}-375-{language}")


def test_bye_selects_show_whole_names(polish_browser: Browser, live_server: Any,
                                      desk: dict[str, Any]) -> None:
    browser, server = polish_browser, str(live_server.url)
    page = f"/admin/tournaments/tournament/{desk['tournament'].pk}/entrants/"
    browser.set_size(1280, 900)
    _sign_in(browser, server, page, "ru")
    choices = browser.run(CHOICE_WIDTHS, "#byes select, #forbidden select")
    assert choices and _whole(choices) == []
    _shot(browser, "entrants-byes-1280-ru")
