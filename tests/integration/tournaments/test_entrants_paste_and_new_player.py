"""Issue 34: the entrants page takes a pasted list of names (one per line, errors by line,
like the file upload) and its "New player" link comes back to the page with the new
player entered (the return address is checked: no open redirect)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from players.models import Player
from tournaments import services
from tournaments.entry_lists import EntryListError, read_pasted_names

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(club: Any, name: str) -> dict[str, Any]:
    return {"display_name": name, "club": club.pk, "bot_kind": "", "bot_settings": "{}",
            "installed_bot": "", "fide_id": "", "birth_year": "", "sex": "",
            "federation": "", "title": ""}


def test_pasted_names_are_read_line_by_line() -> None:
    rows = read_pasted_names("Kowalska, Anna\n\n  Bo   Li \r\nCy\n")
    assert [(row.line, row.name) for row in rows] == [(1, "Kowalska, Anna"), (3, "Bo Li"),
                                                      (4, "Cy")]
    with pytest.raises(EntryListError, match=r"line 3: ada is listed twice \(first on line 1"):
        read_pasted_names("Ada\nBo\nada\n")
    with pytest.raises(EntryListError, match="names nobody"):
        read_pasted_names(" \n\n")


def test_entrants_page_previews_then_enters_pasted_names(club_a: Any,
                                                         organizer: Any) -> None:
    Player.objects.create(display_name="Anna Kowalska", club=club_a)
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Open",
                                            game="kugamai", format="round_robin")
    client = _client(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    assert 'id="paste-names"' in client.get(url).content.decode()
    page = client.post(url, {"action": "paste",
                             "names": "anna kowalska\nNowak, Jan\n"}).content.decode()
    assert "found in the club" in page and "Nowak, Jan" in page
    assert tournament.entrants.count() == 0
    text = re.search(r'<textarea name="text" hidden>(.*?)</textarea>', page, re.S)
    assert text is not None
    client.post(url, {"action": "upload_confirm", "text": html.unescape(text.group(1))})
    assert sorted(e.name for e in tournament.entrants.all()) == ["Anna Kowalska", "Nowak, Jan"]
    response = client.post(url, {"action": "paste", "names": "Ada\n\nada\n"}, follow=True)
    assert "line 3: ada is listed twice (first on line 1)" in response.content.decode()


def test_new_player_from_the_entrants_page_comes_back_entered(club_a: Any,
                                                              organizer: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Open",
                                            game="kugamai", format="round_robin")
    client = _client(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    link = re.search(r'href="([^"]*)" id="new-player"', client.get(url).content.decode())
    assert link is not None
    add = html.unescape(link.group(1))
    assert add.startswith("/admin/players/player/add/?")
    response = client.post(add, _form(club_a, "Zoe Adams"))
    assert response.status_code == 302 and response["Location"] == url
    assert [e.name for e in tournament.entrants.all()] == ["Zoe Adams"]
    page = client.get(url).content.decode()
    assert "Zoe Adams entered in Open." in page


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x",
                                    "/\\evil.example", "javascript:alert(1)"])
def test_new_player_return_address_is_checked(club_a: Any, organizer: Any,
                                              target: str) -> None:
    client = _client(organizer)
    response = client.post("/admin/players/player/add/?" +
                           f"next={target}", _form(club_a, f"P {len(target)}"))
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/players/player/")
