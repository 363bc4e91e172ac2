"""Query budgets of the organizer's main writes (pair a round, enter a result) and of the
admin's round pages: each is measured on a small and on a larger tournament, must take the
same number of queries on both, and stays within its budget."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.series import MatchScore
from matches.services import match_result_record
from tournaments import services

pytestmark = pytest.mark.django_db

SIZES = (8, 16)
# The counts of today (a new query on these paths is a choice: raise the budget with it).
# +1: the history line; +1: an open check-in window stops the pairing (playerlinks); +1:
# players' reports in conflict stop it (reporting)
PAIR_BUDGET = {"round_robin": 14, "swiss": 16, "knockout": 14}
RESULT_BUDGET = 41
# Whether the user organizes a club is read once per request (players.permissions), not
# once per model the admin lists: the dashboard went from 65 queries to 15.
# +1 on the round: whether it has players' reports
PAGE_BUDGET = {"dashboard": 15, "round results": 32}


def _second_round_ready(make_tournament: Any, play_round: Any, format: str, size: int) -> Any:
    fields = {"rounds_planned": 3} if format == "swiss" else {}
    tournament = make_tournament(format, entrants=size, match_format="single", **fields)
    play_round(tournament)
    return tournament


@pytest.mark.parametrize("format", ["round_robin", "swiss", "knockout"])
def test_pairing_a_round(make_tournament: Any, play_round: Any, organizer: Any,
                         format: str) -> None:
    counts = []
    for size in SIZES:
        tournament = _second_round_ready(make_tournament, play_round, format, size)
        with CaptureQueriesContext(connection) as captured:
            services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert counts[0] <= PAIR_BUDGET[format]


def test_entering_a_result(make_tournament: Any, play_round: Any, organizer: Any) -> None:
    counts = []
    for size in SIZES:
        tournament = _second_round_ready(make_tournament, play_round, "swiss", size)
        board = services.round_pair_next(actor=organizer, tournament=tournament, release=True) \
            .pairings.filter(outcome="pending").order_by("board").last()
        assert board is not None
        with CaptureQueriesContext(connection) as captured:
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                score=MatchScore(1, 0))
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert counts[0] <= RESULT_BUDGET


@pytest.mark.parametrize("page", [
    "dashboard",
    "round results",
])
def test_an_admin_round_page(client: Client, make_tournament: Any, play_round: Any,
                             organizer: Any, page: str) -> None:
    client.force_login(organizer)
    counts = []
    for size in SIZES:
        tournament = _second_round_ready(make_tournament, play_round, "swiss", size)
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        url = {"dashboard": reverse("admin:tournaments_tournament_dashboard",
                                    args=[tournament.pk]),
               "round results": reverse("admin:tournaments_round_change",
                                        args=[round_.pk])}[page]
        client.get(url)  # what a process reads once (content types, the session) aside
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200, url
        counts.append(len(captured))
    assert counts[0] == counts[1]
    assert counts[0] <= PAGE_BUDGET[page]
