"""Uploaded entry lists are bounded before they are parsed, and refused early and clearly.

Before: the CSV dialect was sniffed on whole lines (``;"a`` repeated: 48 KB took 24 s,
150 KB killed the web worker at 61.7 s), a field over 131,072 characters was a 500
(``csv.Error``), and 1,100 names were read, matched and entered one by one (46 s) before
the 1,024-entrant bound refused them. The work is bounded structurally here (what the
parsers are given, how many queries an entry takes), not by timing.
"""

from __future__ import annotations

import csv
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from core.bounds import MAX_ENTRANTS
from core.errors import ApplicationError
from players.models import Player
from tournaments import entry_lists, services
from tournaments.entry_lists import (
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    MAX_ROWS,
    EntryListError,
    EntryRow,
    read_entry_list,
    read_upload,
)

SNIFF_SAMPLE_LIMIT = 4096

HOSTILE_48K = b'name\n' + b';"a' * 16_000
HOSTILE_150K = b';"a' * 50_000
LONG_FIELD = b'name\n"' + b"a" * 140_000 + b'"\n'
LONG_QUOTED_OVER_LINES = b'name\n"' + (b"a" * 1_500 + b"\n") * 100 + b'"\n'


@pytest.fixture
def sniff_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the samples given to csv.Sniffer, which is quadratic in them."""
    sizes: list[int] = []

    def sniff(self: Any, sample: str, delimiters: str | None = None) -> Any:
        sizes.append(len(sample))
        raise csv.Error("not measured here")

    monkeypatch.setattr(csv.Sniffer, "sniff", sniff)
    return sizes


@pytest.mark.parametrize("data", [HOSTILE_48K, HOSTILE_150K], ids=["48K", "150K"])
def test_the_dialect_is_chosen_from_a_small_sample(data: bytes,
                                                   sniff_samples: list[int]) -> None:
    with pytest.raises(EntryListError):
        read_upload(data)
    assert all(size <= SNIFF_SAMPLE_LIMIT for size in sniff_samples), sniff_samples


@pytest.mark.parametrize("data", [LONG_FIELD, LONG_QUOTED_OVER_LINES],
                         ids=["one-line", "over-lines"])
def test_an_over_long_field_is_a_clear_error(data: bytes) -> None:
    with pytest.raises(EntryListError, match="line 2"):
        read_upload(data)


def test_a_file_over_the_byte_limit_is_refused_before_decoding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def decode(data: bytes) -> str:
        raise AssertionError(f"decoded {len(data)} bytes")

    monkeypatch.setattr(entry_lists, "decode_upload", decode)
    with pytest.raises(EntryListError, match=f"at most {MAX_FILE_BYTES}"):
        read_upload(b"Ada\n" * (MAX_FILE_BYTES // 4 + 1))
    with pytest.raises(EntryListError, match=f"at most {MAX_FILE_BYTES}"):
        read_entry_list("Ada\n" * (MAX_FILE_BYTES // 4 + 1))


def test_a_line_over_the_limit_is_refused_naming_it() -> None:
    with pytest.raises(EntryListError, match=f"line 3 .*{MAX_LINE_CHARS}"):
        read_entry_list("name\nAda\n" + "B" * (MAX_LINE_CHARS + 1) + "\n")


def test_more_names_than_a_tournament_takes_are_refused_by_the_reader() -> None:
    assert MAX_ROWS == MAX_ENTRANTS
    names = "".join(f"Player {i}\n" for i in range(1_100))
    with pytest.raises(EntryListError, match=f"more than {MAX_ENTRANTS} entries"):
        read_entry_list("name\n" + names)
    assert len(read_entry_list("name\n" + names[:names.index("Player 1024")])) == 1024


@pytest.mark.parametrize(("line", "names"), [
    ("Name;Rating\nSmith, John;1800\n", ["Smith, John"]),
    ("name,rating\n\"Smith; John\",1800\n", ["Smith; John"]),
    ("name\trating\nAda\t1500\n", ["Ada"]),
    ("Ada Lovelace\nGrace Hopper\n", ["Ada Lovelace", "Grace Hopper"]),
])
def test_the_delimiter_is_counted_in_the_first_line(line: str, names: list[str]) -> None:
    assert [row.name for row in read_entry_list(line)] == names


@pytest.mark.django_db
def test_the_admin_answers_hostile_uploads_with_a_message(club_a: Any, organizer: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Open",
                                            game="kugamai", format="swiss", rounds_planned=5)
    client = Client(raise_request_exception=False)
    client.force_login(organizer)
    url = f"/admin/tournaments/tournament/{tournament.pk}/entrants/"
    names = "".join(f"Player {i}\n" for i in range(1_100)).encode()
    for data in (HOSTILE_150K, LONG_FIELD, LONG_QUOTED_OVER_LINES, b"name\n" + names):
        upload = SimpleUploadedFile("list.csv", data)
        answer = client.post(url, {"action": "upload", "file": upload}, follow=True)
        assert answer.status_code == 200
        assert "The entry list cannot be read" in answer.content.decode()
    answer = client.post(url, {"action": "upload_confirm", "text": "name\n" + names.decode()},
                         follow=True)
    assert "The entry list cannot be read" in answer.content.decode()
    assert not Player.objects.exists() and not tournament.entrants.exists()


@pytest.mark.django_db
def test_a_list_too_long_for_the_format_is_refused_before_any_player_is_made(
        club_a: Any, organizer: Any, django_assert_max_num_queries: Any) -> None:
    tournament = services.tournament_create(actor=organizer, club=club_a, name="All-play-all",
                                            game="kugamai", format="round_robin")
    rows = [EntryRow(i + 2, f"Player {i}") for i in range(120)]  # a round robin takes 100
    with django_assert_max_num_queries(12), pytest.raises(ApplicationError, match="at most"):
        services.entry_list_register(actor=organizer, tournament=tournament, rows=rows)
    assert not Player.objects.exists() and not tournament.entrants.exists()
