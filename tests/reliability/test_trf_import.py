"""``manage.py import_trf``: every bad file is a clear error naming its line, nothing saved.

Before: a self-opponent, asymmetric pairings, ``XXR 99999``, a 5000-character name, a NUL
in a name and Latin-1 files ended in raw tracebacks, and a name made only of zero-width or
direction characters was imported. The reader (``tournaments/trf.py``) names the line of
each; the service turns its errors, and its own services' refusals, into the command's
error, and its transaction keeps nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.series.format import MatchScore
from matches.services import results as result_services
from players.models import Club, Player
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ROUND_START = 89  # the first round block's column (0-based)


@pytest.fixture
def trf_lines(make_event: Any, organizer: Any) -> list[str]:
    """A Swiss of four after two rounds, exported as TRF lines."""
    tournament = make_event(format="swiss", entrants=4, rounds_planned=3)
    for _ in range(2):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for pairing in round_.pairings.exclude(entrant_b=None):
            result_services.result_record(actor=organizer, pairing=pairing,
                                          expected_version=pairing.version,
                                          score=MatchScore(1, 0, 0))
    return selectors.tournament_trf(tournament).splitlines()


def _player_lines(lines: list[str]) -> list[int]:
    return [index for index, line in enumerate(lines) if line.startswith("001")]


def _set(line: str, start: int, text: str) -> str:
    line = line.ljust(start + len(text))
    return line[:start] + text + line[start + len(text):]


def _with_name(name: str) -> Callable[[list[str]], int]:
    def change(lines: list[str]) -> int:
        index = _player_lines(lines)[1]
        lines[index] = _set(lines[index], 14, name.ljust(33)[:33] if len(name) <= 33 else name)
        if len(name) > 33:  # a name that does not fit: the rest of the line moves right
            line = lines[index]
            lines[index] = line[:14] + name + line[47:]
        return index + 1
    return change


def _self_opponent(lines: list[str]) -> int:
    index = _player_lines(lines)[0]
    rank = lines[index][4:8]
    lines[index] = _set(lines[index], ROUND_START + 2, rank)
    return index + 1


def _asymmetric(lines: list[str]) -> int:
    """Player 1 says he met in round 1 a player who says he met someone else."""
    index = _player_lines(lines)[0]
    opponent = int(lines[index][ROUND_START + 2:ROUND_START + 6])
    rank = int(lines[index][4:8])
    other = next(r for r in (1, 2, 3, 4) if r not in (rank, opponent))
    lines[index] = _set(lines[index], ROUND_START + 2, f"{other:4d}")
    return index + 1


def _many_rounds(lines: list[str]) -> int:
    index = next(i for i, line in enumerate(lines) if line.startswith("XXR"))
    lines[index] = "XXR 99999"
    return index + 1


BAD_FILES: dict[str, Callable[[list[str]], int]] = {
    "self-opponent": _self_opponent,
    "asymmetric": _asymmetric,
    "XXR 99999": _many_rounds,
    "5000-character name": _with_name("x" * 5000),
    "NUL in a name": _with_name("Ada\x00Lovelace"),
    "zero-width name": _with_name("\u200b\u200c\u200d"),
    "direction-override name": _with_name("\u202e\u2066\u200f"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_is_a_clear_error_naming_its_line_and_saves_nothing(
        trf_lines: list[str], club_b: Club, admin_user: Any, tmp_path: Path, case: str) -> None:
    lines = list(trf_lines)
    line = BAD_FILES[case](lines)
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_trf", str(path), "--club", club_b.slug, "--game", "kugamai")
    message = str(error.value)
    assert f"line {line}" in message or case == "asymmetric" and "line " in message, message
    assert "Traceback" not in message
    assert not Tournament.objects.filter(club=club_b).exists()
    assert not Player.objects.filter(club=club_b).exists()


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-8-sig"])
def test_files_in_the_encodings_pairing_programs_write_are_read(
        trf_lines: list[str], club_b: Club, admin_user: Any, tmp_path: Path,
        encoding: str) -> None:
    lines = list(trf_lines)
    _with_name("Zoé Ångström")(lines)
    path = tmp_path / "accents.trf"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode(encoding))
    call_command("import_trf", str(path), "--club", club_b.slug, "--game", "kugamai")
    assert Player.objects.filter(club=club_b, display_name="Zoé Ångström").exists()
    assert Tournament.objects.get(club=club_b).rounds.count() == 2
