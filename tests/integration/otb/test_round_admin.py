"""The round page: keyboard-fast entry, atomic saves, stale refusal, corrections, sheets,
clock advice; the pairing page: games, change log, game entry with records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from matches.models import Game
from tests.integration.otb.conftest import boards
from tests.integration.otb.test_match_entry import played_record
from tournaments.models import Outcome, Pairing, ResultChange
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


def round_post(round_: Any, rows: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "clock": "", "time_slot_minutes": "",
        "pairings-TOTAL_FORMS": len(rows), "pairings-INITIAL_FORMS": len(rows),
        "pairings-MIN_NUM_FORMS": 0, "pairings-MAX_NUM_FORMS": 1000, **fields,
    }
    for index, row in enumerate(rows):
        for key, value in row.items():
            data[f"pairings-{index}-{key}"] = value
        data[f"pairings-{index}-round"] = round_.pk
    return data


def row(pairing: Any, a: int = 0, b: int = 0, draws: int = 0, outcome: str = "pending",
        version: int | None = None) -> dict[str, Any]:
    return {"id": pairing.pk, "wins_a": a, "wins_b": b, "draws": draws, "outcome": outcome,
            "version": pairing.version if version is None else version}


def login(user: Any) -> Client:
    """An admin session: organizers get staff status (the admin's own requirement)."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(user)
    return client


def url_of(round_: Any) -> str:
    return f"/admin/tournaments/round/{round_.pk}/change/"


def test_round_page_is_keyboard_ready(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo3", entrants=6, clock="15+10")
    page = login(organizer).get(url_of(round_)).content.decode()
    assert page.count('class="vIntegerField result-input"') == 9  # 3 boards x 3 scores
    assert "select.result-outcome" in page and "first.focus()" in page
    assert page.index("pairings-0-wins_a") < page.index("pairings-0-wins_b") \
        < page.index("pairings-1-wins_a")
    assert 'name="_save"' in page
    assert f"/admin/tournaments/round/{round_.pk}/sheet/" in page
    assert "plays <strong>15+10</strong>" in page


def test_round_save_creates_games_and_reports(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo3", entrants=4)
    one, two = boards(round_)
    response = login(organizer).post(url_of(round_), round_post(round_, [
        row(one, 2, 1), row(two, outcome="a_forfeit_win")]), follow=True)
    assert "Saved boards 1, 2." in response.content.decode()
    assert [g.winner_side for g in Game.objects.filter(pairing=one)] == [1, 0, 0]
    assert not Game.objects.filter(pairing=two).exists()
    one.refresh_from_db()
    assert (one.outcome, one.version) == (Outcome.A_WINS, 2)


def test_one_bad_board_saves_nothing_and_names_board_and_field(paired: Any,
                                                              organizer: Any) -> None:
    round_ = paired(match_format="bo3", entrants=6)
    one, two, three = boards(round_)
    response = login(organizer).post(url_of(round_), round_post(round_, [
        row(one, 2, 0), row(two, 3, 0), row(three, 0, 2)]))
    page = response.content.decode()
    assert response.status_code == 200  # the page comes back with the errors
    assert "Board 2, score:" in page and "stops at 2 wins" in page
    assert "Nothing was saved: fix board 2 and save again." in page
    assert not Game.objects.exists() and not ResultChange.objects.exists()
    assert set(Pairing.objects.filter(round=round_).values_list("version", flat=True)) == {1}


def test_stale_save_keeps_typed_boards_and_saves_the_rest(paired: Any, organizer: Any,
                                                          club_a: Any, make_user: Any) -> None:
    round_ = paired(match_format="bo3", entrants=6)
    one, two, three = boards(round_)
    bob = make_user("bob_director")
    club_a.organizers.add(bob)
    login(bob).post(url_of(round_), round_post(round_, [row(one, 2, 0)]))
    client = login(organizer)
    # the organizer loaded the page before bob saved: every version is 1
    response = client.post(url_of(round_), round_post(round_, [
        row(one, 0, 2, version=1), row(two, 2, 1, version=1), row(three, 1, 2, version=1)]),
        follow=True)
    page = response.content.decode()
    assert "Board 1: another director saved a result since you loaded the page" in page
    assert "Saved boards 2, 3." in page
    assert "bob_director saved A wins 2-0 (version 2) at" in page  # beside board 1
    # the typed entry is kept in board 1's boxes, with the version it must now replace
    assert 'name="pairings-0-wins_a" value="0"' in page
    assert 'name="pairings-0-wins_b" value="2"' in page
    assert 'name="pairings-0-version" value="2"' in page
    assert [g.winner_side for g in Game.objects.filter(pairing=one)] == [0, 0]
    two.refresh_from_db()
    three.refresh_from_db()
    assert (two.outcome, three.outcome) == (Outcome.A_WINS, Outcome.B_WINS)
    # saving again replaces bob's result deliberately; a reload shows the saved values
    response = client.post(url_of(round_), round_post(round_, [
        row(one, 0, 2, version=2), row(two, 2, 1, 0, "a_wins"), row(three, 1, 2, 0, "b_wins")]),
        follow=True)
    assert "Saved board 1." in response.content.decode()
    one.refresh_from_db()
    assert (one.outcome, one.wins_b, one.version) == (Outcome.B_WINS, 2, 3)
    assert 'class="conflict-note"' not in client.get(url_of(round_)).content.decode()


def test_stale_board_with_an_invalid_one_saves_nothing_but_keeps_both(
        paired: Any, organizer: Any, club_a: Any, make_user: Any) -> None:
    round_ = paired(match_format="bo3", entrants=6)
    one, two, _ = boards(round_)
    bob = make_user("bob_director")
    club_a.organizers.add(bob)
    login(bob).post(url_of(round_), round_post(round_, [row(one, 2, 0)]))
    response = login(organizer).post(url_of(round_), round_post(round_, [
        row(one, 0, 2, version=1), row(two, 3, 0, version=1)]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was saved: fix board 2 and save again." in page
    assert "bob_director saved A wins 2-0" in page
    assert 'name="pairings-0-version" value="2"' in page  # the next save goes through
    assert 'name="pairings-1-wins_a" value="3"' in page
    two.refresh_from_db()
    assert two.outcome == Outcome.PENDING


def test_correction_after_later_round_shows_warning(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="single")
    one, two = boards(round_)
    client = login(organizer)
    client.post(url_of(round_), round_post(round_, [row(one, 1, 0), row(two, 0, 1)]))
    round_pair_next(actor=organizer, tournament=round_.tournament, release=True)
    one.refresh_from_db()
    response = client.post(url_of(round_), round_post(round_, [row(one, 0, 0, 1, "a_wins")]),
                           follow=True)
    page = response.content.decode()
    assert "already followed by round 2" in page
    one.refresh_from_db()
    assert one.outcome == Outcome.DRAW
    # the change log shows on the pairing's page: who, before and after
    log = client.get(f"/admin/tournaments/pairing/{one.pk}/change/").content.decode()
    assert "change log" in log.lower()
    assert "no result → 1-0" in log and "1-0 → 0-0 (1 drawn)" in log  # in words
    assert organizer.username in log


def test_round_clock_is_validated_and_advice_shown(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo5")
    client = login(organizer)
    page = client.post(url_of(round_), round_post(round_, [], clock="15 x3",
                                                  time_slot_minutes=120)).content.decode()
    assert "cannot read clock setting" in page
    round_.refresh_from_db()
    assert round_.clock == ""
    client.post(url_of(round_), round_post(round_, [], clock=" 10+5 ", time_slot_minutes=120))
    round_.refresh_from_db()
    assert (round_.clock, round_.time_slot_minutes) == ("10+5", 120)
    page = client.get(url_of(round_)).content.decode()
    assert 'class="clock-advice-setting"' in page
    assert "The match (best of 5) can run to 5 games." in page


def test_tournament_clock_is_validated_in_the_admin(make_event: Any, organizer: Any) -> None:
    tournament = make_event(start=False)
    client = login(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    data = {"club": tournament.club_id, "name": tournament.name, "game": tournament.game,
            "format": tournament.format, "match_kind": "single", "match_games": "1",
            "points_win": "1", "points_draw": "0.5", "points_loss": "0", "points_bye": "1",
            "clock": "fast", "rounds_planned": "", "rated": "on", "grand_final_reset": "on"}
    page = client.post(url, data).content.decode()
    assert "cannot read clock setting" in page


def test_sheets_render(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="ft3/9", entrants=5, clock="20 d5")
    client = login(organizer)
    sheet = client.get(f"/admin/tournaments/round/{round_.pk}/sheet/").content.decode()
    first = boards(round_)[0]
    assert "@media print" in sheet
    assert first.entrant_a.name in sheet and "Low doubles in game 1" in sheet
    assert "20 d5 (20 minutes + 5 s simple delay per move)" in sheet
    assert "first to 3 wins" in sheet and "Pairing-allocated bye" in sheet
    slips = client.get(f"/admin/tournaments/round/{round_.pk}/slips/").content.decode()
    assert slips.count('class="slip"') == 2
    assert slips.count('<td class="box"></td>') == 2 * 2 * 10  # 9 games + match, 2 rows
    assert "Signature A" in slips and "Arbiter" in slips


def test_pairing_page_adds_games_with_records(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="fixed2")
    pairing = boards(round_)[0]
    client = login(organizer)
    url = f"/admin/tournaments/pairing/{pairing.pk}/add-game/"
    assert "Add a game" in client.get(
        f"/admin/tournaments/pairing/{pairing.pk}/change/").content.decode()
    record = played_record(0)
    response = client.post(url, {"version": 1, "result": "", "termination": "normal",
                                 "record": json.dumps(record)}, follow=True)
    assert "Game 1 saved" in response.content.decode()
    bad = played_record(1)
    bad["moves"][2] = "0-0"
    page = client.post(url, {"version": 2, "result": "", "termination": "normal",
                             "record": json.dumps(bad)}).content.decode()
    assert "Board 1: Game 2 record: move 3, 0-0" in page
    page = client.post(url, {"version": 2, "termination": "normal",
                             "record": "{not json"}).content.decode()
    assert "not valid JSON" in page
    assert Game.objects.filter(pairing=pairing).count() == 1
    client.post(url, {"version": 2, "result": "b", "termination": "time_forfeit"})
    pairing.refresh_from_db()
    games = list(Game.objects.filter(pairing=pairing))
    assert [g.termination for g in games] == ["normal", "time_forfeit"]
    assert pairing.outcome != Outcome.PENDING


def test_other_clubs_organizer_gets_403(paired: Any, club_b: Any) -> None:
    round_ = paired(match_format="bo3")
    one, _ = boards(round_)
    client = login(club_b.organizers.get())
    assert client.post(url_of(round_), round_post(round_, [row(one, 2, 0)])).status_code == 403
    # organizers of any club may read (as everywhere in the admin), not write
    assert client.get(f"/admin/tournaments/round/{round_.pk}/sheet/").status_code == 200
    assert client.post(f"/admin/tournaments/pairing/{one.pk}/add-game/",
                       {"version": 1, "result": "a", "termination": "normal"}
                       ).status_code == 403
    assert not Game.objects.exists()
    one.refresh_from_db()
    assert one.version == 1
