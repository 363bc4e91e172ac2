"""The captain's token never reaches a cookie: the season team list's action leads to the
season's Captain links page, which shows a new token on the answering page (never in a
message); and the captain pages note when the link was last used."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from leagues.models import CaptainLink
from tests.integration.leagues.test_captain_pages import World, _world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(organizer: Any, club_a: Any) -> World:
    return _world(organizer, club_a)


def _cookies_of(response: Any) -> str:
    return " ".join(morsel.OutputString() for morsel in response.cookies.values())


def test_the_team_action_leads_to_the_captain_links_page(world: World) -> None:
    client = Client()
    client.force_login(world.organizer)
    season = world.mine.season
    chosen = client.post("/admin/leagues/seasonteam/", {
        "action": "issue_captain_links",
        "_selected_action": [str(team.pk) for team in world.teams[:2]]})
    assert chosen.status_code == 302
    assert chosen["Location"] == f"/admin/leagues/season/{season.pk}/captain-links/"
    assert not CaptainLink.objects.filter(season_team=world.teams[1]).exists()


def test_no_response_sets_a_cookie_holding_a_new_token(world: World) -> None:
    client = Client()
    client.force_login(world.organizer)
    url = f"/admin/leagues/season/{world.mine.season.pk}/captain-links/"
    seen: list[str] = []
    for team, action in ((world.teams[1], "issue"), (world.mine, "reissue")):
        answer = client.post(url, {"season_team": str(team.pk), "action": action},
                             follow=True)
        seen.append(_cookies_of(answer))
        text = answer.content.decode()
        start = text.index("/league/captain/", text.index('id="fresh-url"'))
        token = text[start:].split("/")[3]
        assert len(token) > 10
        seen.append(_cookies_of(client.get(url)))
        assert all(token not in cookies for cookies in seen)
        assert token not in str(client.cookies)


def test_the_captain_pages_note_when_the_link_was_last_used(world: World) -> None:
    link = CaptainLink.objects.live().get(season_team=world.mine)
    assert link.last_used_at is None
    assert Client().get(world.url).status_code == 200
    link.refresh_from_db()
    first = link.last_used_at
    assert first is not None
    Client().get(world.url)
    link.refresh_from_db()
    assert link.last_used_at == first  # at most one write per few minutes
    CaptainLink.objects.filter(pk=link.pk).update(
        last_used_at=timezone.now() - dt.timedelta(minutes=10))
    Client().get(world.url)
    link.refresh_from_db()
    assert link.last_used_at is not None and link.last_used_at > first
    client = Client()
    client.force_login(world.organizer)
    board = client.get(f"/admin/leagues/season/{world.mine.season.pk}/captain-links/")
    assert "never" not in board.content.decode()  # the one live link was used
