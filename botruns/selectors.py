"""Reads for bot runs: their progress (games done, the total expected, rate and time
left), and waiting for a run to end."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from botruns.models import BotRun, BotRunStatus
from matches.models import Game
from tournaments.models import Entrant, Outcome, Pairing, Round
from tournaments.selectors import match_format_of, rounds_remaining_of


@dataclass(frozen=True)
class Progress:
    status: str
    games_done: int
    games_total: int
    rounds_done: int
    rounds_total: int | None
    games_per_second: float
    eta_seconds: float | None

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def bot_run_progress(run: BotRun) -> Progress:
    """Games done and an estimate of the total, rate and time left."""
    return bot_runs_progress([run])[run.pk]


def bot_runs_progress(runs: list[BotRun]) -> dict[int, Progress]:
    """:func:`bot_run_progress` of many runs in a fixed number of queries (API lists)."""
    if not runs:
        return {}
    ids = [run.tournament_id for run in runs]
    games_done = dict(Game.objects.filter(pairing__round__tournament_id__in=ids)
                      .values_list("pairing__round__tournament_id").annotate(n=Count("id"))
                      .order_by())
    rounds: dict[int, list[Any]] = {tid: [] for tid in ids}
    for round_ in Round.objects.filter(tournament_id__in=ids).annotate(
        n=Count("pairings", filter=Q(pairings__entrant_b__isnull=False)),
        pending=Count("pairings", filter=Q(pairings__outcome=Outcome.PENDING)),
    ):
        rounds[round_.tournament_id].append(round_)
    pairings: dict[int, list[Pairing]] = {tid: [] for tid in ids}
    for pairing in Pairing.objects.filter(round__tournament_id__in=ids).select_related("round"):
        pairings[pairing.round.tournament_id].append(pairing)
    entrants: dict[int, list[Entrant]] = {tid: [] for tid in ids}
    for entrant in Entrant.objects.filter(tournament_id__in=ids):
        entrants[entrant.tournament_id].append(entrant)
    return {
        run.pk: _progress(run, games_done.get(run.tournament_id, 0), rounds[run.tournament_id],
                          pairings[run.tournament_id], entrants[run.tournament_id])
        for run in runs
    }


def _progress(run: BotRun, games_done: int, rounds: list[Any], pairings: list[Pairing],
              entrants: list[Entrant]) -> Progress:
    tournament = run.tournament
    rounds_done = sum(1 for r in rounds if r.pending == 0)
    matches_done = sum(1 for p in pairings
                       if p.entrant_b_id is not None and p.outcome != Outcome.PENDING)
    per_match = games_done / matches_done if matches_done else float(
        match_format_of(tournament).max_games_needed() or 3
    )
    rounds_total = len(rounds) + rounds_remaining_of(tournament, entrants, pairings,
                                                     len(rounds))
    matches_per_round = max((r.n for r in rounds), default=0)
    matches_left = sum(r.n for r in rounds) - matches_done
    matches_left += max(0, rounds_total - len(rounds)) * matches_per_round
    games_total = games_done + round(matches_left * per_match)
    end = run.finished_at or timezone.now()
    elapsed = max((end - run.started_at).total_seconds(), 1e-6)
    rate = games_done / elapsed
    eta = (games_total - games_done) / rate if rate > 0 and run.status == "running" else None
    return Progress(run.status, games_done, games_total, rounds_done, rounds_total,
                    round(rate, 2), None if eta is None else round(eta, 1))


def wait_for(run: BotRun, timeout: float, poll: float = 0.5) -> BotRun:
    """Poll until the run ends (used by the command and tests)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status != BotRunStatus.RUNNING:
            return run
        time.sleep(poll)
    return run
