"""Only ASCII digits are ids. Python's ``int()`` reads any Unicode decimal digit, so
before this ``?club=٣`` (Arabic-Indic three) filtered by club 3 and ``/api/players/٣/``
answered player 3: the same object under many URLs, and filters no documentation
describes. Now a non-ASCII id in a path is a 404 and in a query parameter a 400 naming it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from players.models import Club, Player

pytestmark = pytest.mark.django_db

THREE = "\u0663"  # ARABIC-INDIC DIGIT THREE


@pytest.fixture
def ann(club_a: Club) -> Player:
    return Player.objects.create(display_name="Ann", club=club_a)


def _arabic(number: int | None) -> str:
    return "".join(chr(0x0660 + int(digit)) for digit in str(number))


@pytest.mark.parametrize("path", [
    "/api/players/{player}/", "/api/clubs/{club}/", "/api/players/{player}/rating-history/",
    "/api/teams/{player}/", "/api/tournaments/{player}/", "/api/games/{player}/",
])
def test_a_non_ascii_id_in_a_path_is_a_404(ann: Player, path: str) -> None:
    client = Client()
    answer = client.get(path.format(player=_arabic(ann.pk), club=_arabic(ann.club_id)))
    assert answer.status_code == 404, answer.content
    assert client.get(path.format(player=ann.pk, club=ann.club_id)).status_code in (200, 404)


@pytest.mark.parametrize(("path", "name"), [
    ("/api/players/?club={club}", "club"),
    ("/api/tournaments/?club={club}", "club"),
    ("/api/teams/?club={club}", "club"),
    ("/api/ratings/?club={club}", "club"),
    ("/api/ratings/?player={player}", "player"),
    ("/api/rounds/?tournament={club}", "tournament"),
    ("/api/pairings/?round={club}", "round"),
    ("/api/bot-runs/?tournament={club}", "tournament"),
    ("/api/games/?player={player}", "player"),
])
def test_a_non_ascii_id_in_a_filter_is_a_400(ann: Player, path: str, name: str) -> None:
    answer = Client().get(path.format(club=_arabic(ann.club_id), player=_arabic(ann.pk)))
    assert answer.status_code == 400, answer.content
    assert name in answer.json()["errors"]


def test_ascii_ids_still_filter(ann: Player, club_b: Club) -> None:
    Player.objects.create(display_name="Bea", club=club_b)
    answer = Client().get(f"/api/players/?club={ann.club_id}")
    assert [row["display_name"] for row in answer.json()["results"]] == ["Ann"]


def test_the_list_cache_does_not_keep_a_refused_filter(ann: Player) -> None:
    client: Any = Client()
    for _ in range(2):
        assert client.get(f"/api/players/?club={THREE}").status_code == 400


@pytest.mark.parametrize("path", ["/admin/players/player/{player}/change/",
                                  "/admin/players/club/{club}/change/",
                                  "/admin/players/player/{player}/history/"])
def test_a_non_ascii_id_in_an_admin_path_names_no_object(ann: Player, club_a: Club,
                                                         path: str) -> None:
    client = Client()
    client.force_login(club_a.organizers.get())
    assert client.get(path.format(player=ann.pk, club=ann.club_id)).status_code == 200
    answer = client.get(path.format(player=_arabic(ann.pk), club=_arabic(ann.club_id)))
    assert answer.status_code in (302, 404)
    assert "Ann" not in answer.content.decode()
