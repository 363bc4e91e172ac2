"""The whole pack prints the prize list from ``tournaments.prize_lists`` and a certificate
for each category winner (the overall places have their own certificates)."""

from __future__ import annotations

from typing import Any

import pytest

from printpack import pack
from tests.integration.printpack.conftest import pdf_pages
from tests.integration.prizes.events import LADDER, cash, play
from tournaments.services.prizes import prize_group_create

pytestmark = pytest.mark.django_db


def test_the_prize_list_and_a_category_winners_certificate(club_a: Any,
                                                            organizer: Any) -> None:
    tournament = play(organizer, club_a, LADDER, names=("Анна Ким", "B", "C", "Dora"))
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(100, 50))
    prize_group_create(actor=organizer, tournament=tournament, name="Under 1800",
                       kind="rating_band", rating_max=1799, prizes=cash(20))

    rows = pack.prize_rows(tournament)
    assert [(row["group"], row["place"]) for row in rows] == [
        ("Overall", 1), ("Overall", 2), ("Under 1800", 1)]
    assert rows[0]["name"] == "Анна Ким"
    pages = pdf_pages(pack.event_pdf(tournament))
    listing = next(page for page in pages if "Prize list" in page)
    assert "Анна Ким" in listing and "Under 1800" in listing
    certificates = [page for page in pages if "Under 1800" in page and "Prize list" not in page]
    assert len(certificates) == 1 and "Dora" in certificates[0]


def test_no_prizes_no_prize_pages(club_a: Any, organizer: Any) -> None:
    tournament = play(organizer, club_a, LADDER)
    assert pack.prize_rows(tournament) == []
    assert not any("Prize list" in page for page in pdf_pages(pack.event_pdf(tournament)))
