"""The organizer's admin without the API: the settings form's fields, the dashboard's next
step, the entrants page (many at once, uploads, late entries, byes, forbidden pairs), the
TRF import with its preview (Latin-1, BOM, errors by line) and reopening."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from players.models import Player
from ratings.models import Rating
from tests.trf_samples import NAMES, club_swiss_trf, latin1_trf_bytes
from tournaments import services
from tournaments.models import ForbiddenPairing, RequestedBye, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of() -> Any:
    def login(user: Any) -> Client:
        client = Client()
        client.force_login(user)  # organizers need not be staff
        return client

    return login


def settings_post(club: Any, **fields: Any) -> dict[str, Any]:
    data = {"club": club.pk, "name": "Spring Swiss", "game": "kazambi", "format": "swiss",
            "rounds_planned": "5", "rated": "on", "match_kind": "best_of", "match_games": "3",
            "match_cap": "", "points_win": "1", "points_draw": "0.5", "points_loss": "0",
            "points_bye": "1", "clock": "15+10", "grand_final_reset": "on"}
    data.update({f"tiebreak_{i}": "" for i in range(1, 7)})
    data.update(fields)
    return data


def test_settings_form_has_fields_not_json(club_a: Any, organizer: Any, client_of: Any) -> None:
    assert not organizer.is_staff
    client = client_of(organizer)
    page = client.get("/admin/tournaments/tournament/add/").content.decode()
    assert "Enter a valid JSON" not in page and 'name="match_kind"' in page
    assert 'name="tiebreak_1"' in page and "BH-C1: Buchholz Cut-1" in page
    assert 'name="board_rows"' in page and 'name="deck"' in page
    response = client.post("/admin/tournaments/tournament/add/", settings_post(club_a))
    tournament = Tournament.objects.get()
    assert response["Location"] == f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    assert tournament.match_format == {"kind": "best_of", "games": 3, "max_games": None,
                                       "duplicate": False}
    assert tournament.tiebreaks == ["buchholz_cut1", "buchholz", "direct_encounter", "wins",
                                    "games_second_move"]
    assert tournament.game_options == {"rows": 7, "cols": 8}
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    page = client.get(change).content.decode()
    assert 'id="clock-advice"' in page and "minutes" in page
    client.post(change, settings_post(club_a, board_rows="6", tiebreak_1="sonneborn_berger",
                                      tiebreak_2="wins"))
    tournament.refresh_from_db()
    assert tournament.game_options == {"rows": 6, "cols": 8}
    assert tournament.tiebreaks == ["sonneborn_berger", "wins"]


def test_settings_errors_show_by_their_field(club_a: Any, organizer: Any,
                                             client_of: Any) -> None:
    client = client_of(organizer)
    page = client.post("/admin/tournaments/tournament/add/",
                       settings_post(club_a, match_games="4")).content.decode()
    assert "best of 4 can end level: use an odd number" in page
    page = client.post("/admin/tournaments/tournament/add/",
                       settings_post(club_a, tiebreak_1="wins", tiebreak_2="wins")).content.decode()
    assert "A tie-break is listed twice." in page
    page = client.post("/admin/tournaments/tournament/add/",
                       settings_post(club_a, board_rows="13")).content.decode()
    assert "less than or equal to 12" in page
    assert not Tournament.objects.exists()


def test_entrants_page_enters_many_by_rating_and_runs_the_tournament(
        club_a: Any, organizer: Any, client_of: Any) -> None:
    players = [Player.objects.create(display_name=name, club=club_a)
               for name in ("Ivo", "Hana", "Gil", "Fay")]
    Rating.objects.create(player=players[2], club=club_a, family="kazambi", system="glicko2",
                          rating=1650.6, rd=90, volatility=0.06, peak_rating=1700)
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Open",
                                            game="kazambi", format="swiss", rounds_planned=3)
    client = client_of(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    page = client.get(url).content.decode()
    assert re.search(r"Gil <span class=\"tt-muted\">1651</span>", page)
    client.post(url, {"action": "register", "chosen": [p.pk for p in players]})
    names = [e.name for e in tournament.entrants.order_by("id")]
    assert names == ["Gil", "Fay", "Hana", "Ivo"]  # rated first, then by name
    ivo_entry = tournament.entrants.get(player=players[0])
    hana_entry = tournament.entrants.get(player=players[1])
    client.post(url, {"action": "ratings", f"rating-{hana_entry.pk}": "1700",
                      f"rating-{ivo_entry.pk}": "99999"})  # all or none
    assert tournament.entrants.get(pk=hana_entry.pk).rating == 0
    client.post(url, {"action": "ratings", f"rating-{ivo_entry.pk}": "1700"})
    dashboard = f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    assert 'value="Start"' in client.get(dashboard).content.decode()
    client.post(dashboard, {"action": "start"})
    seeds = [e.name for e in tournament.entrants.order_by("seed")]
    assert seeds == ["Ivo", "Gil", "Fay", "Hana"]
    assert 'value="Pair round 1"' in client.get(dashboard).content.decode()
    client.post(dashboard, {"action": "pair"})
    drafted = client.get(dashboard).content.decode()
    assert 'value="Release round 1"' in drafted and 'class="tt-draft"' in drafted
    client.post(dashboard, {"action": "release"})
    released = client.get(dashboard).content.decode()
    assert "Enter round 1 results" in released and 'class="tt-draft"' not in released
    late = Player.objects.create(display_name="Eve", club=club_a)
    client.post(url, {"action": "register", "chosen": [late.pk], "late_byes": "half_point"})
    entrant = tournament.entrants.get(player=late)
    assert entrant.joined_round == 2
    assert tournament.rounds.get(number=1).pairings.filter(entrant_a=entrant,
                                                           bye_kind="half_point").exists()
    ivo = tournament.entrants.get(player=players[0])
    client.post(url, {"action": "bye", "entrant": ivo.pk, "round_number": 3,
                      "kind": "zero"})
    assert RequestedBye.objects.get().kind == "zero"
    client.post(url, {"action": "forbid", "entrant_a": ivo.pk, "entrant_b": entrant.pk})
    assert ForbiddenPairing.objects.count() == 1
    client.post(url, {"action": "withdraw", "entrant": ivo.pk})
    ivo.refresh_from_db()
    assert ivo.withdrawn_from_round == 2
    response = client.post(url, {"action": "reenter", "entrant": ivo.pk}, follow=True)
    assert "Entered again from the next round." in response.content.decode()
    standings = client.get(dashboard).content.decode().split('id="standings"')[1]
    headings = re.findall(r'<th class="tt-wide">([^<]*)</th>', standings.split("</thead>")[0])
    assert headings == ["BH-C1", "BH", "DE", "WIN", "BPG"]
    assert "None" not in standings.split("</table>")[0]


def test_entry_list_upload_previews_then_enters(club_a: Any, organizer: Any,
                                                client_of: Any) -> None:
    Player.objects.create(display_name="José Ibáñez", club=club_a)
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Open",
                                            game="kugamai", format="round_robin")
    client = client_of(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    csv = "Name;Rating\r\nJosé Ibáñez;1810\r\nZoë Lefèvre;\r\nÖmer Çelik;1500\r\n"
    upload = SimpleUploadedFile("list.csv", csv.encode("cp1252"))
    page = client.post(url, {"action": "upload", "file": upload}).content.decode()
    assert "Zoë Lefèvre" in page and "found in the club" in page
    assert "Enter them (2 new players)" in page
    assert tournament.entrants.count() == 0  # only a preview
    text = re.search(r'<textarea name="text" hidden>(.*?)</textarea>', page, re.S)
    assert text is not None
    import html

    client.post(url, {"action": "upload_confirm", "text": html.unescape(text.group(1))})
    assert {(e.name, e.rating) for e in tournament.entrants.all()} == {
        ("José Ibáñez", 1810), ("Zoë Lefèvre", 0), ("Ömer Çelik", 1500)}
    bad = SimpleUploadedFile("bad.csv", b"name,rating\nAda,12x\n")
    response = client.post(url, {"action": "upload", "file": bad}, follow=True)
    assert "line 2: the rating &#x27;12x&#x27; is not a whole number" in \
        response.content.decode()


def test_trf_import_previews_latin1_then_imports(club_a: Any, organizer: Any,
                                                 client_of: Any) -> None:
    client = client_of(organizer)
    url = "/admin/tournaments/tournament/import-trf/"
    assert "Import a TRF file" in client.get("/admin/tournaments/tournament/").content.decode()
    data = latin1_trf_bytes()
    page = client.post(url, {"club": club_a.pk, "game": "kazambi", "name": "",
                             "file": SimpleUploadedFile("winter.trf", data)}).content.decode()
    assert "Hiver du club 2026: 10 players (10 new), 3 of 3 rounds, 15 results" in page
    assert "Jürgen Müller" in page and "Søren Østergård" in page
    assert not Tournament.objects.exists() and not Player.objects.exists()  # a dry run
    text = re.search(r'name="text" value="([^"]*)"', page, re.S)
    assert text is not None
    import html

    response = client.post(url, {"club": club_a.pk, "game": "kazambi", "name": "",
                                 "text": html.unescape(text.group(1)), "_import": "Import"})
    tournament = Tournament.objects.get()
    assert response["Location"] == f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    assert tournament.name == "Hiver du club 2026"
    assert sorted(e.name for e in tournament.entrants.all()) == sorted(NAMES)
    assert Rating.objects.filter(club=club_a, family="kazambi").count() == 10


def test_trf_import_keeps_a_bom_files_name_and_names_the_bad_line(
        club_a: Any, organizer: Any, client_of: Any) -> None:
    client = client_of(organizer)
    url = "/admin/tournaments/tournament/import-trf/"
    data = "\ufeff".encode() + club_swiss_trf(NAMES[:4], rounds=2, name="Été").encode()
    page = client.post(url, {"club": club_a.pk, "game": "kazambi",
                             "file": SimpleUploadedFile("bom.trf", data)}).content.decode()
    assert "Été: 4 players" in page
    broken = club_swiss_trf(NAMES[:4], rounds=2).replace(" w 1", " x 1", 1).encode()
    page = client.post(url, {"club": club_a.pk, "game": "kazambi",
                             "file": SimpleUploadedFile("bad.trf", broken)}).content.decode()
    assert re.search(r"Cannot read the TRF file: line 5, column \d+: round 1: colour", page)
    assert not Tournament.objects.exists()


def test_finished_tournament_reopens_with_a_logged_reason(
        make_event: Any, organizer: Any, client_of: Any) -> None:
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    tournament = make_event("round_robin", entrants=2, match_format="single")
    pairing = services.round_pair_next(actor=organizer, tournament=tournament,
                                       release=True).pairings.get()
    match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                        score=MatchScore(1, 0))
    client = client_of(organizer)
    dashboard = f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    client.post(dashboard, {"action": "finish"})
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page = client.get(dashboard).content.decode()
    assert 'name="reason"' in page
    response = client.post(dashboard, {"action": "reopen", "reason": ""}, follow=True)
    assert "Say why the tournament is reopened" in response.content.decode()
    client.post(dashboard, {"action": "reopen", "reason": "board 1 was entered reversed"})
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert LogEntry.objects.filter(
        object_id=str(tournament.pk),
        change_message="Reopened: board 1 was entered reversed").exists()


def test_other_clubs_organizer_cannot_change_anything(make_event: Any, club_b: Any,
                                                      client_of: Any) -> None:
    tournament = make_event("swiss", entrants=4, rounds_planned=3)
    client = client_of(club_b.organizers.get())
    base = f"/admin/tournaments/tournament/{tournament.pk}"
    assert client.get(f"{base}/dashboard/").status_code == 200  # organizers may look
    assert client.post(f"{base}/dashboard/", {"action": "pair"}).status_code == 403
    assert client.post(f"{base}/entrants/", {"action": "withdraw", "entrant":
                                             tournament.entrants.first().pk}).status_code == 403
    assert tournament.rounds.count() == 0
    assert not tournament.entrants.exclude(withdrawn_from_round=None).exists()


def test_team_games_enter_teams_with_their_members_mean(club_a: Any, organizer: Any,
                                                        client_of: Any) -> None:
    from players.models import Team, TeamMembership

    teams = []
    for index, name in enumerate(("North", "South")):
        team = Team.objects.create(name=name, club=club_a)
        for seat in range(2):
            player = Player.objects.create(display_name=f"{name} {seat}", club=club_a)
            TeamMembership.objects.create(team=team, player=player, joined_on="2026-01-01")
            Rating.objects.create(player=player, club=club_a, family="kazambi",
                                  system="glicko2", rating=1500 + 100 * index + 10 * seat,
                                  rd=90, volatility=0.06, peak_rating=1600)
        teams.append(team)
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Pairs cup",
                                            game="kazambi-pairs", format="round_robin")
    client = client_of(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    page = client.get(url).content.decode()
    assert "Enter teams of Alpha Club" in page and "South" in page
    client.post(url, {"action": "register", "chosen": [t.pk for t in teams]})
    assert [(e.name, e.rating) for e in tournament.entrants.order_by("id")] == [
        ("South", 1605), ("North", 1505)]
