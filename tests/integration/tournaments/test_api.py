"""The tournament API: anyone reads, organizers of the tournament's club write."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import services
from tournaments.models import Pairing, Round, Tournament

pytestmark = pytest.mark.django_db


def test_full_flow_through_the_api(as_user: Any, organizer: Any, club_a: Any,
                                   make_players: Any) -> None:
    client = as_user(organizer)
    created = client.post("/api/tournaments/", {
        "club": club_a.pk, "name": "Club Swiss", "game": "kugamai", "format": "swiss",
        "rounds_planned": 3, "match_format": "bo3", "tiebreaks": ["buchholz"],
    }, format="json")
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    assert created.json()["match_format"]["kind"] == "best_of"
    for player in make_players(5):
        response = client.post(f"/api/tournaments/{tid}/register/", {"player": player.pk},
                               format="json")
        assert response.status_code == 201, response.json()
    assert client.post(f"/api/tournaments/{tid}/start/").json()["status"] == "running"
    paired = client.post(f"/api/tournaments/{tid}/pair-next-round/")
    assert paired.status_code == 201, paired.json()
    boards = paired.json()["pairings"]
    assert len(boards) == 3 and boards[-1]["entrant_b"] is None
    board = boards[0]
    draft = client.post(f"/api/pairings/{board['id']}/result/",
                        {"version": 1, "wins_a": 2, "wins_b": 1}, format="json")
    assert draft.status_code == 400
    assert draft.json()["errors"]["round"] == [
        "Round 1 is a draft: release its pairings before entering results."]
    assert client.get(f"/api/tournaments/{tid}/rounds/").json()["results"][0]["released_at"] \
        is None  # the organizer sees the draft
    released = client.post(f"/api/rounds/{paired.json()['id']}/release/")
    assert released.status_code == 200 and released.json()["released_at"]
    bad = client.post(f"/api/pairings/{board['id']}/result/",
                      {"version": 1, "wins_a": 2, "wins_b": 2}, format="json")
    assert bad.status_code == 400 and "score" in bad.json()["errors"]
    ok = client.post(f"/api/pairings/{board['id']}/result/",
                     {"version": 1, "wins_a": 2, "wins_b": 1}, format="json")
    assert ok.status_code == 200, ok.json()
    assert ok.json()["pairing"]["outcome"] == "a_wins" and ok.json()["pairing"]["version"] == 2
    stale = client.post(f"/api/pairings/{board['id']}/result/",
                        {"version": 1, "wins_a": 0, "wins_b": 2}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    refused = client.post(f"/api/tournaments/{tid}/pair-next-round/")
    assert refused.status_code == 400
    assert "missing result" in refused.json()["detail"]
    no_score = client.post(f"/api/pairings/{boards[1]['id']}/result/",
                           {"version": 1, "outcome": "draw"}, format="json")
    assert no_score.status_code == 400 and "score" in no_score.json()["errors"]
    forfeit = client.post(f"/api/pairings/{boards[1]['id']}/result/",
                          {"version": 1, "outcome": "a_forfeit_win"}, format="json")
    assert forfeit.status_code == 200, forfeit.json()
    standings = client.get(f"/api/tournaments/{tid}/standings/").json()
    assert standings["after_round"] == 1 and len(standings["rows"]) == 5
    assert client.get(f"/api/tournaments/{tid}/crosstable/").status_code == 200
    assert client.get(f"/api/tournaments/{tid}/round-by-round/").status_code == 200
    assert len(client.get(f"/api/tournaments/{tid}/rounds/").json()["results"]) == 1
    round_id = paired.json()["id"]
    assert client.get(f"/api/rounds/{round_id}/").json()["pairings"][0]["version"] == 2
    csv_response = client.get(f"/api/tournaments/{tid}/standings.csv")
    assert csv_response.status_code == 200
    assert csv_response.content.decode().startswith("rank,seed,name,rating,points,buchholz")
    trf = client.get(f"/api/tournaments/{tid}/export.trf")
    assert trf.status_code == 200
    assert trf.content.decode().count("\n001 ") + trf.content.decode().startswith("001") == 5
    listing = client.get("/api/tournaments/", {"status": "running", "game": "kugamai"}).json()
    assert [t["id"] for t in listing["results"]] == [tid]
    assert listing["results"][0]["entrant_count"] == 5


def test_anonymous_reads_but_cannot_write(api: Any, make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    assert api.get(f"/api/tournaments/{tournament.pk}/standings/").status_code == 200
    response = api.post(f"/api/tournaments/{tournament.pk}/pair-next-round/")
    assert response.status_code in (401, 403)
    assert not Round.objects.exists()


def test_organizer_of_a_cannot_touch_club_b(as_user: Any, make_tournament: Any, club_b: Any,
                                            organizer: Any, make_players: Any) -> None:
    theirs = make_tournament("round_robin", entrants=4, club=club_b,
                             actor=club_b.organizers.get())
    round_ = services.round_pair_next(actor=club_b.organizers.get(), tournament=theirs,
                                      release=True)
    pairing = round_.pairings.get(board=1)
    client = as_user(organizer)  # organizer of club A
    tid = theirs.pk
    attempts = [
        client.patch(f"/api/tournaments/{tid}/", {"name": "Hacked"}, format="json"),
        client.post(f"/api/tournaments/{tid}/pair-next-round/"),
        client.post(f"/api/tournaments/{tid}/finish/"),
        client.post(f"/api/tournaments/{tid}/register/", {"player": make_players(1)[0].pk},
                    format="json"),
        client.post(f"/api/tournaments/{tid}/withdraw/",
                    {"entrant": theirs.entrants.first().pk}, format="json"),
        client.post(f"/api/pairings/{pairing.pk}/result/", {"version": 1, "wins_a": 1,
                                                             "wins_b": 0}, format="json"),
        client.post("/api/tournaments/", {"club": club_b.pk, "name": "Mine", "game": "kugamai",
                                          "format": "swiss"}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [403] * len(attempts)
    theirs.refresh_from_db()
    pairing.refresh_from_db()
    assert (theirs.name, theirs.status) == ("round_robin cup", "running")
    assert (pairing.outcome, pairing.version) == ("pending", 1)
    assert Round.objects.filter(tournament=theirs).count() == 1
    assert theirs.entrants.count() == 4 and not theirs.entrants.filter(
        withdrawn_from_round__isnull=False).exists()
    assert Tournament.objects.count() == 1
    assert Pairing.objects.filter(round__tournament=theirs).count() == 2


def test_validation_errors_name_the_field(as_user: Any, organizer: Any, club_a: Any) -> None:
    response = as_user(organizer).post("/api/tournaments/", {
        "club": club_a.pk, "name": "X", "game": "kazambi", "format": "swiss",
        "game_options": {"rows": 40},
    }, format="json")
    assert response.status_code == 400
    assert "game_options" in response.json()["errors"]
