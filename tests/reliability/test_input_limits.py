"""Bad input at the API edge gets a clear 4xx and changes nothing (issue 15): an oversized
body, NUL characters, numbers no field can hold, digits that are not ASCII."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from players.models import Club, Player

pytestmark = pytest.mark.django_db


def post_json(client: Client, path: str, body: str, **extra: Any) -> Any:
    return client.post(path, body, content_type="application/json", **extra)


@pytest.fixture
def organizer_client(club_a: Club) -> Client:
    client = Client()
    client.force_login(club_a.organizers.get())
    return client


def test_an_oversized_body_gets_a_json_413_before_anything_else(settings: Any) -> None:
    settings.API_MAX_BODY_BYTES = 10_000
    answer = post_json(Client(), "/api/players/",
                       json.dumps({"display_name": "x" * 20_000}))
    assert answer.status_code == 413
    assert answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["code"] == "too_large" and "10000 bytes" in body["detail"]
    assert not Player.objects.exists()


def test_a_body_within_the_limit_goes_through(organizer_client: Client, club_a: Club) -> None:
    answer = post_json(organizer_client, "/api/players/",
                       json.dumps({"display_name": "Ann", "club": club_a.pk}))
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize(("body", "field"), [
    ({"display_name": "x", "bot_settings": {"depth": "a\u0000b"}}, "bot_settings.depth"),
    ({"display_name": "x", "bot_settings": {"a\u0000": 1}}, "bot_settings"),
    ({"display_name": "x", "bot_settings": {"list": ["ok", "\u0000"]}}, "bot_settings.list.1"),
    ({"display_name": "a\u0000b"}, "display_name"),
])
def test_nul_anywhere_in_a_json_body_is_a_400_naming_the_field(
    organizer_client: Client, club_a: Club, body: dict[str, Any], field: str
) -> None:
    body["club"] = club_a.pk
    answer = post_json(organizer_client, "/api/players/", json.dumps(body))
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"], answer.json()
    assert not Player.objects.exists()


def test_nul_in_a_query_parameter_is_a_400(client: Client) -> None:
    answer = client.get("/api/players/", {"search": "a\u0000"})
    assert answer.status_code == 400
    assert "search" in answer.json()["errors"]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "1e308", "1.5"])
def test_numbers_no_id_can_hold_are_a_400(organizer_client: Client, number: str) -> None:
    answer = post_json(organizer_client, "/api/players/",
                       '{"display_name": "x", "club": NUMBER}'.replace("NUMBER", number))
    assert answer.status_code == 400, answer.content
    assert "club" in answer.json()["errors"]
    assert not Player.objects.exists()


@pytest.mark.parametrize("path", [
    "/api/ratings/leaderboard/?family=kugamai&club=%C2%B2",  # ²: isdigit() true, int() fails
    "/api/players/{player}/rating-history/?club=%C2%B2",
    "/api/ratings/leaderboard/?family=kugamai&club=%D9%A3",  # Arabic-Indic three
])
def test_digits_that_are_not_ascii_are_a_400(client: Client, club_a: Club, path: str) -> None:
    player = Player.objects.create(display_name="Ann", club=club_a)
    answer = client.get(path.format(player=player.pk))
    assert answer.status_code == 400, answer.content
    assert "club" in answer.json()["errors"]


@pytest.mark.parametrize("minutes", ["1e308", "1e400", "inf", "nan", "100000"])
def test_clock_advice_refuses_a_slot_no_round_has(client: Client, minutes: str) -> None:
    answer = client.get("/api/clock-advice/", {"game": "kugamai", "slot_minutes": minutes})
    assert answer.status_code == 400, answer.content
    assert "slot_minutes" in answer.json()["errors"]


def test_clock_advice_still_answers_a_long_slot(client: Client) -> None:
    answer = client.get("/api/clock-advice/", {"game": "kugamai", "slot_minutes": "600"})
    assert answer.status_code == 200, answer.content
