from __future__ import annotations

from typing import Any

import pytest

from ratings import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(record_game: Any, players: Any) -> Any:
    ann, ben = players(2)
    (bot,) = players(1, is_bot=True, bot_kind="random")
    services.rating_apply_game(record_game(ann, ben, 0, day=0))
    services.rating_apply_game(record_game(bot, ann, 1, day=1))
    services.rating_apply_game(record_game(ann, ben, None, day=2, game="stolbiki"))
    return ann, ben, bot


def test_ratings_list_and_filters(api: Any, rated: Any, club_a: Any) -> None:
    ann, ben, bot = rated
    everything = api.get("/api/ratings/").json()
    assert everything["count"] == 5
    kugamai = api.get("/api/ratings/", {"club": club_a.pk, "family": "kugamai"}).json()
    row = next(r for r in kugamai["results"] if r["player"] == ann.pk)
    assert set(row) == {
        "id", "player", "player_name", "is_bot", "club", "club_slug", "family", "system",
        "rating", "rd", "volatility", "games", "last_played_at", "provisional",
    }
    assert (row["games"], row["system"], row["provisional"]) == (2, "glicko2", True)
    bots = api.get("/api/ratings/", {"is_bot": "true"}).json()["results"]
    assert [r["player"] for r in bots] == [bot.pk]
    assert api.get("/api/ratings/", {"provisional": "false"}).json()["count"] == 0
    bad = api.get("/api/ratings/", {"family": "chess"})
    assert bad.status_code == 400 and "family" in bad.json()["errors"]


def test_leaderboard_payload(api: Any, rated: Any, club_a: Any) -> None:
    ann, ben, bot = rated
    response = api.get("/api/ratings/leaderboard/", {"club": "alpha", "family": "kugamai"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["club"], body["family"], body["system"]) == (club_a.pk, "kugamai", "glicko2")
    assert [entry["player"] for entry in body["entries"]] == [ann.pk, bot.pk, ben.pk]
    assert body["entries"][0]["rank"] == 1 and body["entries"][0]["provisional"] is True
    assert [entry["is_bot"] for entry in body["entries"]] == [False, True, False]


def test_leaderboard_needs_a_known_club_and_family(api: Any, club_a: Any) -> None:
    missing = api.get("/api/ratings/leaderboard/", {"club": "alpha"})
    assert missing.status_code == 400 and "family" in missing.json()["errors"]
    unknown = api.get("/api/ratings/leaderboard/", {"club": "nope", "family": "kugamai"})
    assert unknown.status_code == 400 and "club" in unknown.json()["errors"]


def test_rating_history_payload(api: Any, rated: Any) -> None:
    ann, _, _ = rated
    response = api.get(f"/api/players/{ann.pk}/rating-history/", {"family": "kugamai"})
    assert response.status_code == 200
    rows = response.json()["results"]
    assert len(rows) == 2
    assert rows[0]["rating_before"] == 1500.0 and rows[0]["change"] > 0
    assert rows[1]["rating_before"] == rows[0]["rating_after"]
    assert rows[0]["tournament_name"] and rows[0]["game_name"] == "kugamai"
    assert api.get(f"/api/players/{ann.pk}/rating-history/").json()["count"] == 3
    assert api.get("/api/players/999999/rating-history/").status_code == 404


def test_ratings_are_read_only(as_user: Any, rated: Any, admin_user: Any) -> None:
    client = as_user(admin_user)
    assert client.post("/api/ratings/", {}, format="json").status_code == 405
    rating_id = client.get("/api/ratings/").json()["results"][0]["id"]
    assert client.patch(f"/api/ratings/{rating_id}/", {"rating": 3000},
                        format="json").status_code == 405
