from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from matches.models import Game
from ratings import services
from ratings.models import Rating, RatingChange


@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicate_calls_rate_the_game_once(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    game_id = record_game(ann, ben, 0).pk
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def apply() -> None:
        try:
            start.wait()
            with transaction.atomic():
                services.rating_apply_game(Game.objects.get(pk=game_id))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=apply) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert RatingChange.objects.count() == 2
    assert Rating.objects.get(player=ann).games == 1
