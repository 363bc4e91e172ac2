from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from core.errors import ApplicationError
from players import selectors, services
from players.models import Club, Player, Team, TeamMembership

pytestmark = pytest.mark.django_db


def test_bot_kind_constraint_in_database(club_a: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(display_name="B", club=club_a, is_bot=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(display_name="P", club=club_a, bot_kind="random")


def test_bot_cannot_have_a_user(club_a: Any, make_user: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(display_name="B", club=club_a, is_bot=True, bot_kind="random",
                              user=make_user())


def test_club_names_unique_ignoring_case(club_a: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="ALPHA CLUB", slug="other")


def test_one_open_membership(club_a: Any) -> None:
    team = Team.objects.create(name="T", club=club_a)
    ada = Player.objects.create(display_name="Ada", club=club_a)
    TeamMembership.objects.create(team=team, player=ada, joined_on=dt.date(2026, 1, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMembership.objects.create(team=team, player=ada, joined_on=dt.date(2026, 2, 1))


def test_leaving_before_joining_is_refused(club_a: Any) -> None:
    team = Team.objects.create(name="T", club=club_a)
    ada = Player.objects.create(display_name="Ada", club=club_a)
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMembership.objects.create(team=team, player=ada, joined_on=dt.date(2026, 2, 1),
                                      left_on=dt.date(2026, 1, 1))


def test_membership_over_time(club_a: Any) -> None:
    actor = club_a.organizers.get()
    ada = Player.objects.create(display_name="Ada", club=club_a)
    team = services.team_create(actor=actor, name="T", club=club_a, members=[ada],
                                joined_on=dt.date(2026, 1, 1))
    services.team_remove_member(actor=actor, team=team, player=ada, left_on=dt.date(2026, 3, 1))
    assert list(selectors.team_members_on(team, dt.date(2026, 2, 1))) == [ada]
    assert list(selectors.team_members_on(team, dt.date(2026, 3, 1))) == []
    services.team_add_member(actor=actor, team=team, player=ada, joined_on=dt.date(2026, 4, 1))
    assert list(selectors.team_members_on(team, dt.date(2026, 5, 1))) == [ada]


def test_service_refuses_foreign_club(club_a: Any, club_b: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.player_create(actor=club_a.organizers.get(), display_name="X", club=club_b)


def test_service_validation_changes_nothing(club_a: Any) -> None:
    actor = club_a.organizers.get()
    with pytest.raises(ValidationError):
        services.player_create(actor=actor, display_name="   ", club=club_a)
    with pytest.raises(ApplicationError):
        services.player_create(actor=actor, display_name="X", club=club_a, colour="red")
    assert not Player.objects.exists()


def test_team_create_is_atomic(club_a: Any, club_b: Any) -> None:
    actor = club_a.organizers.get()
    ada = Player.objects.create(display_name="Ada", club=club_a)
    with pytest.raises(ApplicationError):
        services.team_remove_member(actor=actor, team=Team.objects.create(name="Z", club=club_a),
                                    player=ada)
    Team.objects.all().delete()
    with pytest.raises(ApplicationError, match="listed twice"), transaction.atomic():
        services.team_create(actor=actor, name="T", club=club_a, members=[ada, ada])
    assert not Team.objects.exists()
