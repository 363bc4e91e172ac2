"""Nested lists are paginated like every other list of the API (``?page=``).

Before: ``/api/pairings/{id}/games/`` answered every game of a match at once (13 s for
11 MB after a 30000-game match), as did a tournament's ``entrants/`` and ``rounds/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from games.series.format import MatchScore
from matches.services import results as result_services
from players.models import Player
from tournaments import services
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db

PAGE = settings.REST_FRAMEWORK["PAGE_SIZE"]


def test_a_match_s_games_come_in_pages_with_the_etag(make_event: Any, organizer: Any,
                                                    api: Any) -> None:
    tournament = make_event(entrants=2, match_format=f"fixed{PAGE + 10}")
    pairing = services.round_pair_next(actor=organizer, tournament=tournament,
                                       release=True).pairings.get()
    half = (PAGE + 10) // 2
    result_services.result_record(actor=organizer, pairing=pairing, expected_version=1,
                                  score=MatchScore(half, half, 0))
    first = api.get(f"/api/pairings/{pairing.pk}/games/")
    assert first.status_code == 200
    body = first.json()
    assert body["count"] == PAGE + 10 and len(body["results"]) == PAGE
    assert first["ETag"] == '"2"'
    second = api.get(body["next"]).json()
    assert len(second["results"]) == 10
    numbers = [game["number"] for game in body["results"] + second["results"]]
    assert numbers == list(range(1, PAGE + 11))


def test_entrants_and_rounds_come_in_pages(club_a: Any, organizer: Any, api: Any) -> None:
    swiss = services.tournament_create(actor=organizer, club=club_a, name="Many",
                                       game="kugamai", format="swiss", rounds_planned=3)
    players = Player.objects.bulk_create(Player(display_name=f"E{i}", club=club_a)
                                         for i in range(PAGE + 3))
    Entrant.objects.bulk_create(Entrant(tournament=swiss, player=p) for p in players)
    entrants = api.get(f"/api/tournaments/{swiss.pk}/entrants/").json()
    assert entrants["count"] == PAGE + 3 and len(entrants["results"]) == PAGE
    assert len(api.get(entrants["next"]).json()["results"]) == 3
    swiss = services.tournament_start(actor=organizer, tournament=swiss)
    services.round_pair_next(actor=organizer, tournament=swiss, release=True)
    rounds = api.get(f"/api/tournaments/{swiss.pk}/rounds/").json()
    assert rounds["count"] == 1 and rounds["results"][0]["number"] == 1


@pytest.mark.parametrize("path", ["/api/pairings/{id}/games/", "/api/tournaments/{id}/entrants/",
                                  "/api/tournaments/{id}/rounds/"])
def test_the_schema_says_they_are_paginated(api: Any, path: str) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    ok = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    reference = ok["schema"]["$ref"].rsplit("/", 1)[-1]
    assert reference.startswith("Paginated")
    assert "count" in schema["components"]["schemas"][reference]["properties"]
