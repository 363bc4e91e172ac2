"""Results reported by the players (agreed, a conflict settled, a no-show made a forfeit)
give the same standings, games and ratings as the same results typed by the director."""

from __future__ import annotations

from typing import Any

import pytest

from games.series.format import MatchScore
from matches.models import Game
from matches.services.results import match_result_record
from playerlinks import services as links
from playerlinks.models import EntrantLink
from ratings.models import Rating
from reporting import selectors, services
from tournaments import selectors as tournament_selectors
from tournaments.models import Outcome, Tournament
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db

#: Per round, per board: the result (wins A, wins B) or a forfeit outcome.
RESULTS: list[list[Any]] = [
    [(2, 1), "a_forfeit_win", (0, 2)],
    [(1, 2), (2, 0), (2, 1)],
    [(2, 0), (0, 2), "b_forfeit_win"],
]


def _by_players(tournament: Tournament, organizer: Any, round_index: int) -> None:
    round_ = round_pair_next(actor=organizer, tournament=tournament, release=True)
    links.links_issue_missing(actor=organizer, tournament=tournament)
    for board, result in zip(round_.pairings.order_by("board"), RESULTS[round_index],
                             strict=True):
        assert board.entrant_b_id is not None
        link_a = EntrantLink.objects.live().get(entrant_id=board.entrant_a_id)
        link_b = EntrantLink.objects.live().get(entrant_id=board.entrant_b_id)
        if isinstance(result, str):  # the present side claims a no-show
            present = link_a if result == "a_forfeit_win" else link_b
            services.report_submit(link=present, pairing=board, kind="no_show")
            claim = selectors.latest_reports([board])[board.pk][0 if present is link_a else 1]
            services.report_resolve(actor=organizer, pairing=board, report=claim)
            continue
        services.report_submit(link=link_a, pairing=board, kind="score",
                               data={"wins_a": result[0], "wins_b": result[1]})
        if board.board == 1:  # B first claims the reverse: a conflict the director settles
            services.report_submit(link=link_b, pairing=board, kind="score",
                                   data={"wins_a": result[1], "wins_b": result[0]})
            claim_a = selectors.latest_reports([board])[board.pk][0]
            services.report_resolve(actor=organizer, pairing=board, report=claim_a)
        else:
            services.report_submit(link=link_b, pairing=board, kind="score",
                                   data={"wins_a": result[0], "wins_b": result[1]})
    services.reports_confirm_agreed(actor=organizer, round_=round_)


def _by_director(tournament: Tournament, organizer: Any, round_index: int) -> None:
    round_ = round_pair_next(actor=organizer, tournament=tournament, release=True)
    for board, result in zip(round_.pairings.order_by("board"), RESULTS[round_index],
                             strict=True):
        if isinstance(result, str):
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                outcome=result)
        else:
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                score=MatchScore(*result))


def _facts(tournament: Tournament) -> Any:
    rows = tournament_selectors.standings(tournament)["rows"]
    table = [(r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows]
    games = list(Game.objects.filter(pairing__round__tournament=tournament)
                 .order_by("pairing__round__number", "pairing__board", "number")
                 .values_list("pairing__round__number", "pairing__board", "number",
                              "winner_side"))
    outcomes = list(tournament.rounds.values_list("pairings__board", "pairings__outcome")
                    .order_by("number", "pairings__board"))
    seeds = dict(tournament.entrants.values_list("player_id", "seed"))
    ratings = sorted((seeds[r.player_id], r.rating)
                     for r in Rating.objects.filter(player_id__in=seeds))
    return table, games, outcomes, ratings


def test_reported_results_equal_typed_ones(make_event: Any, organizer: Any) -> None:
    reported = make_event("round_robin", entrants=6, match_format="bo3", rated=True)
    typed = make_event("round_robin", entrants=6, match_format="bo3", rated=True)
    for index in range(3):
        _by_players(reported, organizer, index)
        _by_director(typed, organizer, index)
    assert all(o != Outcome.PENDING for _b, o in _facts(reported)[2])
    (*reported_facts, reported_ratings) = _facts(reported)
    (*typed_facts, typed_ratings) = _facts(typed)
    assert reported_facts == typed_facts
    assert reported_ratings  # the events were rated
    # the same to the float sums' last digits (the two events share the club's pool)
    assert [seed for seed, _r in reported_ratings] == [seed for seed, _r in typed_ratings]
    assert [r for _s, r in reported_ratings] == pytest.approx([r for _s, r in typed_ratings],
                                                              abs=1e-6)
