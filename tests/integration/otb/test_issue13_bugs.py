"""The wrong results of issue 13, each tried as a new user would; every test here failed
before the matches app became the one writer of games and results."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from matches.models import Game
from matches.services import match_result_record
from matches.services.games import game_entry_record
from ratings.models import Rating, RatingChange
from ratings.selectors import rating_history
from tests.integration.otb.conftest import boards
from tests.integration.otb.test_round_admin import login, round_post, row, url_of
from tournaments.models import Pairing
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


# -- Kazambi has no draw ------------------------------------------------------------------


def test_api_refuses_a_drawn_kazambi_game(paired: Any, organizer: Any, as_user: Any) -> None:
    board = boards(paired(game="kazambi", match_format="bo3"))[0]
    api = as_user(organizer)
    answer = api.post(f"/api/pairings/{board.pk}/result/",
                      {"version": board.version, "wins_a": 0, "wins_b": 0, "draws": 1},
                      format="json")
    assert answer.status_code == 400, answer.content
    assert "no draws" in answer.json()["detail"] and "draws" in answer.json()["errors"]
    answer = api.post(f"/api/pairings/{board.pk}/games/",
                      {"version": board.version, "result": "draw"}, format="json")
    assert answer.status_code == 400 and "no draws" in answer.json()["detail"]
    fresh = Pairing.objects.get(pk=board.pk)
    assert (fresh.outcome, fresh.version) == ("pending", board.version)
    assert not Game.objects.filter(pairing=board).exists()


def test_admin_offers_no_drawn_kazambi_games(paired: Any, organizer: Any) -> None:
    """Kazambi has no draws: the round page has no drawn-games box, and drawn games sent
    anyway are not entered (issue 34; the services refuse them from every other path)."""
    round_ = paired(game="kazambi", match_format="bo3", entrants=4)
    one, two = boards(round_)
    client = login(organizer)
    assert 'name="pairings-0-draws"' not in client.get(url_of(round_)).content.decode()
    client.post(url_of(round_), round_post(round_, [row(one, 0, 0, draws=3), row(two)]),
                follow=True)
    assert Pairing.objects.get(pk=one.pk).outcome == "pending"
    assert not Game.objects.filter(pairing__round=round_).exists()


def test_kugamai_still_takes_a_drawn_game(paired: Any, organizer: Any) -> None:
    board = boards(paired(game="kugamai", match_format="ft3/9"))[0]
    recorded = game_entry_record(actor=organizer, pairing=board, expected_version=1,
                                 result="draw")
    assert recorded.game.winner_side is None


# -- a correction replays ratings in played order -----------------------------------------


def test_corrected_round_one_is_rated_before_round_two(make_event: Any,
                                                       organizer: Any) -> None:
    tournament = make_event(format="round_robin", entrants=4, match_format="single")
    for _ in range(2):
        round_ = round_pair_next(actor=organizer, tournament=tournament, release=True)
        for board in boards(round_):
            match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                                score=_score(1, 0))
    first = boards(tournament.rounds.get(number=1))[0]
    match_result_record(actor=organizer, pairing=first, expected_version=first.version,
                        score=_score(0, 1))
    player = first.entrant_a.player
    history = list(rating_history(player, "kugamai"))
    rounds = [Game.objects.get(pk=change.game_id).pairing.round.number for change in history]
    assert rounds == [1, 2]
    assert history[0].rating_before == 1500.0  # rated from the start, not after round 2
    assert history[1].rating_before == history[0].rating_after
    assert RatingChange.objects.filter(player=player).count() == 2


# -- implied games are not shown as fact ---------------------------------------------------


def test_typed_score_games_say_their_order_was_not_recorded(paired: Any,
                                                            organizer: Any) -> None:
    board = boards(paired(game="kugamai", match_format="bo3"))[0]
    match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                        score=_score(1, 2))
    games = list(Game.objects.filter(pairing=board).order_by("number"))
    assert len(games) == 3 and not any(game.order_recorded for game in games)
    page = Client().get(f"/games/{games[0].pk}/").content.decode()
    assert "order they were played in was not recorded" in page
    assert "game 1" not in page.lower().replace("a game of the match", "")
    tournament = board.round.tournament
    results = Client().get(
        f"/tournaments/{tournament.club.slug}/{tournament.slug}/").content.decode()
    assert "order not recorded" in results
    history = Client().get(
        f"/api/players/{board.entrant_a.player_id}/rating-history/").json()["results"]
    assert [change["order_recorded"] for change in history] == [False, False, False]


def test_games_entered_one_by_one_keep_their_order(paired: Any, organizer: Any) -> None:
    board = boards(paired(game="kugamai", match_format="bo3"))[0]
    for result in ("b", "a"):
        game_entry_record(actor=organizer, pairing=board,
                          expected_version=Pairing.objects.get(pk=board.pk).version,
                          result=result)
    board.refresh_from_db()
    match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                        score=_score(2, 1))
    flags = list(Game.objects.filter(pairing=board).order_by("number")
                 .values_list("order_recorded", flat=True))
    assert flags == [True, True, False]  # only the game the score implied is unordered


# -- deleting a middle game ------------------------------------------------------------------


def test_deleting_a_middle_game_renumbers_and_the_next_game_records(
        paired: Any, organizer: Any, admin_user: Any) -> None:
    board = boards(paired(game="kugamai", match_format="ft3/9"))[0]
    for result in ("a", "b", "a"):
        game_entry_record(actor=organizer, pairing=board,
                          expected_version=Pairing.objects.get(pk=board.pk).version,
                          result=result)
    middle = Game.objects.get(pairing=board, number=2)
    client = Client()
    client.force_login(admin_user)
    assert client.post(f"/admin/matches/game/{middle.pk}/delete/", {"post": "yes"}
                       ).status_code == 302
    assert list(Game.objects.filter(pairing=board).order_by("number")
                .values_list("number", "winner_side")) == [(1, 0), (2, 0)]
    board.refresh_from_db()
    recorded = game_entry_record(actor=organizer, pairing=board,
                                 expected_version=board.version, result="a")
    assert recorded.game.number == 3 and recorded.match_decided
    board.refresh_from_db()
    assert (board.outcome, board.wins_a, board.wins_b) == ("a_wins", 3, 0)
    assert RatingChange.objects.filter(game__pairing=board).count() == 6  # 3 games, 2 each
    assert Rating.objects.get(player=board.entrant_a.player).games == 3


def test_deleting_a_deciding_game_reopens_the_match(paired: Any, organizer: Any,
                                                    admin_user: Any) -> None:
    board = boards(paired(game="kugamai", match_format="bo3"))[0]
    match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                        score=_score(2, 0))
    last = Game.objects.get(pairing=board, number=2)
    client = Client()
    client.force_login(admin_user)
    client.post(f"/admin/matches/game/{last.pk}/delete/", {"post": "yes"})
    board.refresh_from_db()
    assert (board.outcome, board.wins_a) == ("pending", 0)
    assert board.changes.count() == 2  # the result, then its reopening, both logged


def _score(a: int, b: int, draws: int = 0) -> Any:
    from games.series import MatchScore

    return MatchScore(a, b, draws)


def test_unrating_a_tournament_replays_its_pool(make_event: Any, organizer: Any) -> None:
    from tournaments.services import tournament_update

    tournament = make_event(format="round_robin", entrants=4, match_format="single")
    for board in boards(round_pair_next(actor=organizer, tournament=tournament, release=True)):
        match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                            score=_score(1, 0))
    assert RatingChange.objects.count() == 4
    tournament = tournament_update(actor=organizer, tournament=tournament, rated=False)
    assert RatingChange.objects.count() == 0 and not Rating.objects.exists()
    tournament_update(actor=organizer, tournament=tournament, rated=True)
    assert RatingChange.objects.count() == 4
