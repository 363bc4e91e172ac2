"""An uploaded TRF's entries are named by their line in the file (what an editor shows),
not by their count among the player lines."""

from __future__ import annotations

from tests.trf_samples import club_swiss_trf
from tournaments.entry_lists import read_upload


def test_trf_entries_carry_their_file_line() -> None:
    text = club_swiss_trf()
    lines = text.splitlines()
    player_lines = [number for number, line in enumerate(lines, start=1)
                    if line.startswith("001")]
    assert player_lines[0] > 1  # header lines come first
    rows = read_upload(text.encode())
    assert [row.line for row in rows] == player_lines
    assert lines[rows[2].line - 1][14:47].strip().startswith(rows[2].name.split()[0])
