"""Names made only of invisible characters, refused everywhere by one rule
(``games/names.py``): the TRF reader used it alone.

Before: the API and the admin accepted a player, team, club or tournament named
``"\\u200b\\u200d"`` (zero-width space and joiner), a right-to-left override alone or a
Hangul filler: a row that shows as nothing in every list and page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from players.models import Club, Player, Team
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

INVISIBLE = ["\u200b\u200d", "\u202e", " \u2060 \ufeff", "\u3164", "\u00ad\u200e", "\u2800"]


@pytest.fixture
def alice(club_a: Club) -> Any:
    return club_a.organizers.get()


@pytest.fixture
def alice_api(api: Any, alice: Any) -> Any:
    api.force_authenticate(alice)
    return api


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_api_refuses_an_invisible_player_name(alice_api: Any, club_a: Club,
                                                  name: str) -> None:
    answer = alice_api.post("/api/players/", {"display_name": name, "club": club_a.pk},
                            format="json")
    assert answer.status_code == 400, answer.content
    assert "invisible" in str(answer.json()["errors"]["display_name"])
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_api_refuses_invisible_team_tournament_and_club_names(
        alice_api: Any, club_a: Club, name: str) -> None:
    answer = alice_api.post("/api/teams/", {"name": name, "club": club_a.pk}, format="json")
    assert answer.status_code == 400, answer.content
    assert "name" in answer.json()["errors"]
    answer = alice_api.post("/api/tournaments/", {
        "club": club_a.pk, "name": name, "game": "kugamai", "format": "round_robin"},
        format="json")
    assert answer.status_code == 400, answer.content
    assert "name" in answer.json()["errors"]
    answer = alice_api.patch(f"/api/clubs/{club_a.pk}/", {"name": name}, format="json")
    assert answer.status_code == 400, answer.content
    assert "name" in answer.json()["errors"]
    assert not Team.objects.exists() and not Tournament.objects.exists()
    assert Club.objects.get(pk=club_a.pk).name == "Alpha Club"


def test_a_control_character_in_a_name_is_refused(alice_api: Any, club_a: Club) -> None:
    answer = alice_api.post("/api/players/", {"display_name": "Ann\x07", "club": club_a.pk},
                            format="json")
    assert answer.status_code == 400, answer.content
    assert "display_name" in answer.json()["errors"]


def test_visible_names_with_joiners_still_pass(alice_api: Any, club_a: Club) -> None:
    for name in ["Zoë", "\u0645\u200c\u0627", "Ann\u00a0Lee", "王"]:
        answer = alice_api.post("/api/players/", {"display_name": name, "club": club_a.pk},
                                format="json")
        assert answer.status_code == 201, (name, answer.content)


def test_the_admin_refuses_an_invisible_player_name(alice: Any, club_a: Club) -> None:
    client = Client()
    client.force_login(alice)
    answer = client.post("/admin/players/player/add/",
                         {"display_name": "\u200b\u200d", "club": club_a.pk, "fide_id": "",
                          "bot_settings": "{}"})
    assert answer.status_code == 200
    assert "invisible" in answer.content.decode()
    assert not Player.objects.exists()


def test_the_admin_refuses_an_invisible_tournament_name(alice: Any, club_a: Club) -> None:
    client = Client()
    client.force_login(alice)
    answer = client.post("/admin/tournaments/tournament/add/", {
        "club": club_a.pk, "name": "\u2060\u200b", "game": "kugamai", "format": "round_robin",
        "match_kind": "single", "match_games": 1, "points_win": "1", "points_draw": "0.5",
        "points_loss": "0", "points_bye": "1"})
    assert answer.status_code == 200
    assert "invisible" in answer.content.decode()
    assert not Tournament.objects.exists()
