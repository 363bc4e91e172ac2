from __future__ import annotations

from typing import Any

import pytest

from players.models import Club, Player, Team, TeamMembership

pytestmark = pytest.mark.django_db


def organizer(club: Any) -> Any:
    return club.organizers.get()


def test_anyone_reads_players(api: Any, club_a: Any) -> None:
    Player.objects.create(display_name="Ada", club=club_a)
    response = api.get("/api/players/")
    assert response.status_code == 200
    assert response.json()["results"][0]["display_name"] == "Ada"
    assert response.json()["results"][0]["club_name"] == "Alpha Club"


def test_anonymous_cannot_write(api: Any, club_a: Any) -> None:
    response = api.post("/api/players/", {"display_name": "X", "club": club_a.pk}, format="json")
    assert response.status_code in (401, 403)
    assert not Player.objects.exists()


def test_organizer_creates_player_in_own_club(as_user: Any, club_a: Any) -> None:
    client = as_user(organizer(club_a))
    response = client.post(
        "/api/players/", {"display_name": " Ada ", "club": club_a.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["display_name"] == "Ada"
    assert Player.objects.get().club == club_a


def test_organizer_of_a_cannot_touch_club_b(as_user: Any, club_a: Any, club_b: Any) -> None:
    victim = Player.objects.create(display_name="Bea", club=club_b)
    client = as_user(organizer(club_a))
    created = client.post("/api/players/", {"display_name": "X", "club": club_b.pk},
                          format="json")
    assert created.status_code == 403
    edited = client.patch(f"/api/players/{victim.pk}/", {"display_name": "Hacked"},
                          format="json")
    assert edited.status_code == 403
    moved = client.patch(f"/api/players/{victim.pk}/", {"club": club_a.pk}, format="json")
    assert moved.status_code == 403
    club_edit = client.patch(f"/api/clubs/{club_b.pk}/", {"name": "Mine"}, format="json")
    assert club_edit.status_code == 403
    victim.refresh_from_db()
    club_b.refresh_from_db()
    assert (victim.display_name, victim.club, club_b.name) == ("Bea", club_b, "Beta Club")
    assert Player.objects.count() == 1


def test_organizer_cannot_move_own_player_into_other_club(
    as_user: Any, club_a: Any, club_b: Any
) -> None:
    mine = Player.objects.create(display_name="Al", club=club_a)
    response = as_user(organizer(club_a)).patch(
        f"/api/players/{mine.pk}/", {"club": club_b.pk}, format="json"
    )
    assert response.status_code == 403
    mine.refresh_from_db()
    assert mine.club == club_a


def test_plain_user_gets_403(as_user: Any, make_user: Any, club_a: Any) -> None:
    response = as_user(make_user()).post(
        "/api/players/", {"display_name": "X", "club": club_a.pk}, format="json"
    )
    assert response.status_code == 403


def test_invalid_payload_names_the_field(as_user: Any, club_a: Any) -> None:
    client = as_user(organizer(club_a))
    response = client.post("/api/players/", {"club": club_a.pk}, format="json")
    assert response.status_code == 400
    assert "display_name" in response.json()["errors"]
    bot = client.post(
        "/api/players/", {"display_name": "Bot", "club": club_a.pk, "is_bot": True},
        format="json",
    )
    assert bot.status_code == 400
    assert "bot" in bot.json()["detail"].lower()
    assert not Player.objects.exists()


def test_bot_creation(as_user: Any, club_a: Any) -> None:
    response = as_user(organizer(club_a)).post(
        "/api/players/",
        {"display_name": "Monty", "club": club_a.pk, "is_bot": True, "bot_kind": "mcts",
         "bot_settings": {"iterations": 100}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["bot_settings"] == {"iterations": 100}


def test_filter_and_search(api: Any, club_a: Any, club_b: Any) -> None:
    Player.objects.create(display_name="Ada", club=club_a)
    Player.objects.create(display_name="Bot", club=club_b, is_bot=True, bot_kind="random")
    assert [p["display_name"] for p in api.get(f"/api/players/?club={club_b.pk}").json()[
        "results"]] == ["Bot"]
    assert [p["display_name"] for p in api.get("/api/players/?is_bot=false").json()[
        "results"]] == ["Ada"]
    assert api.get("/api/players/?search=ad").json()["count"] == 1


def test_team_create_and_membership(as_user: Any, club_a: Any) -> None:
    ada = Player.objects.create(display_name="Ada", club=club_a)
    bo = Player.objects.create(display_name="Bo", club=club_a)
    client = as_user(organizer(club_a))
    response = client.post("/api/teams/", {"name": "North", "club": club_a.pk,
                                           "members": [ada.pk, bo.pk]}, format="json")
    assert response.status_code == 201, response.json()
    team_id = response.json()["id"]
    again = client.post(f"/api/teams/{team_id}/add-member/", {"player": ada.pk}, format="json")
    assert again.status_code == 400
    assert "already" in again.json()["detail"]
    left = client.post(f"/api/teams/{team_id}/remove-member/", {"player": bo.pk}, format="json")
    assert left.status_code == 200
    assert TeamMembership.objects.get(player=bo).left_on is not None


def test_team_in_other_club_is_refused(as_user: Any, club_a: Any, club_b: Any) -> None:
    response = as_user(organizer(club_a)).post(
        "/api/teams/", {"name": "Raiders", "club": club_b.pk}, format="json"
    )
    assert response.status_code == 403
    assert not Team.objects.exists()


def test_only_admins_create_clubs(as_user: Any, club_a: Any, admin_user: Any) -> None:
    refused = as_user(organizer(club_a)).post("/api/clubs/", {"name": "New"}, format="json")
    assert refused.status_code == 403
    made = as_user(admin_user).post("/api/clubs/", {"name": "New Club", "organizers": ["alice"]},
                                    format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] == "new-club"
    assert made.json()["organizers"] == ["Organizer"]  # shown by name, never by login
    assert [user.username for user in Club.objects.get(slug="new-club").organizers.all()] == [
        "alice"
    ]


def test_token_auth(api: Any, club_a: Any) -> None:
    token = api.post("/api/auth/token/", {"username": "alice", "password": "pw-alice"},
                     format="json")
    assert token.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    response = api.post("/api/players/", {"display_name": "Tok", "club": club_a.pk},
                        format="json")
    assert response.status_code == 201
