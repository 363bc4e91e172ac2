from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from core.errors import ApplicationError
from ratings import selectors, services
from ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_rating_on_a_date_reads_the_history(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    for day, winner in ((0, 0), (10, 0), (20, 1)):
        services.rating_apply_game(record_game(ann, ben, winner, day=day))
    after = list(
        RatingChange.objects.filter(player=ann).order_by("played_at")
        .values_list("rating_after", flat=True)
    )
    start = dt.date(2026, 3, 1)
    assert selectors.rating_on(ann, "kugamai", start - dt.timedelta(days=1)) is None
    on_first_day = selectors.rating_on(ann, "kugamai", start)
    assert on_first_day is not None and on_first_day.rating == after[0]
    assert on_first_day.games == 1
    between = selectors.rating_on(ann, "kugamai", start + dt.timedelta(days=15))
    assert between is not None and (between.rating, between.games) == (after[1], 2)
    latest = selectors.rating_on(ann, "kugamai", dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    assert latest is not None and latest.rating == Rating.objects.get(player=ann).rating
    assert selectors.rating_on(ann, "stolbiki", start) is None


def test_rating_history_is_oldest_first(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    late = record_game(ann, ben, 0, day=9, round=2)  # saved first, played in round 2
    early = record_game(ann, ben, 1, day=1, round=1)
    services.ratings_recompute()
    history = list(selectors.rating_history(ann, "kugamai"))
    assert [change.game_id for change in history] == [early.pk, late.pk]
    assert history[1].rating_before == history[0].rating_after
    assert history[0].tournament_name  # type: ignore[attr-defined]


def test_leaderboard_in_one_query_marks_provisional_and_bots(
    record_game: Any, players: Any, club_a: Any, django_assert_num_queries: Any
) -> None:
    club_a.rating_settings = {"provisional_rd": 150}  # 15 games bring RD to about 137
    club_a.save()
    people = players(4)
    (bot,) = players(1, is_bot=True, bot_kind="greedy")
    everyone = [*people, bot]
    for round_ in range(8):
        for index, player in enumerate(everyone):
            opponent = everyone[(index + 1 + round_) % len(everyone)]
            if opponent != player:
                winner = 0 if player.pk < opponent.pk else None
                services.rating_apply_game(
                    record_game(player, opponent, winner, day=round_)
                )
    (newcomer,) = players(1)
    services.rating_apply_game(record_game(newcomer, people[0], 1, day=8))
    with django_assert_num_queries(1):
        board = selectors.leaderboard(club_a, "kugamai")
    assert len(board) == 6
    assert [entry.rating for entry in board] == sorted(
        (entry.rating for entry in board), reverse=True
    )
    assert board[0].rank == 1
    by_player = {entry.player_id: entry for entry in board}
    assert by_player[newcomer.pk].provisional
    assert not by_player[people[0].pk].provisional
    assert by_player[bot.pk].is_bot and not by_player[people[1].pk].is_bot
    settled = selectors.leaderboard(club_a, "kugamai", include_provisional=False)
    assert newcomer.pk not in {entry.player_id for entry in settled}


def test_unknown_family_is_a_clear_error(club_a: Any) -> None:
    with pytest.raises(ApplicationError, match="Unknown game family 'chess'"):
        selectors.leaderboard(club_a, "chess")
