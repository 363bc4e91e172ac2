"""Bot tournaments played by real Celery worker processes over a real Redis broker."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from botruns import services as bot_tournaments
from botruns.models import BotGameTask, BotRun
from matches.models import Game
from tournaments.models import Outcome, Pairing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def results_of(tournament: Any) -> list[tuple[Any, ...]]:
    return list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("round__number", "board")
        .values_list("round__number", "board", "entrant_a__seed", "entrant_b__seed",
                     "outcome", "wins_a", "wins_b", "draws")
    )


def games_of(tournament: Any) -> list[tuple[Any, ...]]:
    return list(
        Game.objects.filter(pairing__round__tournament=tournament)
        .order_by("pairing__round__number", "pairing__board", "number")
        .values_list("pairing__round__number", "pairing__board", "number", "winner_side",
                     "termination", "deal_seed")
    )


def finished(run: BotRun) -> bool:
    run.refresh_from_db()
    return run.status != "running"


def assert_exactly_one_result_per_game(tournament: Any) -> None:
    run = tournament.bot_run
    assert run.status == "finished", run.message
    assert not Pairing.objects.filter(round__tournament=tournament,
                                      outcome=Outcome.PENDING).exists()
    tasks = BotGameTask.objects.filter(run=run)
    assert tasks.filter(done_at=None).count() == 0
    assert Game.objects.filter(pairing__round__tournament=tournament).count() == tasks.count()


def test_sixteen_bot_knockout_runs_to_completion(
    make_event: Any, organizer: Any, workers: Any, wait_until: Any
) -> None:
    workers.start(2)
    tournament = make_event(format="knockout", entrants=16, bots="random",
                            match_format={"kind": "first_to", "games": 2, "max_games": 5})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament, seed=4)
    wait_until(lambda: finished(run), 120, "the knockout to finish", workers.logs)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert tournament.rounds.count() == 4
    assert_exactly_one_result_per_game(tournament)


def test_worker_killed_mid_run_loses_nothing(
    make_event: Any, organizer: Any, workers: Any, wait_until: Any
) -> None:
    """Kill -9 a worker process in the middle of a game; the tournament still finishes with
    exactly one result per game, equal to an uninterrupted run with the same seed."""
    swiss = {"format": "swiss", "entrants": 6, "bots": "mcts",
             "bot_settings": {"iterations": 60}, "rounds_planned": 3,
             "match_format": {"kind": "best_of", "games": 3}, "game": "kazambi",
             "game_options": {"rows": 5, "cols": 6}}
    reference = make_event(**swiss)
    reference_run = bot_tournaments.bot_tournament_start(
        actor=organizer, tournament=reference, seed=9, inline=True)
    bot_tournaments.bot_run_inline(reference_run)
    assert reference_run.status == "finished"

    tournament = make_event(**swiss)
    first, second = workers.start(2)
    workers.start_beat()
    run = bot_tournaments.bot_tournament_start(
        actor=organizer, tournament=tournament, seed=9, game_timeout_seconds=8)
    # kill the pool process of one worker while it plays a game ...
    wait_until(lambda: Game.objects.filter(pairing__round__tournament=tournament).count() >= 2,
               60, "the first games", workers.logs)
    for pid in workers.children(first):
        os.kill(pid, signal.SIGKILL)
    # ... and then the whole other worker, main process and all
    wait_until(lambda: Game.objects.filter(pairing__round__tournament=tournament).count() >= 6,
               90, "more games", workers.logs)
    for pid in [*workers.children(second), second.pid]:
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: finished(run), 240, "the Swiss to finish", workers.logs)
    assert_exactly_one_result_per_game(tournament)
    assert results_of(tournament) == results_of(reference)
    assert games_of(tournament) == games_of(reference)
