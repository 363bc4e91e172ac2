"""Lists in request bodies: bounded, and looked up in one query, not one per element.

Before: ``POST /api/teams/`` with ``"members": [1] * 100000`` held a thread for 4 minutes
(a query per element) and ``PATCH /api/clubs/1/`` with 50,000 organizers 2.6 minutes.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.bounds import MAX_CLUB_ORGANIZERS, MAX_TEAM_MEMBERS
from core.errors import ApplicationError
from players import services
from players.models import Player, Team, TeamMembership

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_api(api: Any, club_a: Any) -> Any:
    # a session login: each request loads its own user, as in production (a forced user
    # object would carry what one request learnt about it into the next)
    api.force_login(club_a.organizers.get())
    return api


def _players(club: Any, count: int) -> list[int]:
    made = Player.objects.bulk_create(Player(display_name=f"P{i}", club=club)
                                      for i in range(count))
    return [player.pk for player in made]


def _queries(call: Any) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        answer = call()
    return answer, len(queries)


def test_a_huge_member_list_is_refused_at_once(alice_api: Any, club_a: Any) -> None:
    ids = _players(club_a, 1)
    answer, queries = _queries(lambda: alice_api.post(
        "/api/teams/", {"name": "Crowd", "club": club_a.pk, "members": ids * 100_000},
        format="json"))
    assert answer.status_code == 400
    assert "members" in answer.json()["errors"]
    assert queries < 10
    assert not Team.objects.exists()


def test_members_are_looked_up_in_one_query(alice_api: Any, club_a: Any) -> None:
    ids = _players(club_a, MAX_TEAM_MEMBERS)
    small, few = _queries(lambda: alice_api.post(
        "/api/teams/", {"name": "Small", "club": club_a.pk, "members": ids[:2]}, format="json"))
    large, many = _queries(lambda: alice_api.post(
        "/api/teams/", {"name": "Large", "club": club_a.pk, "members": ids}, format="json"))
    assert (small.status_code, large.status_code) == (201, 201), large.content
    assert many == few
    assert len(large.json()["memberships"]) == MAX_TEAM_MEMBERS


def test_a_team_has_at_most_the_bound_of_members(alice_api: Any, club_a: Any) -> None:
    ids = _players(club_a, MAX_TEAM_MEMBERS + 1)
    answer = alice_api.post("/api/teams/", {"name": "Big", "club": club_a.pk, "members": ids},
                            format="json")
    assert answer.status_code == 400
    team = services.team_create(actor=club_a.organizers.get(), name="Full", club=club_a,
                                members=list(Player.objects.filter(pk__in=ids[:-1])))
    added = alice_api.post(f"/api/teams/{team.pk}/add-member/", {"player": ids[-1]},
                           format="json")
    assert added.status_code == 400
    assert f"at most {MAX_TEAM_MEMBERS} members" in added.json()["detail"]
    assert TeamMembership.objects.filter(team=team).count() == MAX_TEAM_MEMBERS


@pytest.mark.parametrize("members", [[999_999], ["x"], [1, 1]])
def test_bad_member_lists_name_the_field(alice_api: Any, club_a: Any, members: list[Any]) -> None:
    _players(club_a, 1)
    if members == [1, 1]:
        members = [Player.objects.get().pk] * 2
    answer = alice_api.post("/api/teams/", {"name": "T", "club": club_a.pk, "members": members},
                            format="json")
    assert answer.status_code == 400
    assert "members" in answer.json()["errors"]
    assert not Team.objects.exists()


def test_a_huge_organizer_list_is_refused_at_once(alice_api: Any, club_a: Any) -> None:
    answer, queries = _queries(lambda: alice_api.patch(
        f"/api/clubs/{club_a.pk}/", {"organizers": ["alice"] * 50_000}, format="json"))
    assert answer.status_code == 400
    assert "organizers" in answer.json()["errors"]
    assert queries < 10
    assert [u.username for u in club_a.organizers.all()] == ["alice"]


def test_organizers_are_looked_up_in_one_query(alice_api: Any, club_a: Any) -> None:
    users = get_user_model()
    names = ["alice"] + [users.objects.create_user(f"org{i}").username
                         for i in range(MAX_CLUB_ORGANIZERS - 1)]
    small, few = _queries(lambda: alice_api.patch(
        f"/api/clubs/{club_a.pk}/", {"organizers": names[:2]}, format="json"))
    large, many = _queries(lambda: alice_api.patch(
        f"/api/clubs/{club_a.pk}/", {"organizers": names}, format="json"))
    assert (small.status_code, large.status_code) == (200, 200), large.content
    assert many <= few + 2  # the set() adds its rows in one insert either way
    assert club_a.organizers.count() == MAX_CLUB_ORGANIZERS
    too_many = alice_api.patch(f"/api/clubs/{club_a.pk}/",
                               {"organizers": [*names, "alice2"]}, format="json")
    assert too_many.status_code == 400


def test_unknown_user_names_are_named_only_to_the_club_s_organizers(
        api: Any, club_a: Any, club_b: Any) -> None:
    api.force_authenticate(club_a.organizers.get())
    mine = api.patch(f"/api/clubs/{club_a.pk}/", {"organizers": ["nobody"]}, format="json")
    assert mine.status_code == 400 and "nobody" in mine.json()["detail"]
    theirs = api.patch(f"/api/clubs/{club_b.pk}/", {"organizers": ["nobody"]}, format="json")
    assert theirs.status_code == 403


def test_the_service_refuses_duplicates_and_long_lists(club_a: Any) -> None:
    alice = club_a.organizers.get()
    with pytest.raises(ApplicationError, match="listed twice"):
        services.club_update(actor=alice, club=club_a, organizers=["alice", "alice"])
    with pytest.raises(ApplicationError, match="at most"):
        services.club_update(actor=alice, club=club_a, organizers=["alice"] * 21)
