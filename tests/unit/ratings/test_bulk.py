"""Bulk recomputation of ratings over an ordered history of games."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from ratings.maths.bulk import (
    PlayerRatingState,
    RatedGame,
    day_number,
    recompute_ratings,
)
from ratings.maths.errors import RatingInputError
from ratings.maths.glicko2 import Glicko2Config, Rating, inflate_for_inactivity, rate_game
from ratings.maths.teams import rate_team_game

CONFIG = Glicko2Config()
DAY = date(2025, 3, 1)


def as_rating(state: PlayerRatingState) -> Rating:
    return Rating(state.rating, state.rd, state.volatility)


def test_matches_game_by_game_updates_with_inactivity():
    games = [
        RatedGame(1, DAY, (("ann",), ("bob",)), 0),
        RatedGame(2, DAY + timedelta(days=10), (("bob",), ("cid",)), None),
        RatedGame(3, DAY + timedelta(days=30), (("ann",), ("cid",)), 1),
    ]
    result = recompute_ratings(games, CONFIG)

    new = CONFIG.new_rating()
    ann = rate_game(new, new, 1, CONFIG)
    bob = rate_game(new, new, 0, CONFIG)
    bob, cid = (
        rate_game(bob, new, 0.5, CONFIG, days_inactive=10),
        rate_game(new, bob, 0.5, CONFIG, opponent_days_inactive=10),
    )
    ann, cid = (
        rate_game(ann, cid, 0, CONFIG, days_inactive=30, opponent_days_inactive=20),
        rate_game(cid, ann, 1, CONFIG, days_inactive=20, opponent_days_inactive=30),
    )
    for player, expected in (("ann", ann), ("bob", bob), ("cid", cid)):
        got = as_rating(result.ratings[player])
        assert got.rating == pytest.approx(expected.rating, abs=1e-9)
        assert got.rd == pytest.approx(expected.rd, abs=1e-9)
        assert got.volatility == pytest.approx(expected.volatility, abs=1e-12)


def test_history_rows():
    games = [
        RatedGame("g1", DAY, ((1,), (2,)), 0),
        RatedGame("g2", DAY, ((2,), (1,)), 0),
    ]
    result = recompute_ratings(games)
    assert [(row.player_id, row.game_id) for row in result.history] == [
        (1, "g1"), (2, "g1"), (2, "g2"), (1, "g2"),
    ]  # fmt: skip
    first, second = result.history[0], result.history[2]
    assert first.rating_before == 1500 and first.rating_after > 1500
    assert second.rating_before == result.history[1].rating_after
    final = result.ratings[1]
    assert final.games == 2 and final.last_played_at == DAY
    assert final.rating == result.history[3].rating_after
    assert final.rd == result.history[3].rd_after


def test_team_games_use_the_team_rule():
    games = [RatedGame(7, DAY, (("a", "c"), ("b", "d")), 1)]
    result = recompute_ratings(games)
    new = CONFIG.new_rating()
    team_a, team_b = rate_team_game([new, new], [new, new], 0, CONFIG)
    assert result.ratings["a"].rating == pytest.approx(team_a[0].rating)
    assert result.ratings["d"].rating == pytest.approx(team_b[1].rating)


def test_player_in_two_seats_of_one_side_counts_once():
    games = [RatedGame(1, DAY, (("a", "a"), ("b", "b")), 0)]
    result = recompute_ratings(games)
    assert len(result.history) == 2
    new = CONFIG.new_rating()
    assert result.ratings["a"].rating == pytest.approx(rate_game(new, new, 1, CONFIG).rating)


def test_starting_ratings_and_inactivity_since_last_game():
    start = {"ann": PlayerRatingState(1800, 60, 0.06, games=40, last_played_at=DAY)}
    later = DAY + timedelta(days=100)
    result = recompute_ratings([RatedGame(1, later, (("ann",), ("bob",)), 0)], CONFIG, start)
    rusty = inflate_for_inactivity(Rating(1800, 60, 0.06), 100, CONFIG)
    expected = rate_game(rusty, CONFIG.new_rating(), 1, CONFIG)
    assert result.ratings["ann"].rating == pytest.approx(expected.rating)
    assert result.ratings["ann"].games == 41


def test_datetimes_count_fractions_of_days():
    assert day_number(datetime(2025, 3, 1, 12)) - day_number(DAY) == 0.5
    aware = datetime(2025, 3, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    assert day_number(aware) == day_number(datetime(2025, 3, 1, 10, tzinfo=UTC))


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (RatedGame(1, DAY, (("a",), ("a",)), 0), "both sides"),
        (RatedGame(1, DAY, (("a",), ()), 0), "at least one player"),
        (RatedGame(1, DAY, (("a",), ("b",)), 2), "winner"),
        (RatedGame(1, "yesterday", (("a",), ("b",)), 0), "date"),  # type: ignore[arg-type]
    ],
)
def test_bad_games_are_rejected(game, message):
    with pytest.raises(RatingInputError, match=message):
        recompute_ratings([game])


def test_games_out_of_order_are_rejected():
    games = [
        RatedGame(1, DAY, (("a",), ("b",)), 0),
        RatedGame(2, DAY - timedelta(days=1), (("a",), ("c",)), 0),
    ]
    with pytest.raises(RatingInputError, match="order of date"):
        recompute_ratings(games)


def test_ten_thousand_games_are_quick_and_sane():
    rng = random.Random(3)
    games = []
    for number in range(10_000):
        first, second = rng.sample(range(100), 2)
        winner = rng.choice([0, 1, None])
        games.append(
            RatedGame(number, DAY + timedelta(days=number // 50), ((first,), (second,)), winner)
        )
    result = recompute_ratings(games)
    assert len(result.history) == 20_000
    assert all(
        45 <= state.rd <= 500 and 0 < state.volatility <= 0.1
        for state in result.ratings.values()
    )
    assert sum(state.games for state in result.ratings.values()) == 20_000
