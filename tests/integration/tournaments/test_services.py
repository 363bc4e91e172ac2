"""Services: the lifecycle of round robin, Swiss and knockout tournaments."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError, ConflictError
from games.series.format import MatchScore
from matches import services as match_services
from tournaments import services
from tournaments.models import Entrant, Pairing, ResultChange, Round, RoundEntry

pytestmark = pytest.mark.django_db


def test_create_validates_game_options_and_match_format(club_a: Any, organizer: Any) -> None:
    with pytest.raises(ApplicationError) as error:
        services.tournament_create(actor=organizer, club=club_a, name="X", game="kazambi",
                                   format="swiss", game_options={"rows": 99})
    assert error.value.field == "game_options"
    with pytest.raises(ApplicationError) as error:
        services.tournament_create(actor=organizer, club=club_a, name="X", game="kugamai",
                                   format="swiss", match_format="bo4")
    assert error.value.field == "match_format"
    with pytest.raises(ApplicationError) as error:
        services.tournament_create(actor=organizer, club=club_a, name="X", game="chess",
                                   format="swiss")
    assert error.value.field == "game"
    tournament = services.tournament_create(
        actor=organizer, club=club_a, name=" Spring Open ", game="kazambi-pairs",
        format="swiss", match_format="ft3/9", rounds_planned=5,
    )
    assert tournament.slug == "spring-open"
    assert tournament.entrant_kind == "teams"
    assert tournament.match_format == {"kind": "first_to", "games": 3, "max_games": 9,
                                       "duplicate": False}
    assert tournament.game_options == {"rows": 7, "cols": 8}


def test_other_club_organizer_cannot_create(club_a: Any, club_b: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.tournament_create(actor=club_b.organizers.get(), club=club_a, name="X",
                                   game="kugamai", format="swiss")


def test_round_robin_lifecycle(make_tournament: Any, play_round: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=5)
    assert sorted(tournament.entrants.values_list("seed", flat=True)) == [1, 2, 3, 4, 5]
    for _ in range(5):
        play_round(tournament)
    assert Round.objects.filter(tournament=tournament).count() == 5
    # every pair met exactly once, every entrant had one bye
    meetings = {
        frozenset((p.entrant_a_id, p.entrant_b_id))
        for p in Pairing.objects.filter(round__tournament=tournament, entrant_b__isnull=False)
    }
    assert len(meetings) == 10
    assert Pairing.objects.filter(round__tournament=tournament, outcome="bye").count() == 5
    with pytest.raises(ApplicationError, match="All 5 rounds"):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    finished = services.tournament_finish(actor=organizer, tournament=tournament)
    assert finished.status == "finished"


def test_pairing_refused_while_results_missing(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    missing = r"Round 1 still has 2 missing results \(boards 1, 2\)"
    with pytest.raises(ApplicationError, match=missing):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    with pytest.raises(ApplicationError, match="results are missing"):
        services.tournament_finish(actor=organizer, tournament=tournament)


def test_result_validates_against_match_format(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2, match_format="ft3")
    pairing = services.round_pair_next(actor=organizer, tournament=tournament,
                                       release=True).pairings.get()
    with pytest.raises(ApplicationError, match="cannot end 3-3") as error:
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(3, 3, 0),
                               expected_version=1)
    assert error.value.field == "score"
    with pytest.raises(ApplicationError, match="not over"):
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(2, 1, 0),
                               expected_version=1)
    with pytest.raises(ApplicationError, match="means a wins"):
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(3, 1, 2),
                               outcome="b_wins", expected_version=1)
    recorded = match_services.result_record(actor=organizer, pairing=pairing,
                                      score=MatchScore(3, 1, 2), expected_version=1)
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.wins_a, pairing.wins_b, pairing.draws) == ("a_wins", 3, 1, 2)
    assert pairing.version == 2 and recorded.warning == ""
    change = ResultChange.objects.get()
    assert change.before["outcome"] == "pending" and change.after["outcome"] == "a_wins"
    assert change.changed_by == organizer
    assert pairing.round.__class__.objects.get(pk=pairing.round_id).status == "finished"


def test_stale_write_is_refused(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2)
    pairing = services.round_pair_next(actor=organizer, tournament=tournament,
                                       release=True).pairings.get()
    match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                           expected_version=1)
    with pytest.raises(ConflictError, match="changed since you loaded it"):
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(0, 1, 0),
                               expected_version=1)
    pairing.refresh_from_db()
    assert pairing.outcome == "a_wins" and pairing.version == 2
    assert ResultChange.objects.count() == 1


def test_correcting_an_old_round_warns(make_tournament: Any, play_round: Any,
                                       organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    first = play_round(tournament)
    play_round(tournament)
    board = first.pairings.get(board=1)
    recorded = match_services.result_record(actor=organizer, pairing=board, outcome="draw",
                                      score=MatchScore(0, 0, 1), expected_version=board.version)
    assert "Round 1 is already followed by round 2" in recorded.warning
    assert "from a wins 1-0 to draw 0-0 (1 drawn)" in recorded.warning
    assert ResultChange.objects.filter(pairing=board).latest("id").warning == recorded.warning
    with pytest.raises(ApplicationError, match="corrected but not cleared"):
        match_services.result_record(actor=organizer, pairing=board, outcome="pending",
                               expected_version=board.version + 1)


def test_swiss_with_byes_withdrawals_and_late_entry(
    make_tournament: Any, play_round: Any, organizer: Any, make_players: Any
) -> None:
    tournament = make_tournament("swiss", entrants=7, rounds_planned=4)
    entrants = list(tournament.entrants.order_by("seed"))
    services.bye_request(actor=organizer, entrant=entrants[0], round_number=2, kind="half_point")
    round1 = play_round(tournament)
    byes = round1.pairings.filter(entrant_b__isnull=True)
    assert [(b.bye_kind, b.outcome) for b in byes] == [("pairing_allocated", "bye")]
    assert round1.pairings.count() == 4
    assert RoundEntry.objects.filter(round=round1).count() == 7

    services.entrant_withdraw(actor=organizer, entrant=entrants[1])
    late = make_players(1)[0]
    newcomer = services.entrant_register(actor=organizer, tournament=tournament, player=late,
                                         rating=1500)
    assert newcomer.joined_round == 2 and newcomer.seed == 8
    round2 = play_round(tournament)
    in_round2 = set(RoundEntry.objects.filter(round=round2).values_list("entrant_id", flat=True))
    assert entrants[1].pk not in in_round2
    assert newcomer.pk in in_round2
    half = round2.pairings.get(entrant_a=entrants[0])
    assert (half.entrant_b, half.bye_kind) == (None, "half_point")
    # 7 entrants play (6 old + newcomer), one of them requested a bye: 6 paired, no bye left
    assert round2.pairings.filter(entrant_b__isnull=False).count() == 3
    with pytest.raises(ApplicationError, match="already paired"):
        services.bye_request(actor=organizer, entrant=entrants[2], round_number=2)
    play_round(tournament)
    play_round(tournament)
    with pytest.raises(ApplicationError, match="All 4 planned rounds"):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    # nobody met the same opponent twice
    meetings = [
        frozenset((p.entrant_a_id, p.entrant_b_id))
        for p in Pairing.objects.filter(round__tournament=tournament, entrant_b__isnull=False)
    ]
    assert len(meetings) == len(set(meetings))


def test_swiss_forbidden_pairing(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    e = list(tournament.entrants.order_by("seed"))
    services.forbid_pairing(actor=organizer, tournament=tournament, entrant_a=e[2],
                            entrant_b=e[0])
    round1 = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    pairs = {frozenset((p.entrant_a_id, p.entrant_b_id)) for p in round1.pairings.all()}
    assert frozenset((e[0].pk, e[2].pk)) not in pairs


def test_withdrawal_rules(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    entrant = tournament.entrants.first()
    services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    with pytest.raises(ApplicationError, match="record a forfeit") as error:
        services.entrant_withdraw(actor=organizer, entrant=entrant, from_round=1)
    assert error.value.field == "from_round"
    withdrawn = services.entrant_withdraw(actor=organizer, entrant=entrant)
    assert withdrawn.withdrawn_from_round == 2


def test_round_robin_withdrawal_gives_forfeits(make_tournament: Any, play_round: Any,
                                               organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    play_round(tournament)
    leaver = tournament.entrants.get(seed=1)
    services.entrant_withdraw(actor=organizer, entrant=leaver)
    round2 = play_round(tournament)
    theirs = round2.pairings.get(entrant_a=leaver) if round2.pairings.filter(
        entrant_a=leaver).exists() else round2.pairings.get(entrant_b=leaver)
    assert theirs.outcome in ("a_forfeit_win", "b_forfeit_win")
    assert theirs.version == 1


def test_late_entry_refused_in_round_robin(make_tournament: Any, organizer: Any,
                                           make_players: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    with pytest.raises(ApplicationError, match="only in a Swiss"):
        services.entrant_register(actor=organizer, tournament=tournament,
                                  player=make_players(1)[0])


def test_team_game_needs_teams(club_a: Any, organizer: Any, make_players: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Pairs",
                                            game="kazambi-pairs", format="round_robin")
    with pytest.raises(ApplicationError, match="played by teams") as error:
        services.entrant_register(actor=organizer, tournament=tournament,
                                  player=make_players(1)[0])
    assert error.value.field == "team"


def test_knockout_lifecycle_with_tiebreak_decision(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("knockout", entrants=6, third_place_match=True,
                                 match_format="fixed2")
    round1 = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    # 6 entrants in a bracket of 8: seeds 1 and 2 have byes, so two matches are played
    assert sorted(round1.pairings.values_list("bracket_match", flat=True)) == ["W1-2", "W1-3"]
    level = round1.pairings.get(bracket_match="W1-2")
    with pytest.raises(ApplicationError, match="knockout needs a winner"):
        match_services.result_record(actor=organizer, pairing=level, score=MatchScore(1, 1, 0),
                               expected_version=1)
    match_services.result_record(actor=organizer, pairing=level, score=MatchScore(1, 1, 0),
                           outcome="b_wins", expected_version=1)
    with pytest.raises(ApplicationError, match="double forfeit"):
        match_services.result_record(actor=organizer,
                                     pairing=round1.pairings.get(bracket_match="W1-3"),
                                     outcome="double_forfeit", expected_version=1)
    match_services.result_record(actor=organizer,
                                 pairing=round1.pairings.get(bracket_match="W1-3"),
                           score=MatchScore(2, 0, 0), expected_version=1)
    round2 = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert sorted(round2.pairings.values_list("bracket_match", flat=True)) == ["W2-1", "W2-2"]
    winner_of_level = level.entrant_b_id
    assert round2.pairings.filter(entrant_b_id=winner_of_level).exists() or \
        round2.pairings.filter(entrant_a_id=winner_of_level).exists()
    # the winner went on: changing who won round 1 is refused
    level.refresh_from_db()
    with pytest.raises(ApplicationError, match="cannot be corrected"):
        match_services.result_record(actor=organizer, pairing=level, score=MatchScore(1, 1, 0),
                               outcome="a_wins", expected_version=level.version)
    for pairing in round2.pairings.all():
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(2, 0, 0),
                               expected_version=1)
    round3 = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert sorted(round3.pairings.values_list("bracket_match", flat=True)) == ["3RD", "W3-1"]
    for pairing in round3.pairings.all():
        match_services.result_record(actor=organizer, pairing=pairing, score=MatchScore(0, 2, 0),
                               expected_version=1)
    with pytest.raises(ApplicationError, match="bracket is complete"):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert services.tournament_finish(actor=organizer, tournament=tournament).status == "finished"


def test_double_elimination_runs_to_the_end(make_tournament: Any, play_round: Any,
                                            organizer: Any) -> None:
    tournament = make_tournament("double_elimination", entrants=4)
    rounds = 0
    while True:
        try:
            play_round(tournament, lambda p: MatchScore(0, 1, 0))
        except ApplicationError as error:
            assert "bracket is complete" in str(error)
            break
        rounds += 1
        assert rounds < 10
    assert rounds >= 4


def test_start_requires_two_entrants_and_swiss_rounds(make_tournament: Any,
                                                      organizer: Any) -> None:
    lonely = make_tournament("round_robin", entrants=1, start=False)
    with pytest.raises(ApplicationError, match="at least two"):
        services.tournament_start(actor=organizer, tournament=lonely)
    swiss = make_tournament("swiss", entrants=4, start=False)
    with pytest.raises(ApplicationError) as error:
        services.tournament_start(actor=organizer, tournament=swiss)
    assert error.value.field == "rounds_planned"


def test_structural_fields_frozen_while_running(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    with pytest.raises(ApplicationError, match="match_format cannot change"):
        services.tournament_update(actor=organizer, tournament=tournament, match_format="bo3")
    updated = services.tournament_update(actor=organizer, tournament=tournament, name="Renamed",
                                         rounds_planned=5)
    assert (updated.name, updated.rounds_planned) == ("Renamed", 5)
    assert Entrant.objects.filter(tournament=tournament).count() == 4
