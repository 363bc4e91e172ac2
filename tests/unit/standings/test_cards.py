"""Player cards: running scores, performance over rated games only, byes and forfeits."""

from __future__ import annotations

import pytest

from tournaments.standings import StandingsError, TournamentRecord
from tournaments.standings.cards import performance, player_card, player_cards, running_scores


def _record() -> TournamentRecord:
    return TournamentRecord.from_dict({
        "system": "swiss",
        "entrants": [
            {"id": "ana", "rating": 1800, "rounds": [
                {"opponent": "bo", "first_move": True, "result": "win"},
                {"opponent": "cy", "first_move": False, "result": "draw"},
                {"opponent": "di", "kind": "forfeit_win"}]},
            {"id": "bo", "rating": 1600, "rounds": [
                {"opponent": "ana", "first_move": False, "result": "loss"},
                {"kind": "pairing_bye"},
                {"opponent": "cy", "first_move": True, "result": "draw"}]},
            {"id": "cy", "rating": None, "rounds": [
                {"kind": "half_bye"},
                {"opponent": "ana", "first_move": True, "result": "draw"},
                {"opponent": "bo", "first_move": False, "result": "draw"}]},
            {"id": "di", "rating": 2000, "rounds": [
                {"kind": "zero_bye"}, {"kind": "zero_bye"},
                {"opponent": "ana", "kind": "forfeit_loss"}]},
        ],
    })


def test_running_scores_add_every_round_byes_and_forfeits_included() -> None:
    record = _record()
    assert running_scores(record, "ana") == [1.0, 1.5, 2.5]
    assert running_scores(record, "bo") == [0.0, 1.0, 1.5]
    assert running_scores(record, "cy") == [0.5, 1.0, 1.5]


def test_card_rounds_name_opponent_first_move_and_symbol() -> None:
    card = player_card(_record(), "ana")
    assert [(r.number, r.opponent, r.first_move, r.result) for r in card.rounds] == [
        (1, "bo", True, "1"), (2, "cy", False, "½"), (3, "di", None, "+")]
    assert card.points == 2.5


def test_performance_counts_games_over_the_board_against_rated_opponents() -> None:
    card = player_card(_record(), "ana")
    # cy is unrated, di's game is a forfeit: one rated game, won against 1600
    assert (card.rated_games, card.average_opponent_rating, card.performance) == (1, 1600, 2400)
    assert performance(_record(), "bo") == 1800 - 800


def test_no_rated_game_has_no_performance() -> None:
    card = player_card(_record(), "di")
    assert (card.rated_games, card.average_opponent_rating, card.performance) == (0, None, None)


def test_cards_of_everyone_match_single_cards() -> None:
    record = _record()
    cards = player_cards(record)
    assert list(cards) == ["ana", "bo", "cy", "di"]
    assert all(cards[key] == player_card(record, key) for key in cards)


def test_unknown_entrant_is_refused() -> None:
    with pytest.raises(StandingsError):
        player_card(_record(), "zed")
