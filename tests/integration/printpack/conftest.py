"""A Swiss event for the print pack: Cyrillic and accented names, two rounds played, the
third paired as a draft; fees due and paid; private links for every player."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import pytest
from pypdf import PdfReader

from games.series import MatchScore
from matches.services import match_result_record
from playerlinks.services import links_issue_missing
from tests.worlds import people, tournament_of
from tournaments import services
from tournaments.models import Tournament

NAMES = ["Иванов Иван", "Ёлкина Анна", "Émilie Dupont", "Сидоров Пётр", "Zoë Brandt",
         "Щукин Юрий", "Аверина Ольга", "Kim Lee", "Жукова Мария"]


def pdf_pages(body: bytes) -> list[str]:
    """Each page's text, as a PDF reader extracts it."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(body)).pages]


def play(organizer: Any, tournament: Tournament, *, release: bool = True) -> Any:
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=release)
    return round_


def record_all(organizer: Any, round_: Any) -> None:
    for board in round_.pairings.filter(outcome="pending").order_by("board"):
        score = MatchScore(1, 0) if board.board % 2 else MatchScore(0, 1)
        match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                            score=score)


@pytest.fixture
def hall_event(club_a: Any, organizer: Any) -> Tournament:
    players = people(club_a, NAMES)
    tournament = tournament_of(organizer, club_a, players, name="Кубок клуба",
                               format="swiss", rounds_planned=5, start=True,
                               tiebreaks=["buchholz_cut1", "buchholz"],
                               chief_arbiter="Судья Петрова", rated=False)
    Tournament.objects.filter(pk=tournament.pk).update(venue="Дом культуры",
                                                       entry_fee=Decimal("10.00"))
    for index, entrant in enumerate(tournament.entrants.order_by("seed")):
        entrant.fee_due = Decimal("10.00")
        entrant.fee_paid = Decimal("10.00") if index % 3 else Decimal("0.00")
        entrant.save(update_fields=["fee_due", "fee_paid"])
    for _ in range(2):
        record_all(organizer, play(organizer, tournament))
    play(organizer, tournament, release=False)  # round 3: a draft
    links_issue_missing(actor=organizer, tournament=tournament)
    tournament.refresh_from_db()
    return tournament
