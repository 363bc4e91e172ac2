"""Issue 34, broken 1: a TRF export imported back into its club rated the same games
twice (a player went from 10 to 15 rated games). The import now has a "rated" choice, off
by default when the club already holds the file's games, and warns of both that and a
tournament of the same name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.series.format import MatchScore
from matches.services.imports import tournament_import_trf, trf_import_preview
from ratings.models import Rating
from tournaments import selectors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _played(make_tournament: Any, play_round: Any) -> Any:
    tournament = make_tournament("swiss", entrants=6, rounds_planned=3, game="kazambi")
    play_round(tournament, lambda p: MatchScore(1, 0, 0))
    play_round(tournament, lambda p: MatchScore(0, 1, 0))
    return tournament


def _games_of(club: Any) -> dict[str, int]:
    return {r.player.display_name: r.games
            for r in Rating.objects.filter(club=club, family="kazambi").select_related("player")}


def test_reimported_export_is_not_rated_again(make_tournament: Any, play_round: Any,
                                              organizer: Any, club_a: Any) -> None:
    tournament = _played(make_tournament, play_round)
    before = _games_of(club_a)
    assert set(before.values()) == {2}
    text = selectors.tournament_trf(tournament)
    preview = trf_import_preview(actor=organizer, club=club_a, text=text, game="kazambi")
    assert preview.rated is False
    assert preview.same_games_in == tournament and preview.same_games == 6
    assert preview.same_name == tournament
    copy = tournament_import_trf(actor=organizer, club=club_a, text=text, game="kazambi",
                                 name="Copy")
    assert copy.rated is False
    assert _games_of(club_a) == before


def test_rated_choice_can_force_either_way(make_tournament: Any, play_round: Any,
                                           organizer: Any, club_a: Any, club_b: Any) -> None:
    tournament = _played(make_tournament, play_round)
    text = selectors.tournament_trf(tournament)
    forced = tournament_import_trf(actor=organizer, club=club_a, text=text, game="kazambi",
                                   name="Forced", rated=True)
    assert forced.rated is True
    assert set(_games_of(club_a).values()) == {4}
    other = trf_import_preview(actor=club_b.organizers.get(), club=club_b, text=text,
                               game="kazambi")
    assert other.rated is True and other.same_games_in is None and other.same_name is None


def test_import_page_warns_and_defaults_to_unrated(make_tournament: Any, play_round: Any,
                                                   organizer: Any, club_a: Any) -> None:
    tournament = _played(make_tournament, play_round)
    client = Client()
    client.force_login(organizer)
    url = "/admin/tournaments/tournament/import-trf/"
    upload = SimpleUploadedFile("t.trf", selectors.tournament_trf(tournament).encode())
    page = client.post(url, {"club": club_a.pk, "game": "kazambi", "name": "",
                             "file": upload}).content.decode()
    assert re.search(rf"{tournament.name} already holds 6 of this file.s 6 played games", page)
    assert "The club already has a tournament named" in page
    assert "The imported games will not be rated." in page
    assert '<option value="no" selected>' in page
    text = re.search(r'name="text" value="([^"]*)"', page, re.S)
    assert text is not None
    import html

    before = _games_of(club_a)
    client.post(url, {"club": club_a.pk, "game": "kazambi", "name": "Again", "rated": "no",
                      "text": html.unescape(text.group(1)), "_import": "Import"})
    assert Tournament.objects.get(name="Again").rated is False
    assert _games_of(club_a) == before


def test_import_command_has_the_rated_choice(make_tournament: Any, play_round: Any,
                                             admin_user: Any, club_a: Any,
                                             tmp_path: Any) -> None:
    import io

    from django.core.management import call_command

    tournament = _played(make_tournament, play_round)
    path = tmp_path / "t.trf"
    path.write_text(selectors.tournament_trf(tournament), encoding="utf-8")
    before = _games_of(club_a)
    call_command("import_trf", str(path), "--club", club_a.slug, "--name", "Back",
                 stdout=io.StringIO())
    assert Tournament.objects.get(name="Back").rated is False
    assert _games_of(club_a) == before
    call_command("import_trf", str(path), "--club", club_a.slug, "--name", "Forced",
                 "--rated", stdout=io.StringIO())
    assert Tournament.objects.get(name="Forced").rated is True
