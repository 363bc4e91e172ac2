"""A database of the schema before issue 13 (Game and the bot runs in ``games``, ratings in
``players``), filled by that version's ``manage.py load_demo`` (``main_demo.sql``, with the
standings and ratings it showed in ``main_demo_expected.json``), migrates to the current
schema with its data intact: the same standings and the same stored ratings; and a rebuild
of every pool in played order (round, board, game) rates the old data as the old order of
rows (played_at, id) did, with today's rating maths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

HERE = Path(__file__).parent
#: The migration state of the schema before issue 13; the apps added since are unapplied.
OLD_STATE = [
    ("games", "0001_initial"),
    ("players", "0002_rating_ratingchange"),
    ("tournaments", "0001_initial"),
    ("matches", None),
    ("ratings", None),
    ("botruns", None),
]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _migrate(targets: list[tuple[str, str | None]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _latest() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _ratings() -> list[list[Any]]:
    from ratings.models import Rating

    return [
        [r.player.display_name, r.family, r.system, r.rating, r.rd, r.volatility, r.games,
         r.peak_rating, r.is_provisional]
        for r in Rating.objects.select_related("player").order_by("family",
                                                                  "player__display_name")
    ]


def _standings() -> dict[str, Any]:
    from tournaments import selectors
    from tournaments.models import Tournament

    return {
        t.slug: json.loads(json.dumps(selectors.standings(t), default=str))
        for t in Tournament.objects.order_by("id")
    }


def _close(got: list[list[Any]], expected: list[list[Any]]) -> None:
    assert len(got) == len(expected)
    for row, want in zip(got, expected, strict=True):
        # player, family, system, games played and the provisional flag are exact
        assert [row[i] for i in (0, 1, 2, 6, 8)] == [want[i] for i in (0, 1, 2, 6, 8)]
        for index in (3, 4, 5, 7):  # rating, RD, volatility, peak: the same floats
            if want[index] is None:
                assert row[index] is None, (row, want)
            else:
                assert row[index] == pytest.approx(want[index], abs=1e-9), (row, want)


def test_demo_of_the_old_schema_keeps_its_standings_and_ratings() -> None:
    from ratings.services import ratings_recompute

    expected = json.loads((HERE / "main_demo_expected.json").read_text())
    _migrate(OLD_STATE)
    try:
        with connection.cursor() as cursor:
            cursor.execute((HERE / "main_demo.sql").read_text())
    finally:
        _migrate(_latest())
    assert _standings() == expected["standings"]
    assert _ratings() == expected["ratings"]
    in_saved_order = _replayed_in_saved_order()
    ratings_recompute()
    _close(_ratings(), in_saved_order)


def _replayed_in_saved_order() -> list[list[Any]]:
    """The pools replayed in the order the old code used, ``(played_at, id)``."""
    from matches.rated_games import rated_games
    from players.models import Club, Player
    from ratings.replay import in_played_time, replay
    from ratings.selectors import engines_of
    from ratings.settings import club_rating_config

    rows = []
    for club in Club.objects.order_by("id"):
        config = club_rating_config(club)
        for family in ("kazambi", "kugamai", "stolbiki"):
            games = sorted(rated_games(club_id=club.pk, games=engines_of(family)),
                           key=lambda game: (game.played_at, game.game_id))
            _, finals = replay(config, in_played_time(games), {})
            names = dict(Player.objects.filter(pk__in=finals).values_list("pk", "display_name"))
            rows += [[names[player], family, config.system, state.rating, state.rd,
                      state.volatility, state.games, state.peak,
                      config.is_provisional(state.rd, state.games)]
                     for player, state in finals.items()]
    return sorted(rows, key=lambda row: (row[1], row[0]))
