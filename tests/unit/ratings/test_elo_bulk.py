"""The pure Elo replay: one change per player and game, in the order given."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ratings.maths import elo
from ratings.maths.bulk import RatedGame
from ratings.maths.elo_bulk import EloPlayerState, EloSettings, replay_elo
from ratings.maths.errors import RatingError

MONDAY = datetime(2026, 11, 30, 19, tzinfo=UTC)
TUESDAY = datetime(2026, 12, 1, 19, tzinfo=UTC)


def test_one_game_moves_both_players_by_the_fide_change() -> None:
    result = replay_elo([RatedGame(1, MONDAY, ((10,), (20,)), 0)], EloSettings(k=20))
    change = elo.rating_change_for_period(1500.0, [(1500.0, 1.0)], 20).change
    assert [(row.player_id, row.rating_after) for row in result.history] == [
        (10, 1500.0 + change), (20, 1500.0 - change)]
    assert result.ratings[10].games == 1 and result.ratings[10].last_played_at == MONDAY


def test_a_team_game_rates_each_member_against_the_other_team_s_mean() -> None:
    start = {1: EloPlayerState(1600.0, 30, None, 1600.0), 2: EloPlayerState(1400.0, 30, None,
                                                                          1400.0)}
    result = replay_elo([RatedGame(7, MONDAY, ((1, 2), (3, 4)), None)], EloSettings(k=10), start)
    by_player = {row.player_id: row.rating_after - row.rating_before for row in result.history}
    assert by_player[1] == by_player[2] == by_player[3] == by_player[4] == 0.0


def test_the_starting_states_are_not_changed_in_place() -> None:
    start = {1: EloPlayerState(1500.0)}
    replay_elo([RatedGame(1, MONDAY, ((1,), (2,)), 0)], EloSettings(), start)
    assert start[1].rating == 1500.0 and start[1].games == 0


def test_games_out_of_date_order_are_refused() -> None:
    games = [RatedGame(1, TUESDAY, ((1,), (2,)), 0), RatedGame(2, MONDAY, ((1,), (3,)), 1)]
    with pytest.raises(RatingError, match="dated before"):
        replay_elo(games, EloSettings())


@pytest.mark.parametrize("sides, winner", [(((1,), (1,)), 0), (((1,), ()), 0), (((1,), (2,)), 2)])
def test_malformed_games_are_refused(sides: tuple[tuple[int, ...], tuple[int, ...]],
                                     winner: int) -> None:
    with pytest.raises(RatingError):
        replay_elo([RatedGame(1, MONDAY, sides, winner)], EloSettings())
