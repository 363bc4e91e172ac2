"""Other clubs' players and teams enter your tournaments and teams only with consent.

Before: club A's organizer could register any club's players and teams into A's
tournaments and teams. The rule now (docs/security.md, "Permissions"): a club's own
players and teams; those of a club the organizer also organizes; those of a club that
accepts entries by other clubs (``open_entries``, which its organizers set). Players
without a club: site administrators only.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError
from players import services as player_services
from players.models import Player, Team, TeamMembership
from tournaments import services
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club_a: Any) -> Any:
    return services.tournament_create(actor=club_a.organizers.get(), club=club_a,
                                      name="Alpha open", game="kugamai", format="swiss",
                                      rounds_planned=3)


@pytest.fixture
def team_cup(club_a: Any) -> Any:
    return services.tournament_create(actor=club_a.organizers.get(), club=club_a,
                                      name="Alpha pairs", game="kazambi-pairs", format="swiss",
                                      rounds_planned=3)


@pytest.fixture
def beta_player(club_b: Any) -> Player:
    return Player.objects.create(display_name="Beta player", club=club_b)


@pytest.fixture
def beta_team(club_b: Any) -> Team:
    return Team.objects.create(name="Beta team", club=club_b)


@pytest.fixture
def alice_api(api: Any, club_a: Any) -> Any:
    api.force_authenticate(club_a.organizers.get())
    return api


def test_another_club_s_player_is_refused_without_consent(
        alice_api: Any, cup: Any, beta_player: Player) -> None:
    answer = alice_api.post(f"/api/tournaments/{cup.pk}/register/",
                            {"player": beta_player.pk}, format="json")
    assert answer.status_code == 400
    assert "Beta Club does not accept entries by other clubs" in answer.json()["detail"]
    assert "player" in answer.json()["errors"]
    assert not Entrant.objects.exists()


def test_another_club_s_team_is_refused_without_consent(
        alice_api: Any, team_cup: Any, beta_team: Team) -> None:
    answer = alice_api.post(f"/api/tournaments/{team_cup.pk}/register/",
                            {"team": beta_team.pk}, format="json")
    assert answer.status_code == 400
    assert "team" in answer.json()["errors"]
    assert not Entrant.objects.exists()


def test_another_club_s_player_cannot_join_your_team(
        alice_api: Any, club_a: Any, beta_player: Player) -> None:
    answer = alice_api.post("/api/teams/", {"name": "Mixed", "club": club_a.pk,
                                            "members": [beta_player.pk]}, format="json")
    assert answer.status_code == 400 and "members" in answer.json()["errors"]
    team = player_services.team_create(actor=club_a.organizers.get(), name="Own", club=club_a)
    added = alice_api.post(f"/api/teams/{team.pk}/add-member/", {"player": beta_player.pk},
                           format="json")
    assert added.status_code == 400 and "player" in added.json()["errors"]
    assert not TeamMembership.objects.exists()
    assert list(Team.objects.values_list("name", flat=True)) == ["Own"]


def test_a_club_that_opens_its_entries_can_be_entered(
        api: Any, club_a: Any, club_b: Any, cup: Any, beta_player: Player) -> None:
    api.force_authenticate(club_b.organizers.get())
    opened = api.patch(f"/api/clubs/{club_b.pk}/", {"open_entries": True}, format="json")
    assert opened.status_code == 200 and opened.json()["open_entries"] is True
    api.force_authenticate(club_a.organizers.get())
    answer = api.post(f"/api/tournaments/{cup.pk}/register/", {"player": beta_player.pk},
                      format="json")
    assert answer.status_code == 201, answer.content
    made = api.post("/api/teams/", {"name": "Mixed", "club": club_a.pk,
                                    "members": [beta_player.pk]}, format="json")
    assert made.status_code == 201


def test_only_the_club_s_organizers_open_its_entries(alice_api: Any, club_b: Any) -> None:
    answer = alice_api.patch(f"/api/clubs/{club_b.pk}/", {"open_entries": True},
                             format="json")
    assert answer.status_code == 403
    club_b.refresh_from_db()
    assert club_b.open_entries is False


def test_an_organizer_of_both_clubs_consents_for_both(
        club_a: Any, club_b: Any, cup: Any, beta_player: Player) -> None:
    alice = club_a.organizers.get()
    club_b.organizers.add(alice)
    entrant = services.entrant_register(actor=alice, tournament=cup, player=beta_player)
    assert entrant.player == beta_player


def test_site_administrators_enter_anyone(admin_user: Any, cup: Any, beta_player: Player,
                                          club_a: Any) -> None:
    services.entrant_register(actor=admin_user, tournament=cup, player=beta_player)
    loner = Player.objects.create(display_name="No club")
    services.entrant_register(actor=admin_user, tournament=cup, player=loner)
    with pytest.raises(ApplicationError, match="without a club"):
        player_services.team_create(actor=club_a.organizers.get(), name="T", club=club_a,
                                    members=[loner])
