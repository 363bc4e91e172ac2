"""Issue 34: the TRF export writes the players' sex, title, federation and birth year, and
the tournament's 042/052/102 header lines (start, end, chief arbiter)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from core.errors import ApplicationError
from games.series.format import MatchScore
from players import services
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.trf import read_trf

pytestmark = pytest.mark.django_db


def test_trf_export_writes_the_fields_and_header_lines(club_a: Any, organizer: Any,
                                                       play_round: Any) -> None:
    people = [services.player_create(actor=organizer, display_name=f"P{i}", club=club_a)
              for i in range(4)]
    services.player_update(actor=organizer, player=people[0], birth_year=1975, sex="w",
                           federation="POL", title="WGM")
    tournament = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Spring", game="kugamai", format="swiss",
        rounds_planned=3, starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2),
        chief_arbiter="Jan Nowak")
    for rating, player in zip((2000, 1900, 1800, 1700), people, strict=True):
        tournament_services.entrant_register(actor=organizer, tournament=tournament,
                                             player=player, rating=rating)
    tournament = tournament_services.tournament_start(actor=organizer, tournament=tournament)
    play_round(tournament, lambda p: MatchScore(1, 0, 0))
    text = selectors.tournament_trf(tournament)
    lines = text.splitlines()
    assert "042 2026/03/01" in lines and "052 2026/03/02" in lines
    assert "102 Jan Nowak" in lines
    document = read_trf(text)
    first = next(p for p in document.players if p.name == "P0")
    assert (first.sex, first.title, first.federation, first.birth_date) == (
        "w", "WGM", "POL", "1975")
    with pytest.raises(ApplicationError) as error:
        tournament_services.tournament_update(actor=organizer, tournament=tournament,
                                              ends_on=dt.date(2026, 2, 1))
    assert error.value.field == "ends_on"
