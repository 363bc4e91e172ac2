"""Every public page answers in as many queries for a larger club as for a small one (no
query per row), within a fixed bound; a tournament page kept in the cache costs one light
query (its state: the version a write moved, read afresh by every request)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.series.format import MatchScore
from matches import services as match_services
from matches.models import Game
from tournaments import services
from tournaments.models import Outcome, Tournament

pytestmark = pytest.mark.django_db

#: The most queries any public page may take with an empty cache.
BOUND = 20


def _finish_rounds(organizer: Any, tournament: Tournament, rounds: int) -> None:
    """Pair and play ``rounds`` rounds; every board's first side wins 2–0 (games stored)."""
    for _ in range(rounds):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for pairing in round_.pairings.filter(outcome=Outcome.PENDING):
            match_services.match_result_record(actor=organizer, pairing=pairing,
                                         score=MatchScore(2, 0, 0),
                                         expected_version=pairing.version)


def _world(make_tournament: Callable[..., Any], organizer: Any, size: int) -> dict[str, str]:
    bo3 = {"kind": "best_of", "games": 3}
    rr = make_tournament("round_robin", entrants=size, match_format=bo3,
                         tiebreaks=["sonneborn_berger", "wins"])
    _finish_rounds(organizer, rr, size - 1)
    swiss = make_tournament("swiss", entrants=2 * size, rounds_planned=3, match_format=bo3,
                            tiebreaks=["buchholz_cut1", "buchholz", "wins"])
    _finish_rounds(organizer, swiss, 3)
    knockout = make_tournament("knockout", entrants=size, match_format=bo3)
    _finish_rounds(organizer, knockout, {4: 2, 8: 3}[size])

    def page(t: Tournament) -> str:
        return reverse("pages:tournament-detail", args=[t.club.slug, t.slug])

    entrant = rr.entrants.select_related("player").order_by("seed").first()
    assert entrant is not None and entrant.player_id is not None
    game = Game.objects.filter(pairing__round__tournament=swiss).order_by("id").first()
    assert game is not None
    return {
        "home": "/", "tournament list": "/tournaments/",
        "round robin": page(rr), "swiss": page(swiss), "knockout": page(knockout),
        "results part": reverse("pages:tournament-results", args=[rr.club.slug, rr.slug]),
        "swiss round": reverse("pages:tournament-round", args=[swiss.club.slug, swiss.slug, 2]),
        "swiss round part": reverse("pages:tournament-round-results",
                                    args=[swiss.club.slug, swiss.slug, 2]),
        "swiss table": reverse("pages:tournament-table", args=[swiss.club.slug, swiss.slug]),
        "crosstable": reverse("pages:tournament-table", args=[rr.club.slug, rr.slug]),
        "table part": reverse("pages:tournament-table-results", args=[rr.club.slug, rr.slug]),
        "knockout round": reverse("pages:tournament-round",
                                  args=[knockout.club.slug, knockout.slug, 1]),
        "live figures": reverse("pages:tournament-live", args=[rr.club.slug, rr.slug]),
        "player": reverse("pages:player-detail", args=[entrant.player_id]),
        "game": reverse("pages:game-detail", args=[game.pk]),
        "leaderboard": reverse("pages:leaderboard", args=["kugamai"]),
    }


def _queries(client: Client, url: str) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(captured)


@pytest.mark.slow
def test_pages_take_as_many_queries_for_a_larger_club(
        client: Client, make_tournament: Callable[..., Any], organizer: Any) -> None:
    small = {name: _queries(client, url)
             for name, url in _world(make_tournament, organizer, 4).items()}
    large = {name: _queries(client, url)
             for name, url in _world(make_tournament, organizer, 8).items()}
    assert large == small
    assert max(small.values()) <= BOUND, small


@pytest.mark.parametrize("which", ["round robin", "swiss", "knockout", "results part",
                                   "swiss round", "swiss table", "table part"])
def test_a_cached_tournament_page_costs_one_query(
        client: Client, make_tournament: Callable[..., Any], organizer: Any,
        which: str) -> None:
    url = _world(make_tournament, organizer, 4)[which]
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert len(captured) == 1, [q["sql"] for q in captured]


def test_the_page_state_read_by_hand_is_the_models_state(
        make_tournament: Callable[..., Any]) -> None:
    """``page_state`` writes its one query by hand: the same state the ORM reads."""
    from pages.selectors import page_state
    from tournaments.cache import state_of

    event = make_tournament("round_robin", entrants=4)
    fresh = Tournament.objects.select_related("club").get(pk=event.pk)
    state = page_state(fresh.club.slug, fresh.slug)
    assert state is not None and not state.live
    assert (state.state.version, state.state.saved_at) == \
        (state_of(fresh).version, state_of(fresh).saved_at)
    assert page_state(fresh.club.slug, "no-such-slug") is None
