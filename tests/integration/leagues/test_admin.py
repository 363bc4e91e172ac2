"""The league admin: organizers see their leagues only; buttons call the services."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Season, TeamMatch

pytestmark = pytest.mark.django_db


def test_pages_and_scope(make_league: Any, organizer: Any, club_b: Any) -> None:
    world = make_league(teams=2, boards=1, roster=1)
    match: Any = TeamMatch.objects.filter(division=world.division).first()
    pages = [
        reverse("admin:leagues_league_change", args=[world.league.pk]),
        reverse("admin:leagues_season_change", args=[world.season.pk]),
        reverse("admin:leagues_division_change", args=[world.division.pk]),
        reverse("admin:leagues_seasonteam_change", args=[match.home_id]),
        reverse("admin:leagues_teammatch_change", args=[match.pk]),
    ]
    mine, theirs = Client(), Client()
    mine.force_login(organizer)
    theirs.force_login(club_b.organizers.get())
    for page in pages:
        assert mine.get(page).status_code == 200, page
        response = theirs.get(page)
        assert response.status_code in (302, 403, 404), page
    listed = theirs.get(reverse("admin:leagues_league_changelist"))
    assert world.league.name not in listed.content.decode()
    assert theirs.get(reverse("admin:leagues_teammatch_change", args=[10**12])).status_code \
        in (302, 404)


def test_buttons_call_services(make_league: Any, organizer: Any) -> None:
    world = make_league(teams=2, boards=1, roster=1, start=False)
    client = Client()
    client.force_login(organizer)
    url = reverse("admin:leagues_season_changelist")
    response = client.post(url, {"action": "start_seasons", "_selected_action": [world.season.pk]},
                           follow=True)
    assert response.status_code == 200
    assert Season.objects.get(pk=world.season.pk).status == "running"
    response = client.post(url, {"action": "finish_seasons",
                                 "_selected_action": [world.season.pk]}, follow=True)
    assert "unfinished" in response.content.decode()  # the refusal, as a message
    match: Any = TeamMatch.objects.filter(division=world.division).first()
    client.post(reverse("admin:leagues_teammatch_changelist"),
                {"action": "forfeit_away", "_selected_action": [match.pk]}, follow=True)
    match.refresh_from_db()
    assert match.forfeit == "away"
