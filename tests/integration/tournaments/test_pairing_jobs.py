"""Big Swiss rounds paired on a worker from the admin (eager Celery here): the progress
page, the job's outcome, one job at a time, and who may see it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.series.format import MatchScore
from matches import services as match_services
from tournaments import services
from tournaments.models import PairingJob, Tournament
from tournaments.services.pairing_jobs import pairing_job_request, pairing_job_run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_threshold(settings: Any) -> None:
    settings.SWISS_BACKGROUND_ENTRANTS = 6


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _dashboard(tournament: Tournament) -> str:
    return f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"


def _play_round(organizer: Any, tournament: Tournament) -> None:
    round_ = tournament.rounds.order_by("-number").first()
    assert round_ is not None
    for index, pairing in enumerate(round_.pairings.exclude(entrant_b=None).order_by("board")):
        score = MatchScore(1, 0, 0) if index % 2 else MatchScore(0, 1, 0)
        match_services.result_record(actor=organizer, pairing=pairing, score=score,
                                     expected_version=pairing.version)


def _boards(tournament: Tournament, number: int) -> list[tuple[int | None, int | None]]:
    round_ = tournament.rounds.get(number=number)
    return [(p.entrant_a.seed, p.entrant_b.seed if p.entrant_b else None)
            for p in round_.pairings.select_related("entrant_a", "entrant_b").order_by("board")]


def test_the_admin_pairs_a_big_swiss_round_on_a_worker(
        make_event: Any, organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    direct = make_event("swiss", entrants=9, rounds_planned=4, match_format="ft1")
    queued = make_event("swiss", entrants=9, rounds_planned=4, match_format="ft1")
    for tournament in (direct, queued):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        _play_round(organizer, tournament)
    services.round_pair_next(actor=organizer, tournament=direct)
    client = _client(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(_dashboard(queued), {"action": "pair"})
    job = PairingJob.objects.get(tournament=queued)
    assert answer.status_code == 302
    assert answer["Location"] == f"/admin/tournaments/tournament/{queued.pk}/pairing/{job.pk}/"
    assert (job.status, job.round_number, job.requested_by) == ("done", 2, organizer)
    assert job.started_at is not None and job.finished_at is not None
    assert _boards(queued, 2) == _boards(direct, 2)
    state = client.get(answer["Location"] + "state/").json()
    round_ = queued.rounds.get(number=2)
    assert state["status"] == "done" and state["round"] == 2
    assert state["round_url"] == f"/admin/tournaments/round/{round_.pk}/change/"
    page = client.get(answer["Location"], follow=True)
    assert page.redirect_chain[-1][0] == _dashboard(queued)
    assert "Round 2 is paired." in page.content.decode()


def test_a_small_or_round_robin_event_is_paired_in_the_request(
        make_event: Any, organizer: Any) -> None:
    small = make_event("swiss", entrants=5, rounds_planned=3)
    robin = make_event("round_robin", entrants=6)
    client = _client(organizer)
    for tournament in (small, robin):
        answer = client.post(_dashboard(tournament), {"action": "pair"})
        assert answer["Location"] == _dashboard(tournament)
        assert tournament.rounds.count() == 1
    assert not PairingJob.objects.exists()


def test_a_refused_pairing_leaves_the_job_failed_with_the_reason(
        make_event: Any, organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_event("swiss", entrants=8, rounds_planned=3, match_format="ft1")
    services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    client = _client(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(_dashboard(tournament), {"action": "pair"})
    job = PairingJob.objects.get(tournament=tournament)
    assert job.status == "failed"
    assert "Round 1 still has 4 missing results" in job.error
    assert tournament.rounds.count() == 1
    page = client.get(answer["Location"]).content.decode()
    assert 'data-status="failed"' in page and "The round was not paired." in page
    assert "Round 1 still has 4 missing results" in page
    assert 'http-equiv="refresh"' not in page
    assert client.get(answer["Location"] + "state/").json()["error"] == job.error


def test_a_second_click_shows_the_running_job(make_event: Any, organizer: Any,
                                              django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_event("swiss", entrants=8, rounds_planned=3)
    client = _client(organizer)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        first = client.post(_dashboard(tournament), {"action": "pair"})
        second = client.post(_dashboard(tournament), {"action": "pair"})
    assert first["Location"] == second["Location"]
    assert len(sent) == 1 and PairingJob.objects.count() == 1
    page = client.get(first["Location"]).content.decode()
    assert 'data-status="queued"' in page and 'http-equiv="refresh"' in page
    assert first["Location"] in client.get(_dashboard(tournament)).content.decode()
    job = PairingJob.objects.get()
    job.status, job.started_at = "running", timezone.now() - timedelta(seconds=5)
    job.save()
    assert "Pairing: 5 seconds so far." in client.get(first["Location"]).content.decode()
    russian = client.get(first["Location"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Жеребьёвка идёт 5 секунд." in russian and "Жеребьёвка 1‑го тура" in russian
    assert client.get(first["Location"] + "state/").json()["elapsed_seconds"] == 5
    assert pairing_job_request(actor=organizer, tournament=tournament) == job
    job.status = "queued"
    job.save()
    assert pairing_job_run(job.pk) == "done"
    assert pairing_job_run(job.pk) == "skipped"  # a second copy of the task
    assert tournament.rounds.count() == 1


def test_a_job_running_far_too_long_is_replaced(make_event: Any, organizer: Any,
                                                django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_event("swiss", entrants=8, rounds_planned=3)
    lost = PairingJob.objects.create(tournament=tournament, round_number=1, status="running",
                                     started_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        job = pairing_job_request(actor=organizer, tournament=tournament)
    lost.refresh_from_db()
    assert lost.status == "failed" and "stopped without an answer" in lost.error
    job.refresh_from_db()
    assert job.pk != lost.pk and job.status == "done"
    assert tournament.rounds.count() == 1


def test_the_database_holds_one_active_job_per_tournament(make_event: Any,
                                                          organizer: Any) -> None:
    from django.db import IntegrityError, transaction

    tournament = make_event("swiss", entrants=8, rounds_planned=3)
    PairingJob.objects.create(tournament=tournament, round_number=1, status="running")
    PairingJob.objects.create(tournament=tournament, round_number=1, status="failed")
    with pytest.raises(IntegrityError), transaction.atomic():
        PairingJob.objects.create(tournament=tournament, round_number=1, status="queued")


def test_another_clubs_organizer_can_neither_start_nor_see_a_job(
        make_event: Any, organizer: Any, club_b: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_event("swiss", entrants=8, rounds_planned=3)
    outsider = _client(club_b.organizers.get())
    assert outsider.post(_dashboard(tournament), {"action": "pair"}).status_code == 403
    with pytest.raises(Exception, match="Only the organizers"):
        pairing_job_request(actor=club_b.organizers.get(), tournament=tournament)
    assert not PairingJob.objects.exists()
    with django_capture_on_commit_callbacks(execute=False):
        location = _client(organizer).post(_dashboard(tournament), {"action": "pair"})["Location"]
    assert outsider.get(location).status_code == 404
    assert outsider.get(location + "state/").status_code == 404
    assert location not in outsider.get(_dashboard(tournament)).content.decode()


def test_the_list_action_queues_big_swiss_events_and_pairs_the_others(
        make_event: Any, organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    big = make_event("swiss", entrants=8, rounds_planned=3)
    small = make_event("swiss", entrants=4, rounds_planned=3)
    client = _client(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post("/admin/tournaments/tournament/", {
            "action": "pair_next_round", "_selected_action": [big.pk, small.pk]}, follow=True)
    text = page.content.decode()
    assert "the next round is being paired by a worker" in text
    assert "next round paired" in text
    assert PairingJob.objects.get().tournament == big
    assert big.rounds.count() == small.rounds.count() == 1
