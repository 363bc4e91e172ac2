from __future__ import annotations

from typing import Any

import pytest

from botruns.models import BotRun

pytestmark = pytest.mark.django_db


def test_organizer_starts_a_bot_tournament_and_reads_progress(
    make_event: Any, organizer: Any, as_user: Any, api: Any
) -> None:
    tournament = make_event(entrants=4, bots="random", start=False)
    client = as_user(organizer)
    response = client.post("/api/bot-runs/", {"tournament": tournament.pk, "seed": 5},
                           format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "running"
    assert body["progress"]["rounds_total"] == 3
    listing = api.get(f"/api/bot-runs/?tournament={tournament.pk}").json()
    assert listing["count"] == 1


def test_other_club_cannot_start(make_event: Any, club_b: Any, as_user: Any) -> None:
    tournament = make_event(entrants=4, bots="random", start=False)
    response = as_user(club_b.organizers.get()).post(
        "/api/bot-runs/", {"tournament": tournament.pk}, format="json")
    assert response.status_code == 403
    assert not BotRun.objects.exists()


def test_humans_are_refused_with_a_reason(make_event: Any, organizer: Any, as_user: Any) -> None:
    tournament = make_event(entrants=4, start=False)
    response = as_user(organizer).post("/api/bot-runs/", {"tournament": tournament.pk},
                                       format="json")
    assert response.status_code == 400
    assert "all bots" in response.json()["detail"]


def test_admin_starts_a_run(make_event: Any, admin_user: Any, client: Any) -> None:
    tournament = make_event(entrants=4, bots="random", start=False)
    client.force_login(admin_user)
    response = client.post("/admin/botruns/botrun/add/", {
        "tournament": tournament.pk, "seed": 1, "game_timeout_seconds": 300})
    assert response.status_code == 302
    run = BotRun.objects.get()
    assert run.tournament == tournament
    page = client.get("/admin/botruns/botrun/")
    assert "/ ~" in page.content.decode()
