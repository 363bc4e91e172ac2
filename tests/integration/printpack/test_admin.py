"""The Print block in the admin: one click per PDF (status, content type, file name), the
paper choice, the whole event as one PDF or a zip; other clubs' organizers refused, bad
input refused with nothing built."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.integration.printpack.conftest import pdf_pages

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)  # organizers need not be staff
    return client


def _url(tournament: Any) -> str:
    return f"/admin/tournaments/tournament/{tournament.pk}/print/"


DOWNLOADS = [
    ("pairings", 1, "round-1-pairings-a4.pdf"),
    ("by_name", 3, "round-3-by-name-a4.pdf"),
    ("slips", 3, "round-3-slips-a4.pdf"),
    ("starting", None, "starting-a4.pdf"),
    ("checkin", None, "checkin-a4.pdf"),
    ("standings", None, "standings-a4.pdf"),
    ("wall_chart", None, "wall-chart-a4.pdf"),
    ("certificates", None, "certificates-a4.pdf"),
]


def test_each_pdf_downloads(hall_event: Any, organizer: Any) -> None:
    client = _client(organizer)
    for kind, number, name in DOWNLOADS:
        query: dict[str, Any] = {"kind": kind, "paper": "A4",
                                 **({"round": number} if number else {})}
        response = client.get(_url(hall_event), query)
        assert response.status_code == 200, (kind, response.content[:200])
        assert response["Content-Type"] == "application/pdf"
        assert (response["Content-Disposition"]
                == f'attachment; filename="{hall_event.slug}-{name}"')
        assert "no-store" in response["Cache-Control"]
        assert pdf_pages(response.content)


def test_letter_and_whole_event(hall_event: Any, organizer: Any) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    client = _client(organizer)
    response = client.get(_url(hall_event), {"kind": "event", "paper": "Letter"})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('print-pack-letter.pdf"')
    first = PdfReader(BytesIO(response.content)).pages[0]
    assert (round(float(first.mediabox.width)), round(float(first.mediabox.height))) == (612, 792)
    response = client.get(_url(hall_event), {"kind": "zip", "paper": "A4"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response.content[:2] == b"PK"


def test_other_clubs_organizer_is_refused(hall_event: Any, club_b: Any) -> None:
    client = _client(club_b.organizers.get())
    for kind in ("pairings", "event", "zip", "checkin"):
        response = client.get(_url(hall_event), {"kind": kind, "round": "1"})
        assert response.status_code == 403
    dashboard = client.get(f"/admin/tournaments/tournament/{hall_event.pk}/dashboard/")
    assert b"print-pack" not in dashboard.content


def test_anonymous_goes_to_the_login(hall_event: Any) -> None:
    response = Client().get(_url(hall_event), {"kind": "checkin"})
    assert response.status_code == 302 and "/login/" in response["Location"]


BAD_QUERIES = [
    {"kind": "nope"}, {"kind": "checkin", "paper": "A3"}, {"kind": "pairings"},
    {"kind": "pairings", "round": "x"}, {"kind": "pairings", "round": "²"},
    {"kind": "pairings", "round": "1\x00"}, {"kind": "pairings", "round": "9" * 400},
    {"kind": "checkin\x00"},
]


def test_bad_input_is_refused(hall_event: Any, organizer: Any) -> None:
    client = _client(organizer)
    for query in BAD_QUERIES:
        assert client.get(_url(hall_event), query).status_code == 400, query


def test_no_such_round_or_tournament(hall_event: Any, organizer: Any) -> None:
    client = _client(organizer)
    assert client.get(_url(hall_event), {"kind": "pairings", "round": "7"}).status_code == 404
    assert client.get("/admin/tournaments/tournament/999999/print/",
                      {"kind": "checkin"}).status_code == 404


def test_print_block_on_dashboard_and_round_page(hall_event: Any, organizer: Any) -> None:
    client = _client(organizer)
    page = client.get(f"/admin/tournaments/tournament/{hall_event.pk}/dashboard/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="print-pack"' in html and 'value="zip"' in html and 'value="Letter"' in html
    round_ = hall_event.rounds.get(number=3)
    page = client.get(f"/admin/tournaments/round/{round_.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="print-pack"' in html and 'id="print-pack-fold"' in html
    assert 'name="round" value="3"' in html and 'value="slips"' in html
