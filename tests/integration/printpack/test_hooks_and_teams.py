"""The prizes helper's hook (the prize list and the category winners' certificates from
plain rows, made by hand here) and a team event's lineups."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from typing import Any

import pytest
from pypdf import PdfReader

from players.models import Club, Player, Team, TeamMembership
from printpack import documents, pack
from printpack.layout import Document, render
from tests.integration.printpack.conftest import pdf_pages
from tournaments import services
from tournaments.models import Tournament


def _text(tournament: Tournament, *sections: Any) -> list[str]:
    doc = Document(title="t", club="Клуб", date="5 Dec 2026", sections=tuple(sections))
    return [page.extract_text() for page in PdfReader(io.BytesIO(render(doc))).pages]


def test_prize_list_and_category_certificates_from_plain_rows() -> None:
    tournament = Tournament(name="Кубок", club=Club(name="Клуб"), venue="Дом культуры",
                            starts_on=dt.date(2026, 12, 5), chief_arbiter="Петрова")
    rows = [
        {"group": "", "place": 1, "name": "Иванов Иван", "points": 7.5, "prize": Decimal(300)},
        {"group": "", "place": "2–3", "name": "Ёлкина Анна", "points": 6.5,
         "prize": Decimal("150.50")},
        {"group": "До 12 лет", "place": 1, "name": "Щукин Юрий", "points": 5, "prize": "кубок"},
        {"group": "Женщины", "place": 1, "name": "Жукова Мария", "points": 5.5, "prize": ""},
    ]
    assert documents.prize_list(tournament, []) is None
    section = documents.prize_list(tournament, rows)
    assert section is not None
    text = "\n".join(_text(tournament, section))
    assert "Prize list" in text
    assert "Иванов Иван 7½ 300.00" in text
    assert "2–3 Ёлкина Анна 6½ 150.50" in text
    assert "До 12 лет 1 Щукин Юрий 5 кубок" in text
    winners = [row for row in rows if row["group"] and row["place"] == 1]
    certificates = documents.category_certificates(tournament, winners)
    assert certificates is not None
    pages = _text(tournament, certificates)
    assert len(pages) == 2
    assert "До 12 лет" in pages[0] and "Щукин Юрий" in pages[0] and "First place" in pages[0]
    assert "Женщины" in pages[1] and "Chief arbiter: Петрова" in pages[1]
    assert documents.category_certificates(tournament, []) is None


@pytest.mark.django_db
def test_team_lineups(club_a: Any, organizer: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Пары",
                                            game="kazambi-pairs", format="round_robin")
    names = [["Иванов Иван", "Ёлкина Анна"], ["Щукин Юрий", "Жукова Мария"]]
    for number, members in enumerate(names, start=1):
        team = Team.objects.create(name=f"Команда {number}", club=club_a)
        for name in members:
            player = Player.objects.create(display_name=name, club=club_a)
            TeamMembership.objects.create(team=team, player=player, joined_on="2026-01-01")
        services.entrant_register(actor=organizer, tournament=tournament, team=team)
    body = pack.kind_pdf(tournament, "lineups")
    assert body is not None
    text = "\n".join(pdf_pages(body))
    assert "Team lineups" in text and "Команда 1" in text and "Команда 2" in text
    for members in names:
        for name in members:
            assert text.count(name) == 1
    players_event = services.tournament_create(actor=organizer, club=club_a, name="Solo",
                                               game="kugamai", format="round_robin")
    assert pack.kind_pdf(players_event, "lineups") is None


@pytest.mark.django_db
def test_round_robin_crosstable(club_a: Any, organizer: Any) -> None:
    from tests.integration.printpack.conftest import play, record_all
    from tests.worlds import people, tournament_of

    players = people(club_a, ["Иванов Иван", "Ёлкина Анна", "Щукин Юрий", "Жукова Мария"])
    tournament = tournament_of(organizer, club_a, players, name="Круговой", start=True,
                               rated=False)
    for _ in range(3):
        record_all(organizer, play(organizer, tournament))
    body = pack.kind_pdf(tournament, "crosstable")
    assert body is not None
    text = "\n".join(pdf_pages(body))
    assert "Crosstable after round 3" in text
    assert text.count("×") == 4  # the diagonal
    for name in ("Иванов Иван", "Ёлкина Анна", "Щукин Юрий", "Жукова Мария"):
        assert text.count(name) == 1
    swiss = services.tournament_create(actor=organizer, club=club_a, name="Swiss",
                                       game="kugamai", format="swiss")
    assert pack.kind_pdf(swiss, "crosstable") is None
