"""The admin calls the services: result entry in the round page, actions on tournaments."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Pairing, ResultChange

pytestmark = pytest.mark.django_db


def _round_post(round_: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "clock": "", "time_slot_minutes": "",
        "pairings-TOTAL_FORMS": len(rows), "pairings-INITIAL_FORMS": len(rows),
        "pairings-MIN_NUM_FORMS": 0, "pairings-MAX_NUM_FORMS": 1000,
    }
    for index, row in enumerate(rows):
        for key, value in row.items():
            data[f"pairings-{index}-{key}"] = value
        data[f"pairings-{index}-round"] = round_.pk
    return data


def test_director_types_scores_in_the_round_page(admin_user: Any, make_tournament: Any,
                                                 organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4, match_format="ft2")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    first, second = round_.pairings.order_by("board")
    client = Client()
    client.force_login(admin_user)
    url = f"/admin/tournaments/round/{round_.pk}/change/"
    assert client.get(url).status_code == 200
    rows = [
        {"id": first.pk, "wins_a": 2, "wins_b": 1, "draws": 0, "outcome": "pending",
         "version": 1},
        {"id": second.pk, "wins_a": 0, "wins_b": 0, "draws": 0, "outcome": "b_forfeit_win",
         "version": 1},
    ]
    response = client.post(url, _round_post(round_, rows), follow=True)
    assert response.status_code == 200
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.outcome, first.wins_a, first.wins_b, first.version) == ("a_wins", 2, 1, 2)
    assert (second.outcome, second.version) == ("b_forfeit_win", 2)
    assert ResultChange.objects.count() == 2
    # a stale form (version 1) does not overwrite the newer result
    rows[0].update(wins_a=0, wins_b=2)
    response = client.post(url, _round_post(round_, rows[:1] + []), follow=True)
    assert "another director saved a result since you loaded the page" in \
        response.content.decode()
    assert Pairing.objects.get(pk=first.pk).outcome == "a_wins"


def test_admin_action_pairs_next_round(admin_user: Any, make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    client = Client()
    client.force_login(admin_user)
    response = client.post("/admin/tournaments/tournament/", {
        "action": "pair_next_round", "_selected_action": [tournament.pk]}, follow=True)
    assert response.status_code == 200
    assert tournament.rounds.count() == 1
    client.post("/admin/tournaments/tournament/", {
        "action": "pair_next_round", "_selected_action": [tournament.pk]}, follow=True)
    assert tournament.rounds.count() == 1


def test_admin_pages_render(admin_user: Any, make_tournament: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    client = Client()
    client.force_login(admin_user)
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    for url in ("/admin/tournaments/tournament/", change, "/admin/tournaments/tournament/add/",
                "/admin/tournaments/pairing/", "/admin/tournaments/resultchange/",
                "/admin/tournaments/round/"):
        assert client.get(url).status_code == 200, url
