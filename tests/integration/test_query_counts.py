"""Every list endpoint and public page answers in a number of queries that does not grow
with the rows it shows: each is measured on a small tournament and on a larger one (more
players, rounds, games, ratings), and the counts must be equal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from botruns.models import BotRun
from games.series import MatchScore
from matches.models import Game
from matches.services import match_result_record
from players.models import Club, Player, Team, TeamMembership
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _tournament(club: Club, organizer: Any, size: int, name: str) -> Tournament:
    players = [Player.objects.create(display_name=f"{name} {i}", club=club)
               for i in range(size)]
    team = Team.objects.create(name=f"{name} team", club=club)
    for player in players[:2]:
        TeamMembership.objects.create(team=team, player=player, joined_on="2026-01-01")
    tournament = services.tournament_create(actor=organizer, club=club, name=name,
                                            game="kugamai", format="round_robin",
                                            match_format="bo3")
    for index, player in enumerate(players):
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=1800 - index)
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    for number in range(size - 1):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for board in round_.pairings.filter(outcome="pending"):
            score = MatchScore(2, 1) if (board.board + number) % 2 else MatchScore(0, 2)
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                score=score)
    BotRun.objects.create(tournament=tournament, seed=size)  # a run to list and follow
    return tournament


def _api_lists(t: Tournament) -> list[str]:
    player = t.entrants.order_by("id").first().player_id  # type: ignore[union-attr]
    pairing = Game.objects.filter(pairing__round__tournament=t).first().pairing_id  # type: ignore[union-attr]
    return [
        "/api/clubs/", "/api/players/", "/api/teams/", "/api/tournaments/",
        f"/api/rounds/?tournament={t.pk}", f"/api/pairings/?round__tournament={t.pk}",
        "/api/pairings/", "/api/rounds/", f"/api/games/?tournament={t.pk}", "/api/games/",
        f"/api/games/?player={player}", f"/api/pairings/{pairing}/games/",
        "/api/ratings/", f"/api/ratings/leaderboard/?club={t.club.slug}&family=kugamai",
        f"/api/players/{player}/rating-history/", "/api/bot-runs/",
        f"/api/tournaments/{t.pk}/entrants/", f"/api/tournaments/{t.pk}/rounds/",
        f"/api/tournaments/{t.pk}/standings/", f"/api/tournaments/{t.pk}/crosstable/",
        f"/api/tournaments/{t.pk}/round-by-round/",
    ]


def _pages(t: Tournament) -> list[str]:
    player = t.entrants.order_by("id").first().player_id  # type: ignore[union-attr]
    game = Game.objects.filter(pairing__round__tournament=t).order_by("id").first()
    base = f"/tournaments/{t.club.slug}/{t.slug}/"
    return ["/", "/tournaments/", base, f"{base}results/", f"{base}live.json",
            f"/players/{player}/", f"/games/{game.pk}/",  # type: ignore[union-attr]
            "/leaderboards/kugamai/"]


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


@pytest.mark.slow
@pytest.mark.parametrize("urls", [_api_lists, _pages], ids=["api lists", "public pages"])
def test_queries_do_not_grow_with_rows(club_a: Club, organizer: Any,
                                       urls: Callable[[Tournament], list[str]]) -> None:
    client = Client()
    small = _tournament(club_a, organizer, 4, "Small")
    before = [_queries(client, url) for url in urls(small)]
    large = _tournament(club_a, organizer, 7, "Large")  # more of every row, lists included
    after = [_queries(client, url) for url in urls(large)]
    growing = {url: (was, now) for url, was, now in zip(urls(small), before, after, strict=True)
               if was != now}
    assert growing == {}, growing
