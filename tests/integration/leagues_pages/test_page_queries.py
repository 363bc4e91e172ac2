"""The league pages' queries: a kept page costs its state's one light query; rendered
afresh, a page takes as many after three rounds as after one (none per match or board)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.league_world import LeagueWorld, build_league

pytestmark = pytest.mark.django_db

#: The most queries a league page takes rendered afresh (a tournament page's bound is 20).
BOUND = 12


def _play_round(world: LeagueWorld, number: int) -> None:
    from games.series.format import MatchScore
    from leagues import services
    from leagues.models import TeamMatch
    from matches.services.results import match_result_record

    for match in TeamMatch.objects.filter(division=world.division, round_number=number):
        assert match.away is not None
        for team in (match.home, match.away):
            name = str(team.team.name).split()[0]
            services.lineup_submit(actor=world.organizer, match=match, team=team,
                                   boards=world.players[name][:4])
        for board in match.boards.select_related("pairing"):
            pairing = board.pairing
            assert pairing is not None
            match_result_record(actor=world.organizer, pairing=pairing,
                                expected_version=pairing.version, score=MatchScore(2, 1))


def _count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.fixture
def season(make_user: Any) -> LeagueWorld:
    from leagues import services

    world = build_league(make_user("query_boss"))
    services.season_start(actor=world.organizer, season=world.season)
    return world


def test_kept_pages_cost_one_query_and_rendering_is_bounded(client: Client,
                                                            season: LeagueWorld) -> None:
    from leagues.models import TeamMatch

    _play_round(season, 1)
    number = season.season.number
    match = TeamMatch.objects.filter(division=season.division, round_number=1).first()
    assert match is not None
    urls = {
        "season": reverse("leagues:season-detail", args=["four-clubs", number]),
        "match": reverse("leagues:match-detail", args=["four-clubs", number, match.pk]),
        "team": reverse("leagues:team-detail", args=["four-clubs", number, season.teams[0].pk]),
    }
    fresh = {}
    for name, url in urls.items():
        cache.clear()
        fresh[name] = _count(client, url)
        assert _count(client, url) <= 2, name  # the state (and the session's language)
    _play_round(season, 2)
    _play_round(season, 3)
    for name, url in urls.items():
        cache.clear()
        assert _count(client, url) == fresh[name], name  # no query per match or board
        assert fresh[name] <= BOUND, name


def test_a_lineup_stays_private_until_both_are_in(client: Client, season: LeagueWorld) -> None:
    from leagues import services
    from leagues.models import TeamMatch

    match = TeamMatch.objects.filter(division=season.division, round_number=1).first()
    assert match is not None and match.away is not None
    home = str(match.home.team.name).split()[0]
    services.lineup_submit(actor=season.organizer, match=match, team=match.home,
                           boards=season.players[home][:4])
    url = reverse("leagues:match-detail", args=["four-clubs", season.season.number, match.pk])
    page = client.get(url).content.decode()
    assert "The boards are shown once both lineups are in." in page
    assert f"{home} 1" not in page
    away = str(match.away.team.name).split()[0]
    services.lineup_submit(actor=season.organizer, match=match, team=match.away,
                           boards=season.players[away][:4])
    page = client.get(url).content.decode()
    assert f"{home} 1" in page and f"{away} 4" in page and "first" in page
