"""Players report their board from their private links: checked as the director's entry is,
every submission kept, agreement confirmed by the director (or by itself), conflicts and
no-show claims settled by the director, the director's own entry winning."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.services.results import match_result_record
from playerlinks import services as links
from reporting import selectors, services
from reporting.board import State
from reporting.models import ResultReport
from tests.integration.reporting.conftest import board_links
from tournaments.models import Outcome, TournamentEvent
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


def score(link: Any, pairing: Any, wins_a: int, wins_b: int, draws: int = 0) -> Any:
    return services.report_submit(link=link, pairing=pairing, kind="score",
                                  data={"wins_a": wins_a, "wins_b": wins_b, "draws": draws})


def test_both_sides_agree_and_the_director_confirms(reporting_event: Any,
                                                    organizer: Any) -> None:
    tournament, round_, found = reporting_event(match_format="bo3")
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    assert score(a, pairing, 2, 1).state == State.ONE_SIDE
    done = services.report_submit(link=b, pairing=pairing, kind="games",
                                  data={"games": ["a", "b", "a"]})
    assert done.state == State.AGREED and done.recorded is None
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.PENDING  # the director confirms
    services.report_confirm(actor=organizer, pairing=pairing)
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.wins_a, pairing.wins_b) == (Outcome.A_WINS, 2, 1)
    assert pairing.games.count() == 3
    with pytest.raises(ApplicationError, match="already recorded"):
        score(a, pairing, 2, 0)


def test_agreed_results_recorded_by_themselves_when_the_tournament_says_so(
        reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event()
    services.reporting_settings_set(actor=organizer, tournament=tournament, enabled=True,
                                    auto_confirm=True)
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    score(a, pairing, 0, 1)
    done = score(b, pairing, 0, 1)
    assert done.recorded is not None
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.B_WINS
    line = TournamentEvent.objects.filter(tournament=tournament, kind="result_recorded").get()
    assert line.actor is None and line.actor_name == "player reports"


def test_confirm_all_agreed_of_a_round(reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event(entrants=6)
    first, second, third = round_.pairings.order_by("board")
    for pairing in (first, second):
        a, b = board_links(pairing, found)
        score(a, pairing, 1, 0)
        score(b, pairing, 1, 0)
    a, b = board_links(third, found)
    score(a, third, 1, 0)
    score(b, third, 0, 1)  # a conflict stays for the director
    assert services.reports_confirm_agreed(actor=organizer, round_=round_) == 2
    outcomes = list(round_.pairings.order_by("board").values_list("outcome", flat=True))
    assert outcomes == [Outcome.A_WINS, Outcome.A_WINS, Outcome.PENDING]
    assert [p.board for p in selectors.open_issues(tournament)] == [third.board]


def test_a_conflict_blocks_pairing_until_the_director_resolves_it(
        reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event(entrants=4)
    first, second = round_.pairings.order_by("board")
    a, b = board_links(first, found)
    score(a, first, 1, 0)
    score(b, first, 0, 1)
    a2, _b2 = board_links(second, found)
    services.report_submit(link=a2, pairing=second, kind="no_show")
    assert selectors.state_of(selectors.latest_reports([second])[second.pk]) == State.NO_SHOW
    assert len(selectors.open_issues(tournament)) == 2
    # the listener names the boards (the missing results would refuse it as well)
    from tournaments.events import PairingAsked
    with pytest.raises(ApplicationError, match=r"boards 1\.1, 1\.2 are in conflict"):
        services.refuse_pairing_with_open_issues(PairingAsked(tournament.pk, 2))
    with pytest.raises(ApplicationError):
        round_pair_next(actor=organizer, tournament=tournament, release=True)

    claim_b = ResultReport.objects.filter(pairing=first, entrant=first.entrant_b).get()
    services.report_resolve(actor=organizer, pairing=first, report=claim_b)
    no_show = ResultReport.objects.get(pairing=second)
    services.report_resolve(actor=organizer, pairing=second, report=no_show)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.outcome == Outcome.B_WINS
    assert second.outcome == Outcome.A_FORFEIT_WIN and second.games.count() == 0
    assert selectors.open_issues(tournament) == []
    assert round_pair_next(actor=organizer, tournament=tournament, release=True).number == 2


def test_the_directors_own_entry_wins(reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    score(a, pairing, 1, 0)
    score(b, pairing, 0, 1)
    match_result_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                        score=MatchScore(0, 1))
    assert selectors.open_issues(tournament) == []
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.B_WINS
    assert ResultReport.objects.filter(pairing=pairing).count() == 2  # kept, now overridden
    with pytest.raises(ApplicationError, match="already"):
        services.report_confirm(actor=organizer, pairing=pairing)


def test_every_submission_is_kept_and_the_latest_counts(reporting_event: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    score(a, pairing, 0, 1)
    score(a, pairing, 1, 0)  # a typo put right
    assert score(b, pairing, 1, 0).state == State.AGREED
    kept = list(ResultReport.objects.filter(pairing=pairing).order_by("id"))
    assert [(r.entrant_id, r.outcome) for r in kept] == [
        (pairing.entrant_a_id, "b_wins"), (pairing.entrant_a_id, "a_wins"),
        (pairing.entrant_b_id, "a_wins")]
    assert all(r.link_id and r.submitted_at for r in kept)


def test_a_link_writes_only_its_own_open_board(reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event()
    first, second = round_.pairings.order_by("board")
    a, _b = board_links(first, found)
    with pytest.raises(ApplicationError, match="only its own board") as refused:
        score(a, second, 1, 0)
    assert refused.value.field == "pairing"
    links.link_revoke(actor=organizer, link=a)
    with pytest.raises(ApplicationError, match="revoked"):
        score(a, first, 1, 0)
    assert not ResultReport.objects.exists()


def test_a_draft_round_takes_no_reports(make_event: Any, organizer: Any) -> None:
    tournament = make_event("swiss", entrants=2, rounds_planned=3)
    round_ = round_pair_next(actor=organizer, tournament=tournament, release=False)
    links.links_issue_missing(actor=organizer, tournament=tournament)
    pairing = round_.pairings.get()
    link = pairing.entrant_a.links.get()
    with pytest.raises(ApplicationError, match="not published") as refused:
        score(link, pairing, 1, 0)
    assert refused.value.field == "round"
    assert not ResultReport.objects.exists()


def test_reporting_switched_off(reporting_event: Any, organizer: Any) -> None:
    tournament, round_, found = reporting_event()
    services.reporting_settings_set(actor=organizer, tournament=tournament, enabled=False,
                                    auto_confirm=False)
    pairing = round_.pairings.order_by("board").first()
    with pytest.raises(ApplicationError, match="do not report"):
        score(board_links(pairing, found)[0], pairing, 1, 0)


@pytest.mark.parametrize(("kind", "data", "field", "message"), [
    ("score", {"wins_a": 1, "wins_b": 0, "draws": 1}, "draws", "no draws"),
    ("games", {"games": ["a", "draw", "a"]}, "games", "no draws"),
    ("score", {"wins_a": 3, "wins_b": 0}, "score", ""),  # best of 3 ends at 2
    ("score", {"wins_a": 1, "wins_b": 1}, "score", ""),  # not over
    ("games", {"games": ["a", "a", "b"]}, "games", "decided"),  # the series' order
    ("games", {"games": ["a", "b", "a", "b"]}, "games", "at most 3"),
    ("games", {"games": ["a", "x"]}, "games", "a, b or draw"),
    ("games", {"games": "aa"}, "games", ""),
    ("score", {"wins_a": "-1", "wins_b": 2}, "wins_a", "whole number"),
    ("score", {"wins_a": "10" * 40, "wins_b": 2}, "wins_a", "whole number"),
    ("score", {"wins_a": "2\x00", "wins_b": 0}, "wins_a", "whole number"),
    ("score", {"wins_a": 0, "wins_b": 0}, "wins_a", ""),
    ("shrug", {}, "kind", ""),
])
def test_bad_claims_follow_the_games_rules_and_change_nothing(
        reporting_event: Any, kind: str, data: dict[str, Any], field: str,
        message: str) -> None:
    tournament, round_, found = reporting_event(game="kazambi", match_format="bo3")
    pairing = round_.pairings.order_by("board").first()
    version = pairing.version
    a, _b = board_links(pairing, found)
    with pytest.raises(ApplicationError, match=message or None) as refused:
        services.report_submit(link=a, pairing=pairing, kind=kind, data=data)
    assert refused.value.field == field
    assert not ResultReport.objects.exists()
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.version) == (Outcome.PENDING, version)


def test_only_organizers_of_the_club_confirm(reporting_event: Any, club_b: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    score(a, pairing, 1, 0)
    score(b, pairing, 1, 0)
    with pytest.raises(PermissionDenied):
        services.report_confirm(actor=club_b.organizers.get(), pairing=pairing)
    with pytest.raises(PermissionDenied):
        services.reports_confirm_agreed(actor=club_b.organizers.get(), round_=round_)
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.PENDING


def test_a_knockout_level_score_names_the_tie_break_winner(reporting_event: Any,
                                                          organizer: Any,
                                                          client: Any) -> None:
    tournament, round_, found = reporting_event(format="knockout", entrants=4,
                                                rounds_planned=None, match_format="single")
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    level = {"wins_a": 0, "wins_b": 0, "draws": 1}
    with pytest.raises(ApplicationError, match="knockout needs a winner") as refused:
        services.report_submit(link=a, pairing=pairing, kind="score", data=level)
    assert refused.value.field == "outcome"
    page = client.get(f"/p/{found[a.entrant_id][1]}/report/").content.decode()
    assert 'name="outcome"' in page
    services.report_submit(link=a, pairing=pairing, kind="score",
                           data={**level, "outcome": "b_wins"})
    done = services.report_submit(link=b, pairing=pairing, kind="score",
                                  data={**level, "outcome": "b_wins"})
    assert done.state == State.AGREED
    services.report_confirm(actor=organizer, pairing=pairing)
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.draws) == (Outcome.B_WINS, 1)


def test_a_huge_list_of_games_is_refused_at_once(reporting_event: Any) -> None:
    tournament, round_, found = reporting_event(match_format="bo3")
    pairing = round_.pairings.order_by("board").first()
    a, _b = board_links(pairing, found)
    with pytest.raises(ApplicationError, match="at most 3") as refused:
        services.report_submit(link=a, pairing=pairing, kind="games",
                               data={"games": ["a"] * 100_000})
    assert refused.value.field == "games"
    with pytest.raises(ApplicationError) as refused:
        services.report_submit(link=a, pairing=pairing, kind="score\x00", data={})
    assert refused.value.field == "kind"
    assert not ResultReport.objects.exists()


def test_settling_a_board_recorded_meanwhile_is_refused(reporting_event: Any,
                                                        organizer: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    score(a, pairing, 1, 0)
    score(b, pairing, 0, 1)
    claim = selectors.latest_reports([pairing])[pairing.pk][1]
    match_result_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                        score=MatchScore(1, 0))  # another director, from the round page
    with pytest.raises(ApplicationError, match="already has its result"):
        services.report_resolve(actor=organizer, pairing=pairing, report=claim)
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.wins_a) == (Outcome.A_WINS, 1)
