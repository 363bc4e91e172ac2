"""Issue 34: the player fields prize categories and lists use (birth year, sex, federation,
title): checked by the service, in the API and the entry-list upload (the TRF export:
tests/integration/tournaments/test_trf_header.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from core.errors import ApplicationError
from players import services
from players.models import Player
from tournaments import services as tournament_services
from tournaments.entry_lists import EntryListError, read_upload, row_categories

pytestmark = pytest.mark.django_db


def test_service_checks_and_normalises_the_category_fields(club_a: Any,
                                                            organizer: Any) -> None:
    player = services.player_create(actor=organizer, display_name="Anna Kowalska",
                                    club=club_a, birth_year=1990, sex="W",
                                    federation="pol", title="wgm")
    assert (player.birth_year, player.sex, player.federation, player.title) == (
        1990, "w", "POL", "WGM")
    refusals: dict[str, list[Any]] = {"birth_year": [1899, dt.date.today().year + 1], "sex": ["x"],
                "federation": ["PO", "P0L"], "title": ["XYZ"]}
    for field, values in refusals.items():
        for value in values:
            with pytest.raises(ApplicationError) as error:
                services.player_update(actor=organizer, player=player, **{field: value})
            assert error.value.field == field
            player.refresh_from_db()
    player.refresh_from_db()
    assert player.federation == "POL"


def test_api_reads_and_writes_the_category_fields(club_a: Any, organizer: Any,
                                                  as_user: Any) -> None:
    api = as_user(organizer)
    created = api.post("/api/players/", {"display_name": "Bo", "club": club_a.pk,
                                         "birth_year": 2001, "sex": "m", "federation": "SWE",
                                         "title": "FM"}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["birth_year"], body["sex"], body["federation"], body["title"]) == (
        2001, "m", "SWE", "FM")
    refused = api.patch(f"/api/players/{body['id']}/", {"federation": "SW"}, format="json")
    assert refused.status_code == 400
    assert "federation" in refused.content.decode()


def test_entry_list_reads_category_columns_and_names_bad_lines(club_a: Any,
                                                                organizer: Any) -> None:
    rows = read_upload(b"name,rating,birth_year,sex,federation,title\n"
                       b"Ada,1500,1985,f,ger,IM\nBo,,,m,,\n")
    assert rows[0].categories() == {"birth_year": 1985, "sex": "w", "federation": "GER",
                                    "title": "IM"}
    assert rows[1].categories() == {"sex": "m"}
    with pytest.raises(EntryListError, match="line 3: the federation 'GE' is not three"):
        read_upload(b"name,federation\nAda,GER\nBo,GE\n")
    tournament = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Open", game="kugamai", format="round_robin")
    tournament_services.entry_list_register(actor=organizer, tournament=tournament, rows=rows)
    ada = Player.objects.get(display_name="Ada")
    assert (ada.birth_year, ada.sex, ada.federation, ada.title) == (1985, "w", "GER", "IM")
    bad = read_upload(b"name,title\nCy,XX\n")
    with pytest.raises(ApplicationError, match="Line 2: Unknown title"):
        tournament_services.entry_list_register(actor=organizer, tournament=tournament,
                                                rows=bad)


def test_trf_dates_and_short_titles_are_read() -> None:
    assert row_categories(7, "1975/03/12", "f", "pol", "wg") == {
        "birth_year": 1975, "sex": "w", "federation": "POL", "title": "WGM"}
    with pytest.raises(EntryListError, match="line 7: the birth year '19x5' is not a year"):
        row_categories(7, "19x5/03/12", "", "", "")
