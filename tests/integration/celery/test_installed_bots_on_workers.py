"""A 16-bot knockout on real Celery workers with external bots installed in the bots
directory (the example bot, a chatty test bot and three that crash, answer an illegal
move or time out), played exactly as built-in bots: one game per task, faults lost by
forfeit with their reasons, info lines in the records."""

from __future__ import annotations

import os
import subprocess
import time
from typing import Any

import pytest

from botruns import services as bot_tournaments
from botruns.models import BotGameTask, BotRun
from matches.models import Game
from tests.integration.installed_bots import check_installed_bots_played, games_of
from tournaments.models import Outcome, Pairing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXTERNAL = {0: "chatty", 1: "random-example", 5: "crasher", 8: "illegal", 12: "sluggish"}


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds of these processes and all their descendants, living or reaped."""
    total, todo = 0.0, list(pids)
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/stat") as stream:
                fields = stream.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
        todo += [int(child) for child in out.stdout.split()]
    return total


def finished(run: BotRun) -> bool:
    run.refresh_from_db()
    return run.status != "running"


def test_sixteen_bot_knockout_with_installed_bots_on_workers(
    make_event: Any, organizer: Any, workers: Any, wait_until: Any, api: Any,
    installed_bots_dir: Any, capsys: Any,
) -> None:
    pool = workers.start(2)  # they read BOTS_DIR from the environment the fixture set
    tournament = make_event(format="knockout", entrants=16, bots="random",
                            installed=EXTERNAL,
                            match_format={"kind": "first_to", "games": 2, "max_games": 5})
    started = time.monotonic()
    cpu = time.process_time()
    workers_cpu = tree_cpu([process.pid for process in pool])
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               seed=11, move_seconds=1.0)
    wait_until(lambda: finished(run), 300, "the knockout to finish", workers.logs)
    wall = time.monotonic() - started
    workers_cpu = tree_cpu([process.pid for process in pool]) - workers_cpu
    tournament.refresh_from_db()
    assert run.status == "finished", run.message
    assert tournament.status == "finished" and tournament.rounds.count() == 4
    assert not Pairing.objects.filter(round__tournament=tournament,
                                      outcome=Outcome.PENDING).exists()
    tasks = BotGameTask.objects.filter(run=run)
    games = Game.objects.filter(pairing__round__tournament=tournament)
    assert tasks.filter(done_at=None).count() == 0
    assert games.count() == tasks.count()  # one game per task, none twice
    assert sorted(games.values_list("pairing_id", "number")) == sorted(
        tasks.values_list("pairing_id", "number"))
    check_installed_bots_played(tournament, api)
    example = games_of("random-example", tournament)
    assert example and all(game.termination == "normal" for game, _ in example)
    forfeits = games.exclude(termination="normal").count()
    with capsys.disabled():
        print(f"\n16-bot knockout on 2 workers, 5 installed bots: {games.count()} games "
              f"({forfeits} forfeits) in {wall:.1f} s wall, "
              f"{max(task.attempts for task in tasks)} attempt(s) at most per task; CPU: "
              f"workers with their bots {workers_cpu:.1f} s, test process "
              f"{time.process_time() - cpu:.1f} s; load {os.getloadavg()[0]:.1f}")
