"""A league season walked through in a real headless Chromium (issue 36).

Four clubs with one 4-board team each, a double round robin of Kugamai best-of-3 (six
rounds). Rounds 1-5 and most of round 6 are built with the services (fast); in the browser
a person does what a person does: a captain submits a lineup on the private captain's page,
another captain's lineup after the deadline is refused there (the league manager then
accepts it late), the organizer enters one board's result in the admin, and the season
table and a team match are read on a phone (375 px) in English and Russian (screenshots in
the test's tmp dir). One reserve plays, one board is left empty (a board forfeit). The
season table equals the hand computation below; every board game is rated.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.league_world import LeagueWorld, build_league

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "league-walk-pw"

#: Each match's boards from the home team's side, by (home, away) club: "1" the home
#: player wins the board, "0" the away player does. Every board a best-of-3 series: the
#: winner 2-1 on odd boards, 2-0 on even boards.
BOARDS = {
    ("North", "East"): "1100", ("North", "South"): "1110", ("North", "West"): "1111",
    ("East", "North"): "0100", ("East", "South"): "1101", ("East", "West"): "1110",
    ("South", "North"): "0010", ("South", "East"): "1100", ("South", "West"): "1011",
    ("West", "North"): "0001", ("West", "East"): "0110", ("West", "South"): "1100",
}
#: East's reserve (East 5) plays board 4 against West at home; West leaves board 4 empty
#: at home against South (South wins that board by forfeit, as BOARDS says).
RESERVE_MATCH, EMPTY_MATCH = ("East", "West"), ("West", "South")

#: The season table worked out by hand from BOARDS (match points 2-1-0):
#:   North: D 2-2 E, W 3-1 S, W 4-0 W, W 3-1 at E, W 3-1 at S, W 3-1 at W
#:          MP 1+2+2+2+2+2 = 11, BP 2+3+4+3+3+3 = 18
#:   East:  D at N 2-2, L 1-3 N, W 3-1 S, W 3-1 W, D at S 2-2, D at W 2-2 -> MP 7, BP 13
#:   South: L 1-3, L 1-3, L 1-3, D 2-2 E, W 3-1 W, D at W 2-2 -> MP 4, BP 10
#:   West:  L 0-4, L 1-3, L 1-3, L 1-3, D 2-2 E, D 2-2 S -> MP 2, BP 7
#: Team Sonneborn-Berger: each match's board points times the opponent's match points:
#:   North 7*2 + 4*3 + 2*4 + 7*3 + 4*3 + 2*3 = 73;  East 11*2 + 11*1 + 4*3 + 2*3 + 4*2 + 2*2 = 63
#:   South 11*1 + 7*1 + 11*1 + 7*2 + 2*3 + 2*2 = 53; West 0 + 7*1 + 4*1 + 11*1 + 7*2 + 4*2 = 44
EXPECTED = {  # team: (rank, played, won, drawn, lost, match points, board points, TSB)
    "North Team": (1, 6, 5, 1, 0, "11", "18", "73"),
    "East Team": (2, 6, 2, 3, 1, "7", "13", "63"),
    "South Team": (3, 6, 1, 2, 3, "4", "10", "53"),
    "West Team": (4, 6, 0, 2, 4, "2", "7", "44"),
}


def club_of(season_team: Any) -> str:
    return str(season_team.team.name).split()[0]


def lineup_for(world: LeagueWorld, match: Any, season_team: Any) -> list[Any]:
    """The team's boards for ``match``: its four regulars in order, except East's reserve
    on board 4 against West and West's empty board 4 against South."""
    club = club_of(season_team)
    players = list(world.players[club][:4])
    pair = (club_of(match.home), club_of(match.away))
    if pair == RESERVE_MATCH and club == "East":
        players[3] = world.players["East"][4]
    if pair == EMPTY_MATCH and club == "West":
        players[3] = None
    return players


def record_board(organizer: Any, match: Any, board: Any) -> None:
    """The board's series as BOARDS says, through the one result writer."""
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    if board.pairing is None:
        return  # left empty: a board forfeit, no pairing
    home_wins = BOARDS[(club_of(match.home), club_of(match.away))][board.board - 1] == "1"
    pairing = board.pairing
    pairing.refresh_from_db()
    winner_first = home_wins == board.home_moves_first  # entrant A moves first in game 1
    loser_games = 1 if board.board % 2 else 0
    score = (MatchScore(2, loser_games) if winner_first else MatchScore(loser_games, 2))
    match_result_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                        score=score)


def submit_both(world: LeagueWorld, match: Any) -> None:
    from leagues import services

    for team in (match.home, match.away):
        services.lineup_submit(actor=world.organizer, match=match, team=team,
                               boards=lineup_for(world, match, team))


def wait_for(browser: Browser, script: str, *args: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = browser.run(script, *args)
        except Exception:  # the page is being replaced
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {script}")


def open_page(browser: Browser, url: str) -> None:
    browser.get(url)
    wait_for(browser, "return document.readyState === 'complete';")


@pytest.fixture
def season(transactional_db: Any, django_user_model: Any) -> dict[str, Any]:
    """The league with rounds 1-5 played through the services and round 6 scheduled."""
    from leagues import services
    from leagues.models import TeamMatch

    organizer = django_user_model.objects.create_user(
        "league_organizer", password=PASSWORD, is_staff=True)
    world = build_league(organizer)
    services.season_start(actor=organizer, season=world.season)
    matches = list(TeamMatch.objects.filter(division=world.division)
                   .select_related("home__team", "away__team").order_by("round_number", "pk"))
    assert len(matches) == 12 and {m.round_number for m in matches} == set(range(1, 7))
    for match in matches:
        if match.round_number == 6:
            continue
        submit_both(world, match)
        match.refresh_from_db()
        for board in match.boards.select_related("pairing").order_by("board"):
            record_board(organizer, match, board)
    return {"world": world, "round6": [m for m in matches if m.round_number == 6]}


def test_a_league_season_in_the_browser(browser: Browser, live_server: Any,
                                        season: dict[str, Any], tmp_path: Path) -> None:
    from django.db.models import Q

    from leagues import services
    from leagues.models import LeagueEvent, MatchBoard, TeamMatch
    from matches.models import Game
    from ratings.models import RatingChange

    world: LeagueWorld = season["world"]
    server = str(live_server.url)
    on_time, late = season["round6"]
    now = dt.datetime.now(dt.UTC)

    # 1. A captain submits the lineup of round 6 on the private page, before the deadline.
    services.match_schedule(actor=world.organizer, match=on_time,
                            starts_at=now + dt.timedelta(days=2), venue="North Club hall")
    _link, token = services.captain_link_issue(actor=world.organizer,
                                               season_team=on_time.home)
    browser.set_size(375, 800)
    open_page(browser, f"{server}/league/captain/{token}/")
    choose_lineup(browser, on_time, lineup_for(world, on_time, on_time.home))
    wait_for(browser, "return location.search.indexOf('sent=lineup') >= 0;")
    assert browser.run("return document.body.innerText;").count("✓") >= 1
    browser.screenshot(tmp_path / "captain-lineup-in.png")
    services.lineup_submit(actor=world.organizer, match=on_time, team=on_time.away,
                           boards=lineup_for(world, on_time, on_time.away))

    # 2. Another captain's lineup after the deadline: the page refuses it with the reason.
    services.match_schedule(actor=world.organizer, match=late,
                            starts_at=now + dt.timedelta(days=2),
                            lineup_deadline=now + dt.timedelta(hours=1))
    _link, token = services.captain_link_issue(actor=world.organizer, season_team=late.home)
    open_page(browser, f"{server}/league/captain/{token}/")
    assert browser.run(f"return !!document.getElementById('lineup-form-{late.pk}');")
    # the deadline passes while the captain fills the form in
    TeamMatch.objects.filter(pk=late.pk).update(lineup_deadline=now - dt.timedelta(minutes=1))
    choose_lineup(browser, late, lineup_for(world, late, late.home))
    error = wait_for(browser, "var e = document.getElementById(arguments[0]);"
                              "return e && e.innerText;", f"lineup-error-{late.pk}")
    assert "deadline" in error.lower()
    browser.screenshot(tmp_path / "captain-late-refused.png")
    assert not late.lineups.filter(team=late.home).exists()
    # the league manager accepts it late, logged
    lineup = services.lineup_submit(actor=world.organizer, match=late, team=late.home,
                                    boards=lineup_for(world, late, late.home))
    assert lineup.late
    assert LeagueEvent.objects.filter(kind="late_lineup_accepted").count() == 1
    services.lineup_submit(actor=world.organizer, match=late, team=late.away,
                           boards=lineup_for(world, late, late.away))

    # 3. Round 6's results: every board through the services but one, which the organizer
    # enters in the admin's round page.
    admin_board = (MatchBoard.objects.filter(match=late, pairing__isnull=False)
                   .select_related("pairing", "match__home__team", "match__away__team")
                   .order_by("board").first())
    assert admin_board is not None
    for match in (on_time, late):
        match.refresh_from_db()
        for board in match.boards.select_related("pairing").order_by("board"):
            if board.pk != admin_board.pk:
                record_board(world.organizer, match, board)
    enter_in_admin(browser, server, admin_board)
    entered = admin_board.pairing
    assert entered is not None
    entered.refresh_from_db()
    assert entered.outcome != "pending"

    # 4. The season table, read on the page, equals the hand computation.
    browser.set_size(1280, 900)
    season_url = f"{server}/leagues/{world.league.slug}/{world.season.number}/"
    open_page(browser, season_url)
    rows = browser.run(
        "return Array.from(document.querySelectorAll('table.league-table tbody tr'))"
        ".map(function (tr) { return Array.from(tr.querySelectorAll('th, td'))"
        ".map(function (c) { return c.innerText.trim(); }); });")
    table = {re.sub(r"\s+(promotion|relegation|promoted|relegated)$", "", row[1]): row
             for row in rows}
    assert set(table) == set(EXPECTED), rows
    header = browser.run(
        "return Array.from(document.querySelectorAll('table.league-table thead th'))"
        ".map(function (c) { return c.innerText.trim(); });")
    tsb = header.index("EMGSB")
    for team, (rank, played, won, drawn, lost, mp, bp, sb) in EXPECTED.items():
        row = table[team]
        assert [int(row[0]), int(row[2]), int(row[3]), int(row[4]), int(row[5])] \
            == [rank, played, won, drawn, lost], (team, row)
        assert (row[6], row[7], row[tsb]) == (mp, bp, sb), (team, row)
    assert browser.run("return document.querySelector('tr.zone-promotion th').innerText;") \
        .startswith("North Team")
    assert browser.run("return document.querySelector('tr.zone-relegation th').innerText;") \
        .startswith("West Team")

    # 5. Every board game is rated: two rating changes per game played over the board.
    world.division.refresh_from_db()
    assert world.division.tournament is not None
    games = Game.objects.filter(pairing__round__tournament=world.division.tournament)
    played = games.exclude(termination="forfeit").count()
    assert played == 12 * (3 + 2 + 3 + 2) - 2  # the empty board's two games never played
    assert RatingChange.objects.filter(game__in=games).count() == 2 * played
    reserve = world.players["East"][4]
    assert MatchBoard.objects.filter(
        Q(pairing__entrant_a__player=reserve) | Q(pairing__entrant_b__player=reserve),
        match__division=world.division).count() == 1  # East's reserve played once
    boards_played = MatchBoard.objects.filter(match__division=world.division,
                                              pairing__isnull=False).count()
    assert boards_played == 12 * 4 - 1  # West's empty board 4 against South: no pairing

    # 6. On a phone, in English then Russian: the table and the match with the forfeit.
    empty = TeamMatch.objects.get(division=world.division, home__team__name="West Team",
                                  away__team__name="South Team")
    match_url = f"{server}/leagues/{world.league.slug}/{world.season.number}/matches/{empty.pk}/"
    browser.set_size(375, 800)
    browser.console_errors()  # drained: the refused lineup's 400 and the admin's favicon
    for language in ("en", "ru"):
        if language == "ru":
            switch_to_russian(browser)
        for name, url in (("season", season_url), ("match", match_url)):
            open_page(browser, url)
            assert browser.run("return document.documentElement.lang;").startswith(language)
            assert browser.run("return document.documentElement.scrollWidth <= "
                               "window.innerWidth;"), (language, name)
            assert not browser.console_errors()
            browser.screenshot(tmp_path / f"league-{name}-{language}-375.png")
            browser.set_size(375, 800)
        text = browser.run("return document.body.innerText;")
        if language == "en":
            assert "empty board" in text and "forfeit" in text
        else:
            assert "пустая доска" in text and "неявка" in text
    board4 = browser.run("return document.querySelector('tr[data-board=\"4\"]').className;")
    assert board4 == "board-empty"


def choose_lineup(browser: Browser, match: Any, players: list[Any]) -> None:
    """Pick each board's player in the match's lineup form and send it."""
    browser.run(
        "var form = document.getElementById('lineup-form-' + arguments[0]);"
        "arguments[1].forEach(function (id, index) {"
        "  form.querySelector('select[name=\"board_' + (index + 1) + '\"]').value = id; });"
        "form.querySelector('button[type=submit]').click();",
        match.pk, [str(p.pk) if p is not None else "" for p in players])


def enter_in_admin(browser: Browser, server: str, board: Any) -> None:
    """The organizer logs in and types the board's series on the board round's page."""
    pairing = board.pairing
    page = f"/admin/tournaments/round/{pairing.round_id}/change/"
    browser.set_size(1280, 900)
    open_page(browser, f"{server}/admin/login/?next={page}")
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();",
                "league_organizer", PASSWORD)
    wait_for(browser, f"return location.pathname === '{page}' && "
                      "document.readyState === 'complete';")
    home_wins = BOARDS[(club_of(board.match.home), club_of(board.match.away))][board.board - 1] \
        == "1"
    winner_first = home_wins == board.home_moves_first
    loser_games = 1 if board.board % 2 else 0
    wins = (2, loser_games) if winner_first else (loser_games, 2)
    found = browser.run(
        "var target = String(arguments[0]);"
        "var ids = Array.from(document.querySelectorAll('input[name$=\"-id\"]'));"
        "var row = ids.find(function (i) { return i.value === target; });"
        "if (!row) { return ids.map(function (i) { return i.name + '=' + i.value; })"
        ".join(' ') + ' | ' + document.body.innerText.slice(0, 1500); }"
        "var prefix = row.name.slice(0, -3);"
        "document.querySelector('[name=\"' + prefix + '-wins_a\"]').value = arguments[1];"
        "document.querySelector('[name=\"' + prefix + '-wins_b\"]').value = arguments[2];"
        "row.form.requestSubmit(); return '';", pairing.pk, wins[0], wins[1])
    assert not found, found
    wait_for(browser, "var m = document.querySelector('.messagelist'); return m && m.innerText;")


def switch_to_russian(browser: Browser) -> None:
    browser.run("var b = document.querySelector('.language-switch button[value=\"ru\"]');"
                "b.click();")
    wait_for(browser, "return document.documentElement.lang === 'ru' && "
                      "document.readyState === 'complete';")

