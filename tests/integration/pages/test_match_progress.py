"""A match in progress shows its running game score ("1–1, game 3 playing") on the
tournament page's round table, in the bracket, in the live update and in the API's pairing
representation, all from the same words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from matches.services.games import game_entry_record
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.selectors import match_names

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _url(t: Tournament, part: str = "") -> str:
    return f"/tournaments/{t.club.slug}/{t.slug}/{part}"


def _enter(organizer: Any, pairing: Pairing, *results: str) -> Pairing:
    for result in results:
        pairing.refresh_from_db()
        game_entry_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                          result=result)
    pairing.refresh_from_db()
    return pairing


def _first_board(tournament: Tournament, organizer: Any) -> Pairing:
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    board = round_.pairings.exclude(entrant_b=None).order_by("board").first()
    assert board is not None
    return board


def test_running_score_on_the_page_in_the_bracket_and_in_the_api(
        client: Client, make_tournament: Callable[..., Any], organizer: Any) -> None:
    cup = make_tournament("knockout", entrants=4, match_format={"kind": "best_of", "games": 5})
    board = _first_board(cup, organizer)
    page = client.get(_url(cup)).content.decode()
    assert '<small class="progress-note">playing</small>' in page
    tag = client.get(_url(cup, "results/"))["ETag"]

    board = _enter(organizer, board, "a", "b")
    assert board.outcome == "pending"
    # the live update: the part the open page polls is new, with the running score
    part = client.get(_url(cup, "results/"), HTTP_IF_NONE_MATCH=tag)
    assert part.status_code == 200
    html = part.content.decode()
    assert '1–1<small class="progress-note">game 3 playing</small>' in html
    # the bracket: games won so far in the boxes, the game being played by the match name
    match = board.bracket_match
    drawing = re.search(rf'<g class="match" data-match="{match}">(.*?)</g>', html, re.S)
    assert drawing is not None
    box = drawing.group(1)
    assert f"{match_names(cup)[match]} · game 3 playing" in box  # "Semi-final 1"
    assert re.findall(r'class="slot plain score"[^>]*>(\d)</text>', box) == ["1", "1"]
    assert re.search(r'class="match-box \w+ live"', box)
    # the whole page says the same
    assert '1–1<small class="progress-note">game 3 playing</small>' in \
        client.get(_url(cup)).content.decode()
    # the API's pairing representation
    answer = client.get(f"/api/pairings/{board.pk}/").json()
    assert answer["progress"] == {"wins_a": 1, "wins_b": 1, "draws": 0, "games": 2,
                                  "next_game": 3, "text": "1–1, game 3 playing"}
    listed = client.get("/api/pairings/", {"round": board.round_id}).json()["results"]
    assert {row["id"]: row["progress"] is not None for row in listed}[board.pk]

    board = _enter(organizer, board, "a", "a")  # 3–1: decided
    assert board.outcome == "a_wins"
    assert client.get(f"/api/pairings/{board.pk}/").json()["progress"] is None
    html = client.get(_url(cup, "results/")).content.decode()
    assert "game 3 playing" not in html and "game 5 playing" not in html


def test_a_level_knockout_match_waits_for_its_tie_break(
        client: Client, make_tournament: Callable[..., Any], organizer: Any) -> None:
    cup = make_tournament("knockout", entrants=4, match_format={"kind": "fixed", "games": 2})
    board = _enter(organizer, _first_board(cup, organizer), "a", "b")
    assert board.outcome == "pending"
    html = client.get(_url(cup)).content.decode()
    assert '1–1<small class="progress-note">level: tie-break to come</small>' in html
    assert f"{match_names(cup)[board.bracket_match]} · tie-break to come" in html
    assert client.get(f"/api/pairings/{board.pk}/").json()["progress"]["text"] == \
        "1–1, level: tie-break to come"


def test_a_swiss_board_in_progress(client: Client, make_tournament: Callable[..., Any],
                                   organizer: Any) -> None:
    swiss = make_tournament("swiss", entrants=4, rounds_planned=3, tiebreaks=[],
                            match_format={"kind": "first_to", "games": 2})
    _enter(organizer, _first_board(swiss, organizer), "draw", "b")
    html = client.get(_url(swiss)).content.decode()
    assert '0–1 (1 drawn)<small class="progress-note">game 3 playing</small>' in html
