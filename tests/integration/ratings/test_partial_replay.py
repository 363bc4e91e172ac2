"""A replay from the first affected game gives exactly what a rebuild of the whole pool
gives: after late games, corrections, deletions and a rated flag switched off and on."""

from __future__ import annotations

from typing import Any

import pytest

from games.series import MatchScore
from matches.models import Game
from matches.services import match_result_record
from matches.services.games import game_delete
from ratings import services
from ratings.models import Rating, RatingChange
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _snapshot() -> tuple[list[Any], list[Any]]:
    ratings = sorted(Rating.objects.values_list(
        "player_id", "family", "system", "rating", "rd", "volatility", "games",
        "last_played_at", "peak_rating", "is_provisional"))
    changes = sorted(RatingChange.objects.values_list(
        "player_id", "game_id", "rating_before", "rating_after", "rd_before", "rd_after",
        "volatility_after", "played_at"))
    return ratings, changes


def _same_as_a_full_rebuild() -> None:
    partial = _snapshot()
    services.ratings_recompute()
    full = _snapshot()
    assert _close(partial, full)


def _close(got: tuple[list[Any], list[Any]], want: tuple[list[Any], list[Any]]) -> bool:
    for rows, wanted in zip(got, want, strict=True):
        assert len(rows) == len(wanted)
        for row, expected in zip(rows, wanted, strict=True):
            for value, other in zip(row, expected, strict=True):
                if isinstance(value, float):
                    assert value == pytest.approx(other, abs=1e-9), (row, expected)
                else:
                    assert value == other, (row, expected)
    return True


def test_late_older_games_replay_from_their_place(record_game: Any, players: Any) -> None:
    people = players(5)
    for round_number, (a, b, winner) in enumerate(
            [(0, 1, 0), (2, 3, 1), (0, 2, None), (1, 4, 0), (3, 4, 1)], start=1):
        game = record_game(people[a], people[b], winner, day=round_number, round=round_number)
        services.rating_apply_game(game)
    late = record_game(people[1], people[2], 1, day=2, round=2)  # saved after round 5
    services.rating_apply_game(late)
    _same_as_a_full_rebuild()


@pytest.mark.parametrize("system", ["glicko2", "elo"])
def test_corrections_and_deletions_replay_from_the_board(make_event: Any, organizer: Any,
                                                         club_a: Any, system: str) -> None:
    club_a.rating_settings = {"system": system}
    club_a.save()
    tournament = make_event(format="round_robin", entrants=5, match_format="bo3")
    for number in range(3):
        round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                     release=True)
        for board in round_.pairings.filter(entrant_b__isnull=False):
            score = MatchScore(2, 1) if (board.board + number) % 2 else MatchScore(0, 2)
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                score=score)
    _same_as_a_full_rebuild()
    first = tournament.rounds.get(number=1).pairings.filter(entrant_b__isnull=False).first()
    match_result_record(actor=organizer, pairing=first, expected_version=first.version,
                        score=MatchScore(1, 2))
    _same_as_a_full_rebuild()
    second = tournament.rounds.get(number=2).pairings.filter(entrant_b__isnull=False).first()
    game = Game.objects.filter(pairing=second).order_by("number").last()
    assert game is not None
    match_result_record(actor=organizer, pairing=second, expected_version=second.version,
                        outcome="a_forfeit_win")  # its games go
    _same_as_a_full_rebuild()
    third = tournament.rounds.get(number=3).pairings.filter(entrant_b__isnull=False).last()
    game_delete(actor=organizer, game=Game.objects.filter(pairing=third).earliest("number"))
    _same_as_a_full_rebuild()
    tournament = tournament_services.tournament_update(actor=organizer, tournament=tournament,
                                                       rated=False)
    _same_as_a_full_rebuild()
    tournament_services.tournament_update(actor=organizer, tournament=tournament, rated=True)
    _same_as_a_full_rebuild()
