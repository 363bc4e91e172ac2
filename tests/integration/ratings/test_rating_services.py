from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from core.errors import ApplicationError
from players.models import Team, TeamMembership
from ratings import services
from ratings.maths.bulk import RatedGame, recompute_ratings
from ratings.maths.glicko2 import Glicko2Config, rate_game
from ratings.models import Rating, RatingChange
from ratings.settings import rating_config_parse

pytestmark = pytest.mark.django_db


def ratings_of(*players: Any, family: str = "kugamai") -> list[float]:
    by_player = {r.player_id: r.rating for r in Rating.objects.filter(family=family)}
    return [by_player[p.pk] for p in players]


def test_applying_a_game_updates_both_sides(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    changes = services.rating_apply_game(record_game(ann, ben, 0))
    assert len(changes) == 2
    config = Glicko2Config()
    new = config.new_rating()
    expected_ann = rate_game(new, new, 1.0, config)
    expected_ben = rate_game(new, new, 0.0, config)
    ann_rating = Rating.objects.get(player=ann)
    ben_rating = Rating.objects.get(player=ben)
    assert ann_rating.rating == pytest.approx(expected_ann.rating)
    assert ann_rating.rd == pytest.approx(expected_ann.rd)
    assert ben_rating.rating == pytest.approx(expected_ben.rating)
    assert (ann_rating.games, ann_rating.system, ann_rating.family) == (1, "glicko2", "kugamai")
    assert ann_rating.is_provisional and ann_rating.club_id == ann.club_id
    change = RatingChange.objects.get(player=ann)
    assert (change.rating_before, change.rd_before) == (1500.0, 500.0)
    assert change.rating_after == pytest.approx(expected_ann.rating)


def test_applying_twice_changes_nothing(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    game = record_game(ann, ben, None)
    services.rating_apply_game(game)
    before = list(Rating.objects.order_by("pk").values())
    assert services.rating_apply_game(game) == []
    assert services.rating_apply_game(game) == []
    assert list(Rating.objects.order_by("pk").values()) == before
    assert RatingChange.objects.count() == 2


def test_database_refuses_a_second_change_for_the_same_game(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    game = record_game(ann, ben, 0)
    change = services.rating_apply_game(game)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            player=ann, game=game, club=change.club, family="kugamai", rating_before=1,
            rating_after=2, played_at=game.played_at,
        )


def test_unrated_games_and_forfeits_are_not_rated(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    assert services.rating_apply_game(record_game(ann, ben, 0, rated=False)) == []
    assert services.rating_apply_game(record_game(ann, ben, 0, termination="forfeit")) == []
    assert not Rating.objects.exists()


@pytest.mark.parametrize("settings", [{}, {"system": "elo"}], ids=["glicko2", "elo"])
def test_incremental_ratings_equal_a_replay_from_scratch(
    record_game: Any, players: Any, club_a: Any, settings: dict[str, Any]
) -> None:
    club_a.rating_settings = settings
    club_a.save()
    people = players(4)
    results = [(0, 1, 0), (2, 3, None), (0, 2, 1), (1, 3, 0), (0, 3, 0), (1, 2, None)]
    games = []
    for day, (a, b, winner) in enumerate(results):
        game = record_game(people[a], people[b], winner, day=day * 3)
        services.rating_apply_game(game)
        games.append(game)
    incremental = ratings_of(*people)
    history = list(RatingChange.objects.order_by("pk").values_list(
        "player_id", "game_id", "rating_after"))
    services.ratings_recompute()
    assert ratings_of(*people) == pytest.approx(incremental, abs=1e-9)
    replayed = list(RatingChange.objects.order_by("played_at", "game_id", "pk").values_list(
        "player_id", "game_id", "rating_after"))
    assert [row[:2] for row in sorted(replayed)] == [row[:2] for row in sorted(history)]
    assert [row[2] for row in sorted(replayed)] == pytest.approx(
        [row[2] for row in sorted(history)], abs=1e-9
    )


def test_correction_replays_the_pool(record_game: Any, players: Any) -> None:
    ann, ben, cid = players(3)
    first = record_game(ann, ben, 0, day=0)
    second = record_game(ben, cid, 0, day=1)
    third = record_game(ann, cid, None, day=2)
    for game in (first, second, third):
        services.rating_apply_game(game)
    first.winner_side = 1
    first.save()
    services.rating_recompute_after_correction(first)
    expected = recompute_ratings([
        RatedGame(first.pk, first.played_at, ((ann.pk,), (ben.pk,)), 1),
        RatedGame(second.pk, second.played_at, ((ben.pk,), (cid.pk,)), 0),
        RatedGame(third.pk, third.played_at, ((ann.pk,), (cid.pk,)), None),
    ]).ratings
    assert ratings_of(ann, ben, cid) == pytest.approx(
        [expected[p.pk].rating for p in (ann, ben, cid)]
    )
    assert RatingChange.objects.count() == 6


def test_a_game_at_the_same_moment_with_a_lower_id_replays_the_pool(
    record_game: Any, players: Any
) -> None:
    ann, ben = players(2)
    lower_id_game = record_game(ann, ben, 0, day=3)
    higher_id_game = record_game(ann, ben, 1, day=3)
    services.rating_apply_game(higher_id_game)
    services.rating_apply_game(lower_id_game)
    order = list(RatingChange.objects.filter(player=ann).order_by("rating_before", "pk")
                 .values_list("game_id", "rating_before"))
    assert order[0] == (lower_id_game.pk, 1500.0)


def test_a_late_recorded_older_game_replays_the_pool(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0, day=5, round=2))
    late = record_game(ann, ben, 1, day=1, round=1)  # an earlier round, saved later
    services.rating_apply_game(late)
    first_change = RatingChange.objects.filter(player=ann).order_by("played_at").first()
    assert first_change is not None and first_change.game_id == late.pk
    assert first_change.rating_before == 1500.0
    assert Rating.objects.get(player=ann).games == 2


def test_pools_are_per_club_and_family_and_kazambi_forms_share_one(
    record_game: Any, players: Any, club_b: Any
) -> None:
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0, game="kazambi"))
    services.rating_apply_game(record_game(ann, ben, 0, game="anti-kazambi", day=1))
    services.rating_apply_game(record_game(ann, ben, 0, game="kugamai"))
    services.rating_apply_game(record_game(ann, ben, 0, game="kugamai", club=club_b))
    pools = sorted(Rating.objects.filter(player=ann).values_list("club__slug", "family", "games"))
    assert pools == [("alpha", "kazambi", 2), ("alpha", "kugamai", 1), ("beta", "kugamai", 1)]


def test_team_game_rates_each_member_of_the_day(
    record_game: Any, players: Any, club_a: Any
) -> None:
    a1, a2, b1, b2, former = players(5)
    red = Team.objects.create(name="Red", club=club_a)
    blue = Team.objects.create(name="Blue", club=club_a)
    day0 = dt.date(2026, 1, 1)
    for team, members in ((red, (a1, a2)), (blue, (b1, b2))):
        for member in members:
            TeamMembership.objects.create(team=team, player=member, joined_on=day0)
    TeamMembership.objects.create(team=red, player=former, joined_on=day0,
                                  left_on=dt.date(2026, 2, 1))
    services.rating_apply_game(record_game(red, blue, 0, game="kazambi-pairs"))
    rated = dict(Rating.objects.values_list("player_id", "rating"))
    assert set(rated) == {a1.pk, a2.pk, b1.pk, b2.pk}
    assert rated[a1.pk] == pytest.approx(rated[a2.pk]) and rated[a1.pk] > 1500
    assert rated[b1.pk] == pytest.approx(rated[b2.pk]) and rated[b1.pk] < 1500
    assert Rating.objects.get(player=a1).family == "kazambi"


def test_team_game_uses_the_players_named_in_the_seats(
    record_game: Any, players: Any, club_a: Any
) -> None:
    a1, a2, b1, b2, substitute = players(5)
    red = Team.objects.create(name="Red", club=club_a)
    blue = Team.objects.create(name="Blue", club=club_a)
    for team, members in ((red, (a1, a2)), (blue, (b1, b2))):
        for member in members:
            TeamMembership.objects.create(team=team, player=member, joined_on=dt.date(2026, 1, 1))
    seats = [a1.pk, str(b1.pk), {"player": substitute.pk}, b2.pk]
    game = record_game(red, blue, 1, game="kazambi-pairs", record={"seats": seats})
    services.rating_apply_game(game)
    assert set(Rating.objects.values_list("player_id", flat=True)) == {
        a1.pk, b1.pk, substitute.pk, b2.pk
    }


def test_bots_are_rated_in_the_same_pool(record_game: Any, players: Any) -> None:
    (ann,) = players(1)
    (bot,) = players(1, is_bot=True, bot_kind="mcts")
    services.rating_apply_game(record_game(bot, ann, 0))
    assert Rating.objects.get(player=bot).rating > 1500


def test_elo_club(record_game: Any, players: Any, club_a: Any) -> None:
    club_a.rating_settings = {"system": "elo", "initial_rating": 1600}
    club_a.save()
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0))
    ann_rating = Rating.objects.get(player=ann)
    # K = 40 for a new player; equal ratings expect 0.5: 40 * (1 - 0.5) = +20.
    assert (ann_rating.rating, ann_rating.rd, ann_rating.system) == (1620.0, None, "elo")
    assert Rating.objects.get(player=ben).rating == 1580.0
    assert ann_rating.is_provisional


def test_changing_the_system_rebuilds_the_clubs_pools(
    record_game: Any, players: Any, club_a: Any, admin_user: Any
) -> None:
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0))
    services.club_rating_settings_update(
        actor=admin_user, club=club_a, rating_settings={"system": "elo", "k": 10}
    )
    assert ratings_of(ann, ben) == [1505.0, 1495.0]
    assert Rating.objects.get(player=ann).system == "elo"


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"system": "trueskill"}, "rating_settings.system"),
        ({"system": "glicko2", "tau": -1}, "rating_settings.tau"),
        ({"initial_rd": "wide"}, "rating_settings.initial_rd"),
        ({"system": "elo", "tau": 0.5}, "rating_settings.tau"),
        ({"system": "elo", "k": 0}, "rating_settings.k"),
        ({"system": "elo", "provisional_games": 2.5}, "rating_settings.provisional_games"),
        ([1, 2], "rating_settings"),
    ],
)
def test_bad_settings_name_the_field(settings: Any, field: str) -> None:
    with pytest.raises(ApplicationError) as caught:
        rating_config_parse(settings)
    assert caught.value.field == field


def test_recompute_clears_a_pool_whose_games_are_gone(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    game = record_game(ann, ben, 0)
    services.rating_apply_game(game)
    game.delete()
    summaries = services.ratings_recompute()
    assert [(s.family, s.games, s.players) for s in summaries] == [("kugamai", 0, 0)]
    assert not Rating.objects.exists()


def test_only_the_clubs_organizers_change_its_rating_settings(
    club_a: Any, club_b: Any
) -> None:
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.club_rating_settings_update(
            actor=club_b.organizers.get(), club=club_a, rating_settings={"system": "elo"}
        )
    with pytest.raises(ApplicationError):
        services.club_rating_settings_update(
            actor=club_a.organizers.get(), club=club_a, rating_settings={"system": "chess"}
        )
    club_a.refresh_from_db()
    assert club_a.rating_settings == {}
