"""Each PDF of the print pack read back with a PDF text extractor: the names exact
(Cyrillic and accents), the row counts, no row split across pages, the page numbers and
the footer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from printpack import pack
from tests.integration.printpack.conftest import NAMES, pdf_pages
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _footer_ok(pages: list[str], club: str = "Alpha Club") -> None:
    total = len(pages)
    for number, text in enumerate(pages, start=1):
        assert f"{number} / {total}" in text, (number, text[-200:])
        assert club in text


def test_pairings_by_board(hall_event: Any) -> None:
    body = pack.kind_pdf(hall_event, "pairings", number=1, base_url="http://testserver/")
    assert body is not None and body.startswith(b"%PDF-")
    pages = pdf_pages(body)
    _footer_ok(pages)
    text = "\n".join(pages)
    for name in NAMES:
        assert text.count(name) == 1, name  # each entrant on one board (or the bye) once
    boards = Pairing.objects.filter(round__tournament=hall_event, round__number=1).count()
    assert boards == 5  # 9 entrants: four boards and a bye
    lines = [line for line in text.splitlines() if re.match(r"^\d+ \d+ ", line)]
    assert len(lines) == boards, lines
    assert "Round 1: pairings by board" in text


def test_pairings_by_name_is_alphabetical_with_boards(hall_event: Any) -> None:
    body = pack.kind_pdf(hall_event, "by_name", number=2)
    assert body is not None
    text = "\n".join(pdf_pages(body))
    order = [next(name for name in NAMES if line.startswith(name))
             for line in text.splitlines() if any(line.startswith(name) for name in NAMES)]
    # by letters, accents aside: Ё with the Е, É with the E
    assert order == ["Émilie Dupont", "Kim Lee", "Zoë Brandt", "Аверина Ольга",
                     "Ёлкина Анна", "Жукова Мария", "Иванов Иван", "Сидоров Пётр",
                     "Щукин Юрий"]


def test_draft_round_prints_for_the_organizers_pack(hall_event: Any) -> None:
    body = pack.kind_pdf(hall_event, "pairings", number=3)
    assert body is not None
    assert "DRAFT: not released" in "\n".join(pdf_pages(body))
    public = pack.load(hall_event, drafts=False)
    assert pack.kind_pdf(hall_event, "pairings", number=3, data=public) is None


def test_result_slips_with_qr_codes(hall_event: Any) -> None:
    data = pack.load(hall_event)
    assert sum(len(links) for links in data.links.values()) == len(NAMES)
    body = pack.kind_pdf(hall_event, "slips", number=3, base_url="https://club.example/",
                         data=data)
    assert body is not None
    pages = pdf_pages(body)
    text = "\n".join(pages)
    assert text.count("Scan your code") == 4  # four boards with two players; the bye none
    assert len(pages) == 2  # three slips to a page
    _footer_ok(pages)
    for number in range(1, 5):
        assert f"round 3 · board {number}" in text


def test_result_slips_without_links_have_no_codes(hall_event: Any) -> None:
    data = pack.load(hall_event, links=False)
    body = pack.kind_pdf(hall_event, "slips", number=3, data=data)
    assert body is not None
    assert "Scan your code" not in "\n".join(pdf_pages(body))


def test_starting_list_and_checkin_totals(hall_event: Any) -> None:
    text = "\n".join(pdf_pages(pack.kind_pdf(hall_event, "starting") or b""))
    for name in NAMES:
        assert text.count(name) == 1
    pages = pdf_pages(pack.kind_pdf(hall_event, "checkin") or b"")
    _footer_ok(pages)
    text = "\n".join(pages)
    for name in NAMES:
        assert text.count(name) == 1
    # nine due 10.00; three (every third by seed) paid nothing
    assert "Total: 9 entrants 90.00 60.00 30.00" in text
    assert "Entry fee: 10.00" in text


def test_standings_with_tiebreak_columns_and_legend(hall_event: Any) -> None:
    text = "\n".join(pdf_pages(pack.kind_pdf(hall_event, "standings") or b""))
    assert "Standings after round 2" in text
    assert "BH-C1" in text and "Tie-breaks, in order: BH-C1: " in text
    for name in NAMES:
        assert text.count(name) == 1


def test_wall_chart_and_certificates(hall_event: Any) -> None:
    text = "\n".join(pdf_pages(pack.kind_pdf(hall_event, "wall_chart") or b""))
    for name in NAMES:
        assert text.count(name) == 1
    pages = pdf_pages(pack.kind_pdf(hall_event, "certificates") or b"")
    assert len(pages) >= 3  # the top three (more when places are shared)
    assert all("Certificate" in page for page in pages)
    assert "First place" in pages[0]
    assert "Chief arbiter: Судья Петрова" in pages[0]


def test_whole_event_pdf_and_zip(hall_event: Any) -> None:
    pages = pdf_pages(pack.event_pdf(hall_event, paper="Letter"))
    _footer_ok(pages)
    text = "\n".join(pages)
    for title in ("Starting list", "Check-in sheet", "Round 1: pairings by board",
                  "Round 3: pairings by name", "Round 3: result slips",
                  "Standings after round 2", "Wall chart", "Certificate"):
        assert title in text, title
    import io
    import zipfile

    archive = zipfile.ZipFile(io.BytesIO(pack.event_zip(hall_event)))
    names = archive.namelist()
    assert all(name.endswith(".pdf") for name in names)
    assert any("round-3-slips" in name for name in names)
    assert any("pairings-by-board" in name for name in names)
    for name in names:
        assert pdf_pages(archive.read(name))[0]


def test_russian(hall_event: Any) -> None:
    from django.utils import translation

    with translation.override("ru"):
        text = "\n".join(pdf_pages(pack.kind_pdf(hall_event, "checkin") or b""))
    assert "Лист регистрации" in text
    assert "Ёлкина Анна" in text
