"""The director's side: the round page's report states and "confirm all agreed", the
conflict queue (both claims, pick one or enter the result), every submission listed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from reporting import services
from reporting.models import ResultReport
from tests.integration.reporting.conftest import board_links
from tournaments.models import Outcome

pytestmark = pytest.mark.django_db


def claim(link: Any, pairing: Any, wins_a: int, wins_b: int) -> None:
    services.report_submit(link=link, pairing=pairing, kind="score",
                           data={"wins_a": wins_a, "wins_b": wins_b})


def test_round_page_confirms_all_agreed_and_queue_settles_the_rest(
        reporting_event: Any, organizer: Any, client: Client) -> None:
    tournament, round_, found = reporting_event(entrants=6)
    first, second, third = round_.pairings.order_by("board")
    for pairing in (first, second):
        a, b = board_links(pairing, found)
        claim(a, pairing, 1, 0)
        claim(b, pairing, 1, 0)
    a, b = board_links(third, found)
    claim(a, third, 1, 0)
    claim(b, third, 0, 1)
    client.force_login(organizer)
    round_url = f"/admin/tournaments/round/{round_.pk}/change/"
    page = client.get(round_url).content.decode()
    assert 'id="round-reports"' in page and "Confirm all agreed" in page
    assert "1 board to settle" in page
    done = client.post(f"/admin/reporting/resultreport/confirm-round/{round_.pk}/",
                       {"next": round_url})
    assert done.status_code == 302 and done["Location"] == round_url
    assert [p.outcome for p in round_.pairings.order_by("board")] == [
        Outcome.A_WINS, Outcome.A_WINS, Outcome.PENDING]

    queue = client.get("/admin/reporting/resultreport/queue/").content.decode()
    assert f'id="queue-board-{third.pk}"' in queue
    assert third.entrant_a.name in queue and third.entrant_b.name in queue
    client.post(f"/admin/reporting/resultreport/resolve/{third.pk}/",
                {"wins_a": "x", "wins_b": "1"})
    third.refresh_from_db()
    assert third.outcome == Outcome.PENDING  # a bad entry changes nothing
    client.post(f"/admin/reporting/resultreport/resolve/{third.pk}/",
                {"wins_a": "0", "wins_b": "1"})
    third.refresh_from_db()
    assert (third.outcome, third.wins_b) == (Outcome.B_WINS, 1)
    assert "Nothing to settle" in client.get(
        "/admin/reporting/resultreport/queue/").content.decode()
    listing = client.get("/admin/reporting/resultreport/").content.decode()
    assert "accepted" in listing and "overridden by the director" in listing


def test_other_clubs_cannot_settle_or_see(reporting_event: Any, club_b: Any,
                                          client: Client) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    claim(a, pairing, 1, 0)
    claim(b, pairing, 0, 1)
    client.force_login(club_b.organizers.get())
    report = ResultReport.objects.first()
    assert report is not None
    refused = client.post(f"/admin/reporting/resultreport/resolve/{pairing.pk}/",
                          {"report": report.pk})
    assert refused.status_code == 403
    assert client.post(f"/admin/reporting/resultreport/confirm-round/{round_.pk}/"
                       ).status_code == 403
    assert f"queue-board-{pairing.pk}" not in client.get(
        "/admin/reporting/resultreport/queue/").content.decode()
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.PENDING


def test_reporting_settings_saved_through_the_service(reporting_event: Any, organizer: Any,
                                                      client: Client) -> None:
    from reporting.models import ReportingSettings

    tournament, round_, found = reporting_event()
    client.force_login(organizer)
    answer = client.post("/admin/reporting/reportingsettings/add/", {
        "tournament": tournament.pk, "enabled": "on", "auto_confirm": "on"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    saved = ReportingSettings.objects.get(tournament=tournament)
    assert saved.enabled and saved.auto_confirm
