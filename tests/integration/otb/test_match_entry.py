"""Match-score entry stores the games it implies; per-game entry replays records."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError, ConflictError
from games.engines import get_engine
from games.series import MatchScore, deal_for_game, game_roles
from matches.models import Game
from matches.services.games import game_entry_record
from matches.services.results import (
    BoardEntry,
    RoundResultsError,
    canonical_game_order,
    match_result_record,
    parse_game_record,
    round_results_record,
)
from tests.integration.otb.conftest import boards
from tournaments.models import Outcome, ResultChange
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


def winners(pairing: Any) -> list[int | None]:
    return [g.winner_side for g in Game.objects.filter(pairing=pairing).order_by("number")]


def played_record(index: int, seed: int = 11) -> dict[str, Any]:
    engine = get_engine("kugamai")
    state = engine.new_game(deal=deal_for_game("kugamai", {}, seed, game_roles("kugamai", index)))
    while not engine.is_over(state):
        state = engine.play(state, engine.legal_moves(state)[-1])
    return engine.record(state)


def test_canonical_order_puts_draws_first_and_the_deciding_win_last() -> None:
    assert canonical_game_order(MatchScore(3, 1, 2)) == [None, None, 1, 0, 0, 0]
    assert canonical_game_order(MatchScore(0, 2, 0)) == [1, 1]
    assert canonical_game_order(MatchScore(2, 2, 1)) == [None, 0, 1, 0, 1]


def test_match_score_creates_the_games(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="ft3/9")
    pairing = boards(round_)[0]
    recorded = match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                                   score=MatchScore(3, 1, 2))
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.version) == (Outcome.A_WINS, 2)
    assert recorded.warning == ""
    assert winners(pairing) == [None, None, 1, 0, 0, 0]
    games = list(Game.objects.filter(pairing=pairing).order_by("number"))
    assert [g.first_side for g in games] == [0, 1, 0, 1, 0, 1]
    assert all(g.recorded_by == organizer for g in games)
    assert ResultChange.objects.filter(pairing=pairing).count() == 1
    # games are rated one by one (the tournament is rated)
    from ratings.models import RatingChange

    assert RatingChange.objects.filter(game__pairing=pairing).count() == 2 * 6


def test_impossible_score_is_refused_and_creates_nothing(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo3")
    pairing = boards(round_)[0]
    with pytest.raises(ApplicationError, match="stops at 2 wins") as caught:
        match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                            score=MatchScore(3, 0, 0))
    assert caught.value.field == "score"
    assert not Game.objects.exists()


def test_forfeit_has_no_games_and_correction_replaces_games(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo3")
    first, second = boards(round_)
    match_result_record(actor=organizer, pairing=first, expected_version=1,
                        outcome=Outcome.B_FORFEIT_WIN)
    assert not Game.objects.filter(pairing=first).exists()
    match_result_record(actor=organizer, pairing=second, expected_version=1,
                        score=MatchScore(2, 1, 0))
    assert winners(second) == [1, 0, 0]
    # correction (last round): the implied games follow the new score
    match_result_record(actor=organizer, pairing=second, expected_version=2,
                        score=MatchScore(0, 2, 0))
    assert winners(second) == [1, 1]
    second.refresh_from_db()
    assert (second.outcome, second.version) == (Outcome.B_WINS, 3)
    match_result_record(actor=organizer, pairing=second, expected_version=3,
                        outcome=Outcome.A_FORFEIT_WIN)
    assert winners(second) == []


def test_knockout_level_score_keeps_the_tie_break_rule(paired: Any, organizer: Any) -> None:
    round_ = paired(format="knockout", match_format="fixed2")
    pairing = boards(round_)[0]
    with pytest.raises(ApplicationError, match="tie-break"):
        match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                            score=MatchScore(1, 1, 0))
    match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                        score=MatchScore(1, 1, 0), outcome=Outcome.B_WINS)
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.B_WINS
    assert winners(pairing) == [0, 1]


def test_score_after_some_games_adds_only_the_missing_ones(paired: Any,
                                                           organizer: Any) -> None:
    round_ = paired(match_format="bo5")
    pairing = boards(round_)[0]
    game_entry_record(actor=organizer, pairing=pairing, expected_version=1, result="a")
    game_entry_record(actor=organizer, pairing=pairing, expected_version=2, result="a")
    match_result_record(actor=organizer, pairing=pairing, expected_version=3,
                        score=MatchScore(3, 1, 0))
    assert winners(pairing) == [0, 0, 1, 0]


def test_per_game_entry_with_forfeits_and_records(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="fixed4")
    pairing = boards(round_)[0]
    game_entry_record(actor=organizer, pairing=pairing, expected_version=1, result="b",
                      termination="time_forfeit")
    with pytest.raises(ApplicationError, match="needs a winner"):
        game_entry_record(actor=organizer, pairing=pairing, expected_version=2,
                          result="draw", termination="forfeit")
    record = played_record(1)
    recorded = game_entry_record(actor=organizer, pairing=pairing, expected_version=2,
                                 record=record)
    assert recorded.game.winner_side == record["result"]["winner"]
    assert recorded.game.move_count == len(record["moves"])
    bad = played_record(2)
    bad["moves"][2] = "0-0"
    with pytest.raises(ApplicationError, match=r"Game 3 record: move 3, 0-0") as caught:
        game_entry_record(actor=organizer, pairing=pairing, expected_version=3, record=bad)
    assert caught.value.field == "record"
    assert Game.objects.filter(pairing=pairing).count() == 2
    # a record cannot be overwritten by a typed score that disagrees
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.PENDING


def test_record_text_must_be_json() -> None:
    with pytest.raises(ApplicationError, match="not valid JSON: .* line 1, column 2"):
        parse_game_record("{moves")
    assert parse_game_record("  ") is None
    assert parse_game_record(b'{"game": "kugamai"}') == {"game": "kugamai"}


def test_second_director_is_refused_with_who_and_when(paired: Any, organizer: Any,
                                                      club_a: Any, make_user: Any) -> None:
    round_ = paired(match_format="bo3")
    pairing = boards(round_)[0]
    other = make_user("carol")
    club_a.organizers.add(other)
    match_result_record(actor=other, pairing=pairing, expected_version=1,
                        score=MatchScore(2, 0, 0))
    with pytest.raises(ConflictError, match=r"Board 1 was changed since you loaded it, by "
                                            r"carol at \d\d:\d\d: reload"):
        match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                            score=MatchScore(0, 2, 0))
    assert winners(pairing) == [0, 0]


def test_round_save_is_atomic(paired: Any, organizer: Any) -> None:
    round_ = paired(match_format="bo3", entrants=6)
    one, two, three = boards(round_)
    entries = [
        BoardEntry(one.pk, 1, MatchScore(2, 0, 0)),
        BoardEntry(two.pk, 1, MatchScore(2, 2, 0)),
        BoardEntry(three.pk, 7, MatchScore(0, 2, 0)),
    ]
    with pytest.raises(RoundResultsError) as caught:
        round_results_record(actor=organizer, round_=round_, entries=entries)
    assert [(e.board, e.field, e.code) for e in caught.value.errors] == [
        (2, "score", "invalid"), (3, None, "stale")]
    assert not Game.objects.exists()
    assert not ResultChange.objects.exists()
    one.refresh_from_db()
    assert (one.outcome, one.version) == (Outcome.PENDING, 1)
    entries[1:] = [BoardEntry(two.pk, 1, MatchScore(1, 2, 0)),
                   BoardEntry(three.pk, 1, None, Outcome.DOUBLE_FORFEIT)]
    round_results_record(actor=organizer, round_=round_, entries=entries)
    round_.refresh_from_db()
    assert round_.status == "finished"
    assert Game.objects.count() == 5


def test_correction_after_a_later_round_warns_and_is_logged(paired: Any,
                                                            organizer: Any) -> None:
    round_ = paired(match_format="single")
    first, second = boards(round_)
    for pairing in (first, second):
        match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                            score=MatchScore(1, 0, 0))
    round_pair_next(actor=organizer, tournament=round_.tournament, release=True)
    recorded = match_result_record(actor=organizer, pairing=first, expected_version=2,
                                   score=MatchScore(0, 1, 0))
    assert "already followed by round 2" in recorded.warning
    assert winners(first) == [1]
    log = list(ResultChange.objects.filter(pairing=first).order_by("id"))
    assert [c.after["outcome"] for c in log] == ["a_wins", "b_wins"]
    assert log[-1].before["outcome"] == "a_wins" and log[-1].changed_by == organizer
    assert log[-1].warning == recorded.warning


def test_other_clubs_organizer_changes_nothing(paired: Any, club_b: Any) -> None:
    from django.core.exceptions import PermissionDenied

    round_ = paired()
    pairing = boards(round_)[0]
    with pytest.raises(PermissionDenied):
        match_result_record(actor=club_b.organizers.get(), pairing=pairing,
                            expected_version=1, score=MatchScore(1, 0, 0))
    with pytest.raises(PermissionDenied):
        game_entry_record(actor=club_b.organizers.get(), pairing=pairing,
                          expected_version=1, result="a")
    assert not Game.objects.exists()
    pairing.refresh_from_db()
    assert pairing.version == 1
