"""The admin's roster page (roster_set before the season starts, reserve_add after) and a
league manager's late lineup (accepted, marked late, logged), over HTTP; refusals show the
service's reason and change nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from leagues.models import LeagueEvent, Lineup, RosterEntry, TeamMatch
from players.models import Player
from tests.integration.leagues.test_captain_pages import World, _world

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_roster_is_declared_and_a_refusal_changes_nothing(
        make_league: Any, organizer: Any, club_a: Any) -> None:
    world = make_league(teams=2, boards=2, roster=3, start=False)
    team = world.teams[0]
    url = f"/admin/leagues/seasonteam/{team.pk}/roster/"
    client = _client(organizer)
    assert url in client.get(f"/admin/leagues/seasonteam/{team.pk}/change/").content.decode()
    page = client.get(url)
    assert page.status_code == 200 and 'name="regular_1"' in page.content.decode()
    first, second, third = world.players[team.pk]
    newcomer = Player.objects.create(display_name="Newcomer", club=club_a)
    answer = client.post(url, {"regular_1": str(second.pk), "regular_2": str(first.pk),
                               "reserves": [str(third.pk), str(newcomer.pk)]})
    assert answer.status_code == 302
    assert list(team.roster.order_by("order").values_list("player_id", "reserve")) == [
        (second.pk, False), (first.pk, False), (third.pk, True), (newcomer.pk, True)]
    taken = world.players[world.teams[1].pk][0]  # on the other team's roster
    refused = client.post(url, {"regular_1": str(taken.pk)})
    assert refused.status_code == 400 and 'id="refused"' in refused.content.decode()
    assert team.roster.count() == 4


def test_a_reserve_is_added_once_the_season_runs(organizer: Any, club_a: Any) -> None:
    world = _world(organizer, club_a)
    url = f"/admin/leagues/seasonteam/{world.mine.pk}/roster/"
    newcomer = Player.objects.create(display_name="Late signing", club=club_a)
    client = _client(organizer)
    assert 'name="player"' in client.get(url).content.decode()
    assert client.post(url, {"player": str(newcomer.pk)}).status_code == 302
    assert RosterEntry.objects.get(season_team=world.mine, player=newcomer).reserve


def test_a_stranger_cannot_open_the_forms(organizer: Any, club_a: Any, club_b: Any) -> None:
    world = _world(organizer, club_a)
    stranger = club_b.organizers.get()
    stranger.is_staff = True
    stranger.save()
    client = _client(stranger)
    assert client.get(f"/admin/leagues/seasonteam/{world.mine.pk}/roster/").status_code == 403
    assert client.get(f"/admin/leagues/teammatch/{world.match.pk}/lineup/").status_code == 403


def test_the_manager_enters_a_late_lineup(organizer: Any, club_a: Any) -> None:
    world: World = _world(organizer, club_a)
    TeamMatch.objects.filter(pk=world.match.pk).update(
        lineup_deadline=timezone.now() - dt.timedelta(hours=1))
    url = f"/admin/leagues/teammatch/{world.match.pk}/lineup/"
    client = _client(organizer)
    change = client.get(f"/admin/leagues/teammatch/{world.match.pk}/change/").content.decode()
    assert url in change
    squad = world.players[world.mine.pk]
    out_of_order = {"team": str(world.mine.pk), "board_1": str(squad[1].pk),
                    "board_2": str(squad[0].pk), "board_3": str(squad[2].pk),
                    "board_4": str(squad[3].pk)}
    refused = client.post(url, out_of_order)
    assert refused.status_code == 400 and 'id="refused"' in refused.content.decode()
    assert not Lineup.objects.filter(match=world.match).exists()
    answer = client.post(url, {"team": str(world.mine.pk),
                               **{f"board_{n}": str(squad[n - 1].pk) for n in range(1, 5)}})
    assert answer.status_code == 302
    lineup = Lineup.objects.get(match=world.match, team=world.mine)
    assert lineup.late and lineup.accepted_by == organizer
    assert LeagueEvent.objects.filter(kind="late_lineup_accepted").count() == 1
