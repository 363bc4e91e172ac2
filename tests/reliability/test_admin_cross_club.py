"""Another club's tournament in the admin.

Before: the settings page of another club's tournament was a 500 (``KeyError: 'game'``:
the view-only form has no fields, and the settings form reached for them)."""

from __future__ import annotations

import pytest
from django.test import Client

from players.models import Club
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def theirs(club_a: Club) -> Tournament:
    return services.tournament_create(actor=club_a.organizers.get(), club=club_a,
                                      name="Alpha cup", game="kazambi", format="swiss",
                                      rounds_planned=5)


@pytest.fixture
def bob(club_b: Club) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(club_b.organizers.get())
    return client


def test_another_club_s_tournament_settings_page_is_refused(bob: Client,
                                                           theirs: Tournament) -> None:
    url = f"/admin/tournaments/tournament/{theirs.pk}/change/"
    assert bob.get(url).status_code == 403
    answer = bob.post(url, {"name": "Taken", "club": theirs.club_id, "game": "kugamai"})
    assert answer.status_code == 403
    theirs.refresh_from_db()
    assert (theirs.name, theirs.game) == ("Alpha cup", "kazambi")


def test_the_organizer_still_opens_the_settings_page(club_a: Club, theirs: Tournament) -> None:
    client = Client()
    client.force_login(club_a.organizers.get())
    answer = client.get(f"/admin/tournaments/tournament/{theirs.pk}/change/")
    assert answer.status_code == 200
    assert b'name="game"' in answer.content


def test_another_club_s_dashboard_stays_readable(bob: Client, theirs: Tournament) -> None:
    assert bob.get(f"/admin/tournaments/tournament/{theirs.pk}/dashboard/").status_code == 200
