"""The games API and clock advice (service and API)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from core.errors import ApplicationError
from matches.clock_services import MIN_RECORDED_GAMES, move_estimate, round_clock_advice
from matches.models import Game
from tests.integration.otb.conftest import boards
from tests.integration.otb.test_match_entry import played_record
from tournaments.models import Outcome

pytestmark = pytest.mark.django_db


def test_add_games_with_version_and_if_match(paired: Any, organizer: Any,
                                              as_user: Any) -> None:
    round_ = paired(match_format="fixed4")
    pairing = boards(round_)[0]
    api = as_user(organizer)
    url = f"/api/pairings/{pairing.pk}/games/"
    listed = api.get(url)
    assert listed.status_code == 200 and listed["ETag"] == '"1"' and listed.json()["results"] == []
    answer = api.post(url, {"version": 1, "result": "a"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["version"] == 2 and answer["ETag"] == '"2"'
    # a stale version (header or field) is refused with 409
    stale = api.post(url, {"result": "b"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 409
    assert "Board 1 was changed since you loaded it, by alice" in stale.json()["detail"]
    answer = api.post(url, {"record": played_record(1)}, format="json", HTTP_IF_MATCH='"2"')
    assert answer.status_code == 201, answer.json()
    assert answer.json()["game"]["record"]["moves"]
    bad = played_record(2)
    bad["moves"][2] = "0-0"
    refused = api.post(url, {"version": answer.json()["version"], "record": bad},
                       format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"]["record"][0].startswith("Game 3 record: move 3, 0-0")
    missing = api.post(url, {"result": "a"}, format="json")
    assert missing.status_code == 400 and "version" in missing.json()["errors"]


def test_game_list_filters_and_detail(paired: Any, organizer: Any, as_user: Any) -> None:
    from games.series import MatchScore
    from matches.services.results import match_result_record

    round_ = paired(match_format="bo3", entrants=4)
    one, two = boards(round_)
    match_result_record(actor=organizer, pairing=one, expected_version=1,
                        score=MatchScore(2, 1, 0))
    match_result_record(actor=organizer, pairing=two, expected_version=1,
                        score=MatchScore(0, 2, 0))
    api = as_user(organizer)
    everything = api.get("/api/games/", {"tournament": round_.tournament_id}).json()
    assert everything["count"] == 5
    assert len(api.get("/api/games/", {"pairing": two.pk}).json()["results"]) == 2
    player = one.entrant_a.player_id
    mine = api.get("/api/games/", {"player": player}).json()["results"]
    assert {g["pairing"] for g in mine} == {one.pk}
    detail = api.get(f"/api/games/{mine[0]['id']}/").json()
    assert "record" in detail and detail["board"] == 1
    assert api.get("/api/games/", {"player": "x"}).status_code == 400


def test_other_clubs_organizer_gets_403_and_nothing_changes(paired: Any, club_b: Any,
                                                             as_user: Any) -> None:
    round_ = paired()
    pairing = boards(round_)[0]
    answer = as_user(club_b.organizers.get()).post(
        f"/api/pairings/{pairing.pk}/games/", {"version": 1, "result": "a"}, format="json")
    assert answer.status_code == 403
    assert not Game.objects.exists()
    pairing.refresh_from_db()
    assert (pairing.version, pairing.outcome) == (1, Outcome.PENDING)


def test_anonymous_cannot_add_games(paired: Any, api: Any) -> None:
    pairing = boards(paired())[0]
    answer = api.post(f"/api/pairings/{pairing.pk}/games/", {"version": 1, "result": "a"},
                      format="json")
    assert answer.status_code in (401, 403)


def _fill_games(pairing: Any, counts: list[int]) -> None:
    Game.objects.bulk_create(
        Game(pairing=pairing, number=n, game="kugamai", options=pairing.round.tournament
             .game_options, first_side=(n - 1) % 2, winner_side=0, move_count=count,
             played_at=timezone.now())
        for n, count in enumerate(counts, start=1)
    )


def test_move_estimate_uses_recorded_games_from_twenty_on(paired: Any) -> None:
    round_ = paired()
    pairing = boards(round_)[0]
    options = round_.tournament.game_options
    assert move_estimate("kugamai", options).games_recorded == 0
    _fill_games(pairing, [20] * 5)
    few = move_estimate("kugamai", options)
    assert few.games_recorded == 0 and "only 5 recorded games" in few.basis
    Game.objects.all().delete()
    _fill_games(pairing, [20] * (MIN_RECORDED_GAMES - 1) + [31])
    measured = move_estimate("kugamai", options)
    # moves per seat: ceil(total / 2)
    assert measured.games_recorded == MIN_RECORDED_GAMES
    assert measured.mean == pytest.approx((19 * 10 + 16) / 20)
    assert measured.high == measured.mean  # the 95th percentile (10) is below the mean
    Game.objects.all().delete()
    _fill_games(pairing, list(range(1, 41)))
    spread = move_estimate("kugamai", options)
    assert (spread.games_recorded, spread.high) == (40, 19)


def test_round_clock_advice_service_and_api(paired: Any, organizer: Any,
                                            as_user: Any) -> None:
    round_ = paired(match_format="bo5")
    with pytest.raises(ApplicationError, match="has no time slot") as caught:
        round_clock_advice(round_)
    assert caught.value.field == "time_slot_minutes"
    round_.time_slot_minutes = 150
    round_.save()
    advice = round_clock_advice(round_)
    assert advice.advice.games == 5 and advice.advice.worst_case_minutes <= 150
    api = as_user(organizer)
    body = api.get(f"/api/rounds/{round_.pk}/clock-advice/").json()
    assert body["setting"] == str(advice.advice.setting)
    assert body["reasons"][0] == "The match (best of 5) can run to 5 games."
    assert body["moves"]["games_recorded"] == 0
    free = api.get("/api/clock-advice/", {"game": "kazambi", "match_format": "ft3/5",
                                          "slot_minutes": 90})
    assert free.status_code == 200 and free.json()["games"] == 5
    uncapped = api.get("/api/clock-advice/", {"game": "kugamai", "match_format": "ft3",
                                              "slot_minutes": 90})
    assert uncapped.status_code == 400 and "max_games" in uncapped.json()["detail"]
    tight = api.get("/api/clock-advice/", {"game": "stolbiki", "match_format": "bo5",
                                           "slot_minutes": 10})
    assert tight.status_code == 400 and "no clock fits" in tight.json()["detail"]
    unknown = api.get("/api/clock-advice/", {"game": "chess", "slot_minutes": 10})
    assert unknown.status_code == 400 and "errors" in unknown.json()
