"""Standings, crosstable and round-by-round selectors; a constant number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.series.format import MatchScore
from tournaments import selectors, services
from tournaments.models import Entrant, Pairing, Round, RoundEntry

pytestmark = pytest.mark.django_db


def test_round_robin_standings_and_crosstable(make_tournament: Any, play_round: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4,
                                 tiebreaks=["sonneborn_berger", "wins"])
    # the first mover always wins
    for _ in range(3):
        play_round(tournament, lambda p: MatchScore(1, 0, 0))
    table = selectors.standings(tournament)
    assert table["after_round"] == 3
    assert sum(row["points"] for row in table["rows"]) == 6
    assert [set(row) for row in table["rows"]][0] >= {"rank", "name", "points", "tiebreaks"}
    assert set(table["rows"][0]["tiebreaks"]) == {"sonneborn_berger", "wins"}
    cross = selectors.crosstable(tournament)
    assert len(cross["rows"]) == 4
    first = cross["rows"][0]
    assert first["entrant"]["name"].startswith("Player")
    assert sum(cell is not None for cell in first["cells"]) == 3
    rbr = selectors.round_by_round(tournament)
    assert len(rbr["rows"][0]["rounds"]) == 3
    csv_text = selectors.standings_csv(tournament)
    assert csv_text.splitlines()[0] == "rank,seed,name,rating,points,sonneborn_berger,wins"
    assert len(csv_text.splitlines()) == 5


def test_standings_stop_at_the_last_complete_round(make_tournament: Any, play_round: Any,
                                                   organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    play_round(tournament)
    services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    table = selectors.standings(tournament)
    assert table["after_round"] == 1
    assert sorted(row["points"] for row in table["rows"]) == [0, 0, 1, 1]


def test_knockout_standings_are_placements(make_tournament: Any, play_round: Any) -> None:
    tournament = make_tournament("knockout", entrants=4)
    play_round(tournament)
    play_round(tournament)
    rows = selectors.standings(tournament)["rows"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 3]


def _big_swiss(make_tournament: Any, entrants: int, rounds: int) -> Any:
    """A Swiss after ``rounds`` rounds, written straight to the tables (fast)."""
    tournament = make_tournament("swiss", entrants=entrants, rounds_planned=rounds)
    people = list(Entrant.objects.filter(tournament=tournament).order_by("seed"))
    half = entrants // 2
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="finished",
                                      released_at=timezone.now())
        pairings = []
        for board in range(half):
            a, b = people[board], people[half + (board + number) % half]
            outcome = ("a_wins", "b_wins", "draw")[(board + number) % 3]
            score = {"a_wins": (1, 0, 0), "b_wins": (0, 1, 0), "draw": (0, 0, 1)}[outcome]
            pairings.append(Pairing(round=round_, board=board + 1, entrant_a=a, entrant_b=b,
                                    outcome=outcome, wins_a=score[0], wins_b=score[1],
                                    draws=score[2]))
        Pairing.objects.bulk_create(pairings)
        RoundEntry.objects.bulk_create(
            RoundEntry(round=round_, entrant=e, pairing=p)
            for p in pairings for e in (p.entrant_a, p.entrant_b) if e is not None
        )
    return tournament


@pytest.mark.slow
def test_standings_queries_do_not_grow(make_tournament: Any,
                                       django_assert_num_queries: Any) -> None:
    tournament = _big_swiss(make_tournament, entrants=200, rounds=9)
    tournament.tiebreaks = ["buchholz_cut1", "buchholz", "sonneborn_berger"]
    with django_assert_num_queries(2):
        table = selectors.standings(tournament)
    assert len(table["rows"]) == 200 and table["after_round"] == 9
    with django_assert_num_queries(2):
        selectors.round_by_round(tournament)
    with django_assert_num_queries(2):
        selectors.crosstable(tournament)
