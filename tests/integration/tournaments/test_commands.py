"""Management commands and the demo loader."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tournaments import adapters, selectors, services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_is_idempotent(admin_user: Any) -> None:
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())
    finished = Tournament.objects.get(slug="kugamai-club-championship")
    running = Tournament.objects.get(slug="kazambi-autumn-swiss")
    assert finished.status == "finished" and finished.rounds.count() == 5
    assert running.status == "running" and running.rounds.count() == 3
    assert Tournament.objects.count() == 2
    assert selectors.standings(finished)["after_round"] == 5
    assert Round.objects.get(tournament=running, number=3).status == "paired"


def test_export_then_pair_trf(make_tournament: Any, play_round: Any, tmp_path: Path,
                              organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=6, rounds_planned=4)
    play_round(tournament)
    play_round(tournament)
    out = io.StringIO()
    call_command("export_tournament", str(tournament.pk), stdout=out)
    trf = out.getvalue()
    assert "XXR 4" in trf and trf.count("\n001 ") == 6
    path = tmp_path / "t.trf"
    path.write_text(trf, encoding="utf-8")
    printed = io.StringIO()
    call_command("pair_trf", str(path), stdout=printed)
    lines = printed.getvalue().splitlines()
    assert lines[0] == "3" and len(lines) == 4
    # the service pairs the same round from the database as the TRF file gives
    rank = {e.pk: i for i, e in enumerate(adapters.pairing_order(tournament.entrants.all()), 1)}
    round3 = services.round_pair_next(actor=organizer, tournament=tournament)
    from_db = {f"{rank[p.entrant_a_id]} {rank[p.entrant_b_id]}" for p in round3.pairings.all()
               if p.entrant_b_id is not None}
    assert from_db == set(lines[1:])
    csv_out = io.StringIO()
    call_command("export_tournament", str(tournament.pk), "--format", "csv", stdout=csv_out)
    assert csv_out.getvalue().startswith("rank,seed,name")
