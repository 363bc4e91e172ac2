"""A write that names a field it cannot write is refused, naming the field.

Before: ``PATCH /api/teams/{id}/`` with ``members`` or ``club`` answered 200 and ignored
them (only the name was passed on), and any body field the endpoint did not know was
dropped in silence."""

from __future__ import annotations

from typing import Any

import pytest

from players import services as player_services
from players.models import Club, Player, Team, TeamMembership

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_api(api: Any, club_a: Club) -> Any:
    api.force_authenticate(club_a.organizers.get())
    return api


@pytest.fixture
def team(club_a: Club) -> Team:
    return player_services.team_create(actor=club_a.organizers.get(), name="Alpha team",
                                       club=club_a)


@pytest.mark.parametrize("field", ["members", "club"])
def test_patching_a_team_s_members_or_club_is_a_400_naming_it(
        alice_api: Any, club_a: Club, club_b: Club, team: Team, field: str) -> None:
    ann = Player.objects.create(display_name="Ann", club=club_a)
    value = [ann.pk] if field == "members" else club_b.pk
    answer = alice_api.patch(f"/api/teams/{team.pk}/", {"name": "Renamed", field: value},
                             format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"]
    team.refresh_from_db()
    assert (team.name, team.club_id) == ("Alpha team", club_a.pk)
    assert not TeamMembership.objects.exists()


def test_patching_a_team_s_name_still_works(alice_api: Any, team: Team) -> None:
    answer = alice_api.patch(f"/api/teams/{team.pk}/", {"name": "Renamed"}, format="json")
    assert answer.status_code == 200, answer.content
    team.refresh_from_db()
    assert team.name == "Renamed"


def test_an_unknown_field_in_a_create_is_a_400(alice_api: Any, club_a: Club) -> None:
    answer = alice_api.post("/api/players/", {"display_name": "Ann", "club": club_a.pk,
                                              "rating": 2000}, format="json")
    assert answer.status_code == 400, answer.content
    assert "rating" in answer.json()["errors"]
    assert not Player.objects.exists()
