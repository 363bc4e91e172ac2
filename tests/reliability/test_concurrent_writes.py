"""Parallel writes on separate database connections (threads): results and pairing.

Each thread uses its own connection (Django connections are per thread), so the row locks
and version checks of the services are what keep the writes apart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from core.errors import ConflictError
from games.series.format import MatchScore
from matches import services as match_services
from players.models import Player
from tournaments import services
from tournaments.models import Pairing, ResultChange, Round

pytestmark = pytest.mark.django_db(transaction=True)


def run_in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(index)`` in ``count`` threads started together; return what each gave
    (or the exception it raised)."""
    barrier = threading.Barrier(count)
    outcomes: list[Any] = [None] * count

    def target(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = work(index)
        except Exception as error:  # reported to the test, which judges it
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    return outcomes


@pytest.fixture
def running(club_a: Any) -> Any:
    """A running round robin of six players with round 1 paired."""
    alice = club_a.organizers.get()
    tournament = services.tournament_create(actor=alice, club=club_a, name="Busy cup",
                                            game="kugamai", format="round_robin")
    for index in range(6):
        player = Player.objects.create(display_name=f"P{index}", club=club_a)
        services.entrant_register(actor=alice, tournament=tournament, player=player,
                                  rating=2000 - index)
    return services.tournament_start(actor=alice, tournament=tournament)


def test_parallel_results_on_one_pairing_one_wins_the_others_conflict(
    running: Any, organizer: Any
) -> None:
    round_ = services.round_pair_next(actor=organizer, tournament=running, release=True)
    pairing = round_.pairings.order_by("board")[0]
    seen = pairing.version
    scores = [MatchScore(1, 0, 0), MatchScore(0, 1, 0), MatchScore(0, 0, 1),
              MatchScore(1, 0, 0)]

    def write(index: int) -> MatchScore:
        match_services.result_record(actor=organizer, pairing=Pairing.objects.get(pk=pairing.pk),
                               expected_version=seen, score=scores[index])
        return scores[index]

    outcomes = run_in_threads(len(scores), write)
    accepted = [o for o in outcomes if isinstance(o, MatchScore)]
    conflicts = [o for o in outcomes if isinstance(o, ConflictError)]
    assert len(accepted) == 1, outcomes
    assert len(conflicts) == len(scores) - 1, outcomes
    pairing.refresh_from_db()
    assert pairing.version == seen + 1
    assert MatchScore(pairing.wins_a, pairing.wins_b, pairing.draws) == accepted[0]
    changes = list(ResultChange.objects.filter(pairing=pairing))
    assert len(changes) == 1
    assert changes[0].after["version"] == seen + 1


def test_retrying_writers_lose_no_update(running: Any, organizer: Any) -> None:
    """Writers that reload and retry on conflict: every accepted write bumps the version
    by one and leaves exactly one ResultChange, in order."""
    round_ = services.round_pair_next(actor=organizer, tournament=running, release=True)
    pairing = round_.pairings.order_by("board")[0]
    start_version = pairing.version
    writes_each = 5

    def write(index: int) -> int:
        accepted = 0
        while accepted < writes_each:
            current = Pairing.objects.get(pk=pairing.pk)
            score = MatchScore(1, 0, 0) if (index + accepted) % 2 else MatchScore(0, 1, 0)
            try:
                match_services.result_record(actor=organizer, pairing=current,
                                       expected_version=current.version, score=score)
            except ConflictError:
                continue
            accepted += 1
        return accepted

    outcomes = run_in_threads(3, write)
    assert outcomes == [writes_each] * 3, outcomes
    pairing.refresh_from_db()
    total = 3 * writes_each
    assert pairing.version == start_version + total
    versions = sorted(change.after["version"]
                      for change in ResultChange.objects.filter(pairing=pairing))
    assert versions == list(range(start_version + 1, start_version + total + 1))
    befores = sorted(change.before["version"]
                     for change in ResultChange.objects.filter(pairing=pairing))
    assert befores == list(range(start_version, start_version + total))


def test_parallel_result_posts_through_the_api(running: Any, organizer: Any) -> None:
    round_ = services.round_pair_next(actor=organizer, tournament=running, release=True)
    pairing = round_.pairings.order_by("board")[0]

    def post(index: int) -> int:
        client = APIClient()
        client.force_authenticate(organizer)
        body = {"version": pairing.version, "wins_a": index % 2, "wins_b": 1 - index % 2}
        return int(client.post(f"/api/pairings/{pairing.pk}/result/", body,
                               format="json").status_code)

    codes = sorted(run_in_threads(3, post))
    assert codes == [200, 409, 409]
    assert ResultChange.objects.filter(pairing=pairing).count() == 1


def test_parallel_pairing_of_the_same_round_makes_one_round(
    running: Any, organizer: Any
) -> None:
    def pair(index: int) -> tuple[int, str]:
        client = APIClient()
        client.force_authenticate(organizer)
        response = client.post(f"/api/tournaments/{running.pk}/pair-next-round/")
        return int(response.status_code), response.json().get("detail", "")

    outcomes = sorted(run_in_threads(3, pair))
    assert [code for code, _ in outcomes] == [201, 400, 400], outcomes
    assert all("Round 1 still has 3 missing results" in detail
               for code, detail in outcomes if code == 400), outcomes
    assert Round.objects.filter(tournament=running).count() == 1
    assert Pairing.objects.filter(round__tournament=running).count() == 3
