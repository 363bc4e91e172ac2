"""Tournament pages and their API answers carry ETags derived from the tournament's
version; every writer bumps it, so a poll gets 304 until a result, game, round or entrant
is written, and cached standings never outlive their version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from games.series.format import MatchScore
from matches import services as match_services
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _page(t: Tournament) -> str:
    return reverse("pages:tournament-detail", args=[t.club.slug, t.slug])


def _results(t: Tournament) -> str:
    return reverse("pages:tournament-results", args=[t.club.slug, t.slug])


def _version(t: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=t.pk)


def _urls(t: Tournament) -> list[str]:
    return [_page(t), _results(t), f"/api/tournaments/{t.pk}/standings/",
            f"/api/tournaments/{t.pk}/crosstable/", f"/api/tournaments/{t.pk}/round-by-round/"]


def test_every_writer_bumps_the_version(make_tournament: Callable[..., Any],
                                        organizer: Any, make_players: Any) -> None:
    swiss = make_tournament("swiss", entrants=5, start=False, rounds_planned=3)
    seen = [_version(swiss)]
    services.entrant_register(actor=organizer, tournament=swiss,
                              player=make_players(1)[0], rating=1500)
    seen.append(_version(swiss))
    swiss = services.tournament_start(actor=organizer, tournament=swiss)
    round_ = services.round_pair_next(actor=organizer, tournament=swiss, release=True)
    seen.append(_version(swiss))
    pairing = round_.pairings.exclude(entrant_b=None).order_by("board").first()
    assert pairing is not None
    match_services.match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                                 expected_version=pairing.version)
    seen.append(_version(swiss))
    entrant = swiss.entrants.order_by("-seed").first()
    assert entrant is not None
    services.entrant_withdraw(actor=organizer, entrant=entrant)
    seen.append(_version(swiss))
    assert seen == sorted(set(seen)), seen  # each write bumped it


def test_a_game_entered_alone_bumps_the_version(make_tournament: Callable[..., Any],
                                                organizer: Any) -> None:
    from matches.services.games import game_entry_record

    event = make_tournament("round_robin", entrants=2,
                            match_format={"kind": "best_of", "games": 3})
    round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
    pairing = round_.pairings.get()
    before = _version(event)
    game_entry_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                      result="a")
    assert _version(event) > before


@pytest.mark.parametrize("which", range(5))
def test_poll_gets_304_until_a_result_is_saved(client: Client, which: int,
                                               make_tournament: Callable[..., Any],
                                               organizer: Any,
                                               django_assert_max_num_queries: Any) -> None:
    event = make_tournament("round_robin", entrants=4)
    round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
    url = _urls(event)[which]
    first = client.get(url)
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith('W/"') and first["Cache-Control"] == "no-cache"
    with django_assert_max_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and not again.content
    pairing = round_.pairings.order_by("board").first()
    assert pairing is not None
    match_services.match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                                 expected_version=pairing.version)
    after = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and after["ETag"] != tag


def test_cached_page_shows_the_new_result_at_once(client: Client, organizer: Any,
                                                  make_tournament: Callable[..., Any],
                                                  django_assert_max_num_queries: Any) -> None:
    event = make_tournament("round_robin", entrants=4)
    round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
    assert "playing" in client.get(_page(event)).content.decode()
    with django_assert_max_num_queries(1):  # the tournament row; the rest from the cache
        assert client.get(_page(event)).status_code == 200
    for pairing in round_.pairings.all():
        match_services.match_result_record(actor=organizer, pairing=pairing,
                                     score=MatchScore(0, 1, 0), expected_version=pairing.version)
    page = client.get(_page(event)).content.decode()
    assert "playing" not in page and "Standings after round 1" in page
    standings = client.get(f"/api/tournaments/{event.pk}/standings/").json()
    assert standings["after_round"] == 1


def test_editing_the_tournament_changes_the_tag(client: Client, organizer: Any,
                                                make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    tag = client.get(_page(event))["ETag"]
    services.tournament_update(actor=organizer, tournament=event, name="Renamed Cup")
    answer = client.get(_page(event), HTTP_IF_NONE_MATCH=tag)
    assert answer.status_code == 200 and "Renamed Cup" in answer.content.decode()


def test_api_tags_differ_by_format(client: Client, make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    url = f"/api/tournaments/{event.pk}/standings/"
    assert client.get(url)["ETag"] != client.get(url, HTTP_ACCEPT="text/html")["ETag"]


@override_settings(CACHES={"default": {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there: every cache call fails
}})
def test_a_failing_cache_is_read_around(client: Client, organizer: Any,
                                        make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    services.round_pair_next(actor=organizer, tournament=event, release=True)
    assert client.get(_page(event)).status_code == 200
    assert client.get(f"/api/tournaments/{event.pk}/standings/").status_code == 200
