"""Management commands and the demo loader."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.series.format import MatchScore
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
    bot_cup = Tournament.objects.get(slug="kugamai-bot-cup")
    assert bot_cup.bot_run.status == "running"
    assert Tournament.objects.count() == 3
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
    round3 = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    from_db = {f"{rank[p.entrant_a_id]} {rank[p.entrant_b_id]}" for p in round3.pairings.all()
               if p.entrant_b_id is not None}
    assert from_db == set(lines[1:])
    csv_out = io.StringIO()
    call_command("export_tournament", str(tournament.pk), "--format", "csv", stdout=csv_out)
    assert csv_out.getvalue().startswith("rank,seed,name")


def test_trf_round_trip_keeps_standings(make_tournament: Any, play_round: Any, admin_user: Any,
                                        club_b: Any, tmp_path: Path) -> None:
    tournament = make_tournament("swiss", entrants=7, rounds_planned=4,
                                 tiebreaks=["buchholz"])
    play_round(tournament, lambda p: MatchScore(0, 0, 1) if p.board == 2 else MatchScore(1, 0, 0))
    play_round(tournament, lambda p: "b_forfeit_win" if p.board == 1 else MatchScore(0, 1, 0))
    path = tmp_path / "t.trf"
    path.write_text(selectors.tournament_trf(tournament), encoding="utf-8")
    call_command("import_trf", str(path), "--club", club_b.slug, "--game", "kugamai",
                 stdout=io.StringIO())
    copy = Tournament.objects.get(club=club_b)
    copy.tiebreaks = ["buchholz"]
    original = [(r["name"], r["points"], r["tiebreaks"])
                for r in selectors.standings(tournament)["rows"]]
    imported = [(r["name"], r["points"], r["tiebreaks"])
                for r in selectors.standings(copy)["rows"]]
    assert imported == original
    assert copy.status == "running" and copy.rounds.count() == 2
    # the import stores each played result's game (issue 13), so the copy is rated too
    from matches.models import Game
    from ratings.models import RatingChange

    played = copy.rounds.filter(pairings__outcome__in=["a_wins", "b_wins", "draw"]).count()
    games = Game.objects.filter(pairing__round__tournament=copy)
    assert games.count() == played > 0
    assert RatingChange.objects.filter(game__in=games).count() == 2 * played
