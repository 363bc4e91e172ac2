"""A whole club tournament run from the admin in headless Chromium on PostgreSQL (issue 14).

The site's administrator creates the club and names its organizer; the organizer, who is
not staff, then does everything in the browser: 14 players, last season's Swiss imported
from a Latin-1 TRF file (their club ratings), a Swiss of 5 rounds best of 3 with FIDE's
tie-breaks, everyone entered in one step (seeds follow the ratings), a late entrant in
round 2, a withdrawal after round 3, every result typed with the keyboard, a stale save
that keeps the typed boards, a correction after a later round, and the same standings on
the public page, in the CSV and in the exported TRF. Screenshots at 1280 and 375 px go to
artifacts/screenshots/walkthrough-*.png.
"""

from __future__ import annotations

import csv
import io
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import wait_for
from tests.trf_samples import NAMES, latin1_trf_bytes

pytestmark = pytest.mark.django_db(transaction=True)

TAB, ENTER = "\ue004", "\ue007"
PASSWORD = "club-walk-pw-2026"
NEWCOMERS = ["Ada Moreau", "Bram Okafor", "Chiara Lind", "Dmitri Sato"]
LATE = "Eira Novak"
#: Match scores typed, chosen by round and board (Kazambi has no draws; best of 3).
SCORES = [(2, 0), (2, 1), (1, 2), (0, 2)]


@pytest.fixture
def accounts(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return {
        "root": users.create_superuser("clubroot", "", PASSWORD),
        "maria": users.create_user("maria", password=PASSWORD),  # not staff
        "bob": users.create_user("bob", password=PASSWORD),
    }


class Walk:
    """The browser, the server and a log of the steps with their times."""

    def __init__(self, browser: Browser, server: str, artifacts: Path) -> None:
        self.browser, self.server, self.artifacts = browser, server, artifacts
        self.started = time.monotonic()
        self.steps: list[tuple[str, float]] = []

    def step(self, name: str) -> None:
        self.steps.append((name, time.monotonic() - self.started))

    def run(self, script: str, *args: Any) -> Any:
        return self.browser.run(script, *args)

    def open(self, path: str) -> None:
        self.browser.get(self.server + path)
        wait_for(self.browser, "return document.readyState === 'complete';")

    def submit(self, selector: str) -> None:
        """Click a submit button and wait for the next page."""
        self.run("window.__walk = 1; document.querySelector(arguments[0]).click();", selector)
        wait_for(self.browser, "return !window.__walk && document.readyState === 'complete';")

    def keys(self, text: str) -> None:
        for key in text:
            self.browser.press(key)

    def message(self) -> str:
        return str(self.run("var m = document.querySelector('.messagelist');"
                            "return m ? m.innerText : '';"))

    def login(self, username: str) -> None:
        self.browser.get(self.server + "/admin/login/")
        wait_for(self.browser, "return document.getElementById('id_username');")
        self.run("document.getElementById('id_username').value = arguments[0];"
                 "document.getElementById('id_password').value = arguments[1];"
                 "window.__walk = 1; document.getElementById('login-form').submit();",
                 username, PASSWORD)
        wait_for(self.browser, "return !window.__walk && location.pathname === '/admin/';")

    def logout(self) -> None:
        self.run("window.__walk = 1; document.getElementById('logout-form').submit();")
        wait_for(self.browser, "return !window.__walk && document.readyState === 'complete';")

    def shoot(self, name: str, widths: tuple[int, ...] = (1280, 375)) -> None:
        for width in widths:
            self.browser.set_size(width, 900)
            self.browser.screenshot(self.artifacts / f"walkthrough-{name}-{width}.png")
        self.browser.set_size(1280, 900)


def points(text: str) -> float:
    text = text.strip().replace("½", ".5")
    return float("0" + text if text.startswith(".") else text)


def type_round(walk: Walk, round_number: int) -> int:
    """Type every pending board's score with the keyboard: the cursor starts in the first
    pending board; Tab moves along the row (A's wins, B's wins, outcome: Kazambi has no
    draws box) to the next board; Enter saves. Returns the number of boards typed."""
    pending = int(walk.run("return [].filter.call(document.querySelectorAll("
                           "'select.result-outcome'), function (s) {"
                           "return s.value === 'pending'; }).length;"))
    focused = wait_for(walk.browser, "return document.activeElement.id;")
    assert focused.endswith("-wins_a"), focused
    for board in range(pending):
        wins_a, wins_b = SCORES[(3 * round_number + board) % len(SCORES)]
        walk.keys(str(wins_a))
        walk.browser.press(TAB)
        walk.keys(str(wins_b))
        if board < pending - 1:
            for _ in range(2):  # outcome, the next board
                walk.browser.press(TAB)
    return pending


def save_round(walk: Walk) -> str:
    walk.run("window.__walk = 1;")
    walk.browser.press(ENTER)
    wait_for(walk.browser, "return !window.__walk && document.readyState === 'complete' && "
                           "!!document.querySelector('.messagelist');")
    return walk.message()


def test_a_club_tournament_from_empty_database_to_final_standings(
        browser: Browser, live_server: Any, accounts: dict[str, Any], artifacts: Path,
        tmp_path: Path) -> None:
    from games.series.format import MatchScore
    from matches.services.results import match_result_record
    from players.models import Club
    from ratings.models import Rating
    from tournaments.models import Entrant, Pairing, Tournament
    from tournaments.trf import read_trf

    walk = Walk(browser, str(live_server.url), artifacts)
    browser.set_size(1280, 900)

    # -- the administrator creates the club and names its organizer ---------------------
    walk.login("clubroot")
    walk.open("/admin/players/club/add/")
    walk.run("document.getElementById('id_name').value = 'Kazambi Club';"
             "document.getElementById('id_slug').value = 'kazambi-club';")
    wait_for(browser, "return typeof SelectBox !== 'undefined' && "
                      "!!document.getElementById('id_organizers_from');")
    walk.run("var box = document.getElementById('id_organizers_from');"
             "for (var o of box.options) { o.selected = o.text === 'maria'; }"
             "SelectBox.move('id_organizers_from', 'id_organizers_to');")
    walk.submit("input[name=_save]")
    club = Club.objects.get(slug="kazambi-club")
    assert list(club.organizers.values_list("username", flat=True)) == ["maria"]
    walk.logout()
    walk.step("club created by the administrator")

    # -- the organizer (not staff) creates 14 players -----------------------------------
    assert not accounts["maria"].is_staff
    walk.login("maria")
    walk.open("/admin/players/player/add/")
    for name in NAMES + NEWCOMERS:  # "Save and add another" lands on the next empty form
        walk.run("document.getElementById('id_display_name').value = arguments[0];"
                 "document.getElementById('id_club').value = arguments[1];", name, str(club.pk))
        walk.submit("input[name=_addanother]")
    assert club.players.count() == 14
    walk.step("14 players created")

    # -- last season's Swiss, from Swiss-Manager's Latin-1 TRF, gives club ratings ------
    trf_file = tmp_path / "hiver-2026.trf"
    trf_file.write_bytes(latin1_trf_bytes())
    walk.open("/admin/tournaments/tournament/import-trf/")
    walk.run("document.getElementById('id_club').value = arguments[0];", str(club.pk))
    browser.upload("#id_file", trf_file)
    walk.submit("#import-preview-button")
    preview = walk.run("return document.getElementById('import-preview').innerText;")
    assert "Hiver du club 2026: 10 players (0 new), 3 of 3 rounds, 15 results" in preview
    assert "Søren Østergård" in preview and "Jürgen Müller" in preview
    walk.shoot("import-preview", (1280,))
    walk.submit("#import-confirm")
    assert "Imported Hiver du club 2026" in walk.message()
    assert Rating.objects.filter(club=club, family="kazambi").count() == 10
    walk.step("Latin-1 TRF imported (10 players rated)")

    # -- the Swiss: 5 rounds, best of 3, FIDE tie-breaks ---------------------------------
    walk.open("/admin/tournaments/tournament/add/")
    walk.run("""
        function set(id, value) {
          var field = document.getElementById(id);
          field.value = value;
          field.dispatchEvent(new Event('change'));
        }
        set('id_club', arguments[0]); set('id_name', 'Spring Swiss 2026');
        set('id_game', 'kazambi'); set('id_format', 'swiss'); set('id_rounds_planned', '5');
        set('id_match_kind', 'best_of'); set('id_match_games', '3'); set('id_clock', '15+10');
    """, str(club.pk))
    tiebreaks = walk.run("return [1,2,3,4,5,6].map(function (i) {"
                         "return document.getElementById('id_tiebreak_' + i).value; });")
    assert tiebreaks[:2] == ["buchholz_cut1", "buchholz"]  # filled as the format was chosen
    walk.shoot("settings", (1280,))
    walk.submit("input[name=_save]")
    tournament = Tournament.objects.get(name="Spring Swiss 2026")
    assert tournament.tiebreaks == ["buchholz_cut1", "buchholz", "direct_encounter", "wins",
                                    "games_second_move"]
    assert tournament.match_format["kind"] == "best_of"
    dashboard = f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    assert walk.run("return location.pathname;") == dashboard
    walk.step("Swiss created")

    # -- everyone entered in one step; the seeds follow the club ratings ----------------
    entrants_page = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    walk.open(entrants_page)
    walk.run("var all = document.getElementById('candidate-all'); all.checked = true;"
             "all.dispatchEvent(new Event('change'));")
    walk.submit("#enter-chosen")
    assert "Entered 14" in walk.message()
    walk.open(dashboard)
    walk.submit("#next-action")  # Start
    ratings = dict(Rating.objects.filter(club=club, family="kazambi")
                   .values_list("player__display_name", "rating"))
    seeded = list(tournament.entrants.order_by("seed").values_list("player__display_name",
                                                                  "rating"))
    rated = sorted(ratings, key=lambda name: (-round(ratings[name]), name))
    assert [name for name, _ in seeded] == rated + sorted(NEWCOMERS)
    assert all(rating == round(ratings.get(name, 0)) for name, rating in seeded)
    walk.open(entrants_page)
    walk.shoot("entrants")
    walk.step("14 entered in one step, started (seeds by rating)")

    def play_round(number: int, while_running: Any = None) -> None:
        walk.open(dashboard)
        walk.submit("#next-action")  # Pair round N: a draft
        assert f"Round {number} is a draft" in walk.run(
            "return document.getElementById('next-step').innerText;")
        walk.submit("#next-action")  # Release round N
        if while_running is not None:
            while_running()
        walk.open(dashboard)
        assert f"Enter round {number} results" in walk.run(
            "return document.getElementById('next-step').innerText;")
        walk.submit("#next-action")  # the round's page
        typed = type_round(walk, number)
        message = save_round(walk)
        assert "Saved board" in message, message
        assert typed == Pairing.objects.filter(round__tournament=tournament,
                                               round__number=number,
                                               entrant_b__isnull=False).count()

    # -- round 1, then a late entrant for round 2 (half-point bye for round 1) -----------
    play_round(1)
    walk.shoot("round-1-saved")
    walk.step("round 1 typed")
    walk.open("/admin/players/player/add/")
    walk.run("document.getElementById('id_display_name').value = arguments[0];"
             "document.getElementById('id_club').value = arguments[1];", LATE, str(club.pk))
    walk.submit("input[name=_save]")
    walk.open(entrants_page)
    walk.run("document.querySelector('#candidates input').checked = true;"
             "document.querySelector('input[name=late_byes][value=half_point]').checked = true;")
    walk.submit("#enter-chosen")
    late = Entrant.objects.get(tournament=tournament, player__display_name=LATE)
    assert (late.joined_round, late.seed) == (2, 15)
    assert Pairing.objects.get(round__number=1, round__tournament=tournament,
                               entrant_a=late).bye_kind == "half_point"
    walk.step("late entrant for round 2")
    play_round(2)
    walk.step("round 2 typed")

    # -- round 3: another director saves a board meanwhile; the typed boards survive ----
    # -- round 3: a draft, unpaired and paired again, a board's first move swapped (the
    #    rules it breaks shown first), then released -------------------------------------
    walk.open(dashboard)
    walk.submit("#next-action")  # Pair round 3
    draft = tournament.rounds.get(number=3)
    public_round = f"/tournaments/{club.slug}/{tournament.slug}/rounds/3/"
    walk.open(f"/admin/tournaments/round/{draft.pk}/change/")
    assert walk.run("return !!document.getElementById('round-draft');")
    walk.shoot("round-3-draft")
    walk.submit("#unpair-round")
    assert "Round 3 is unpaired" in walk.message()
    assert not tournament.rounds.filter(number=3).exists()
    walk.submit("#next-action")  # Pair round 3 again
    round3 = tournament.rounds.get(number=3)
    walk.open(f"/admin/tournaments/round/{round3.pk}/change/")
    first_before = round3.pairings.get(board=1).entrant_a_id
    walk.run("document.getElementById('edit-pairings').open = true;")
    walk.submit("#edit-swap-first button")
    assert walk.run("return !!document.getElementById('confirm-edit');")
    walk.shoot("pairing-edit-confirm")
    walk.submit("#confirm-edit")
    assert "The pairings are changed" in walk.message()
    assert round3.pairings.get(board=1).entrant_b_id == first_before
    walk.open(public_round)  # the public page does not know the draft
    assert walk.run("var c = document.querySelector('.error-code');"
                    "return c ? c.innerText : '';") == "404"
    walk.open(f"/admin/tournaments/round/{round3.pk}/change/")
    walk.submit("#release-round")
    assert "Round 3 is released" in walk.message()
    walk.shoot("round-3-released")
    walk.step("round 3: draft, unpaired, paired again, first move swapped, released")
    typed = type_round(walk, 3)
    second = round3.pairings.get(board=2)
    mine = SCORES[(3 * 3 + 1) % len(SCORES)]
    club.organizers.add(accounts["bob"])  # a second director, in another browser
    match_result_record(actor=accounts["bob"], pairing=second, expected_version=1,
                        score=MatchScore(mine[1], mine[0]))  # bob saves the opposite
    message = save_round(walk)
    assert "Board 2: another director saved a result" in message, message
    assert f"Saved boards 1, {', '.join(str(b) for b in range(3, typed + 1))}." in message
    kept = walk.run("return [document.getElementById('id_pairings-1-wins_a').value,"
                    "document.getElementById('id_pairings-1-wins_b').value,"
                    "document.querySelector('.conflict-note').innerText];")
    assert [int(kept[0]), int(kept[1])] == list(mine)  # what was typed is still there
    assert kept[2].startswith("bob saved")
    walk.shoot("round-3-conflict")
    # the organizer checks with bob and keeps the typed result: Enter saves it again
    assert walk.run("return document.activeElement.id;") == "id_pairings-1-wins_a"
    assert "Saved board 2." in save_round(walk)
    second.refresh_from_db()
    assert (second.wins_a, second.wins_b) == mine
    walk.step("round 3 typed, a stale save survived")

    # -- a withdrawal after round 3 --------------------------------------------------------
    walk.open(entrants_page)
    withdrawn = tournament.entrants.get(seed=14)
    walk.run("var rows = document.querySelectorAll('#entrant-list tbody tr');"
             "for (var row of rows) { if (row.cells[1].innerText.trim() === arguments[0]) {"
             "window.__walk = 1; row.querySelector('button[value=withdraw]').click(); } }",
             withdrawn.name)
    wait_for(browser, "return !window.__walk && document.readyState === 'complete';")
    withdrawn.refresh_from_db()
    assert withdrawn.withdrawn_from_round == 4
    walk.step("a withdrawal from round 4")
    play_round(4, while_running=lambda: the_desk_while_round_4_runs(walk, tournament))
    walk.step("round 4 typed")

    # -- a correction of round 2 after round 4 ----------------------------------------------
    round2 = tournament.rounds.get(number=2)
    board = round2.pairings.filter(entrant_b__isnull=False).order_by("board").first()
    assert board is not None
    before = (board.wins_a, board.wins_b)
    walk.open(f"/admin/tournaments/round/{round2.pk}/change/")
    walk.run("var box = document.getElementById('id_pairings-0-wins_a');"
             "box.focus(); box.select();")
    walk.keys(str(before[1]))
    browser.press(TAB)
    walk.keys(str(before[0]))
    message = save_round(walk)
    assert "already followed by round 4" in message, message
    board.refresh_from_db()
    assert (board.wins_a, board.wins_b) == (before[1], before[0])
    walk.step("round 2 corrected after round 4")
    play_round(5)
    walk.step("round 5 typed")
    walk.open(dashboard)
    walk.submit("#next-action")  # Finish
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    walk.shoot("dashboard")
    walk.step("finished")

    # -- the same standings on the public page, in the CSV and in the exported TRF ---------
    walk.open(f"/tournaments/{club.slug}/{tournament.slug}/")
    public = walk.run("""
        var heads = [].map.call(document.querySelectorAll('table.standings thead th'),
                                function (th) { return th.innerText.trim(); });
        var rank = heads.indexOf('Rank'), name = heads.indexOf('Name'),
            score = heads.indexOf('Pts');
        function nameIn(cell) {  // the player's name, without the "withdrawn" note
          var link = cell.querySelector('a');
          return link ? link.innerText : cell.firstChild.textContent;
        }
        return [].map.call(document.querySelectorAll('table.standings tbody tr'),
          function (tr) { return [tr.cells[rank].innerText, nameIn(tr.cells[name]),
                                  tr.cells[score].innerText]; });""")
    walk.shoot("public-standings")
    csv_text = walk.run("return fetch(arguments[0]).then(function (r) { return r.text(); });",
                        f"/api/tournaments/{tournament.pk}/standings.csv")
    trf_text = walk.run("return fetch(arguments[0]).then(function (r) { return r.text(); });",
                        f"/api/tournaments/{tournament.pk}/export.trf")
    from_public = sorted((int(rank), name.strip(), points(score)) for rank, name, score in public)
    from_csv = sorted((int(row["rank"]), row["name"], float(row["points"]))
                      for row in csv.DictReader(io.StringIO(csv_text)))
    from_trf = sorted((int(p.rank or 0), p.name, float(p.points))
                      for p in read_trf(trf_text).players)
    assert len(from_public) == 15
    assert from_public == from_csv == from_trf
    walk.step("standings agree: public page, CSV, TRF")

    walk.open(f"/admin/tournaments/round/{tournament.rounds.get(number=5).pk}/change/")
    walk.shoot("round-5")
    summary = "\n".join(f"{seconds:6.1f} s  {name}" for name, seconds in walk.steps)
    (artifacts / "walkthrough-steps.txt").write_text(summary + "\n")
    print("\n" + summary)


def the_desk_while_round_4_runs(walk: Walk, tournament: Any) -> None:
    """Round 4 is released and nobody has played: swap two players between boards (the
    rules it breaks shown first), then the hall's lists as a player finds them (standings
    after round 2, the alphabetical list, a player's card, the wall chart), then the
    history read back in Russian."""
    round4 = tournament.rounds.get(number=4)
    board1, board2 = (round4.pairings.get(board=1), round4.pairings.get(board=2))
    moving, staying = board1.entrant_a, board2.entrant_a
    walk.open(f"/admin/tournaments/round/{round4.pk}/change/")
    walk.run("document.getElementById('edit-pairings').open = true;"
             "var form = document.getElementById('edit-swap-boards');"
             "form.querySelector('[name=entrant_1]').value = arguments[0];"
             "form.querySelector('[name=entrant_2]').value = arguments[1];",
             str(moving.pk), str(staying.pk))
    walk.submit("#edit-swap-boards button")
    assert walk.run("return !!document.getElementById('confirm-edit');")
    walk.shoot("round-4-swap-confirm")
    walk.submit("#confirm-edit")
    assert "The pairings are changed" in walk.message()
    board1, board2 = (round4.pairings.get(board=1), round4.pairings.get(board=2))
    assert moving.pk in (board2.entrant_a_id, board2.entrant_b_id)
    assert staying.pk in (board1.entrant_a_id, board1.entrant_b_id)
    walk.step("round 4: two players swapped between boards")

    public = f"/tournaments/{tournament.club.slug}/{tournament.slug}"
    walk.open(f"{public}/lists/standings/2/")
    heading = walk.run("return document.querySelector('main h2, h2').innerText;")
    assert "after round 2" in heading, heading
    rows = walk.run("return document.querySelectorAll('section.hall-list tbody tr').length;")
    assert rows == tournament.entrants.count()
    walk.shoot("standings-after-2")
    walk.open(f"{public}/lists/rounds/4/by-name/")
    listed = walk.run("return [].map.call(document.querySelectorAll('#by-name tbody tr'),"
                      " function (tr) { return [tr.cells[0].querySelector('a').innerText,"
                      " tr.cells[1].innerText.trim()]; });")
    names = [name for name, _ in listed]
    assert names == sorted(names, key=lambda name: "".join(
        c for c in unicodedata.normalize("NFKD", name.casefold())
        if not unicodedata.combining(c)))  # accents aside: Ömer among the O
    boards = dict(listed)
    assert boards[moving.name] == "2" and boards[staying.name] == "1"
    walk.shoot("round-4-by-name")
    walk.open(f"{public}/entrants/{moving.pk}/")
    card = walk.run("return document.body.innerText;")
    card_rounds = walk.run("return document.querySelectorAll('section.hall-list tbody tr')"
                           ".length;")
    assert moving.name in card and card_rounds >= 4, (card_rounds, card)
    walk.shoot("player-card")
    walk.open(f"{public}/lists/wall-chart/")
    chart_rows = walk.run("return document.querySelectorAll('section.hall-list tbody tr')"
                          ".length;")
    assert chart_rows == tournament.entrants.count()
    walk.shoot("wall-chart")
    walk.step("lists: standings after round 2, by name, a card, the wall chart")

    walk.run("document.cookie = 'django_language=ru; path=/';")
    walk.open(f"/admin/tournaments/tournament/{tournament.pk}/events/")
    history = walk.run("return document.body.innerText;")
    assert "Тур 4 опубликован." in history
    assert "Доски переставлены." in history and "Доска 1:" in history, history
    assert "Тур 3 опубликован." in history and "отменена" in history
    walk.shoot("history-ru")
    walk.run("document.cookie = 'django_language=en; path=/';")
    walk.step("the history read back in Russian")
