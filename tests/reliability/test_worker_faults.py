"""Workers that die or stop: lost games are noticed within seconds, none is recorded twice.

Real ``celery worker`` processes on Redis (the suite's broker database) against the test
database, with beat's re-send check every second:

* kill -9 a worker's main process in the middle of a game: the game's lease runs out
  (``BOT_LEASE_SECONDS``) and the check sends it again; the round waits for the lease, not
  for the run's re-send time-out (300 s before leases: a killed worker's games stayed
  stuck that long). The test prints the wait;
* stop a worker with TERM in the middle of a game: it ends within seconds (soft shutdown,
  then the game is cancelled and its message goes back to the queue), and another worker
  plays the game once;
* Redis's visibility time-out: a message taken by a worker that died is delivered again
  when it runs out; the game is still recorded once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from botruns import services as bot_tournaments
from botruns.models import BotGameTask, BotRun
from matches.models import Game
from tests.integration.celery.conftest import BROKER, Workers, _purge_broker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: A game of a few seconds: MCTS bots thinking 0.25 s a move (Kugamai: about 20 moves).
SLOW_BOTS = {"bots": "mcts", "bot_settings": {"seconds": 0.25}}


class FaultWorkers(Workers):
    def __init__(self, database: str, log_dir: Path, **env: str) -> None:
        super().__init__(database, log_dir)
        self.extra = env

    def env(self) -> dict[str, str]:
        return {**super().env(), **self.extra}


@pytest.fixture
def fault_workers(transactional_db: Any, tmp_path: Path) -> Iterator[Callable[..., FaultWorkers]]:
    from django.db import connection

    from config.celery import app

    if not BROKER.startswith("redis://"):
        pytest.skip(f"these tests need a Redis broker, not {BROKER}")
    _purge_broker()
    app.conf.task_always_eager = False
    made: list[FaultWorkers] = []

    def make(**env: str) -> FaultWorkers:
        pool = FaultWorkers(connection.settings_dict["NAME"], tmp_path, **env)
        made.append(pool)
        return pool

    try:
        yield make
    finally:
        for pool in made:
            pool.stop()
        app.conf.task_always_eager = True
        _purge_broker()
        _forget_unacked()


def _forget_unacked() -> None:
    """Drop messages a killed worker left unacknowledged: restored later, they would name
    pairings of the next test's database."""
    import redis

    client = redis.Redis.from_url(BROKER)
    client.delete("unacked", "unacked_index", "unacked_mutex")


def _wait(check: Callable[[], Any], timeout: float, what: str, logs: Callable[[], str]) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout} s waiting for {what}\n{logs()}")


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    found = [int(p) for p in out.stdout.split()]
    return found + [grand for child in found for grand in _descendants(child)]


def _one_game_event(make_event: Any, organizer: Any, **extra: Any) -> tuple[Any, BotRun]:
    tournament = make_event(entrants=2, match_format="single", **SLOW_BOTS)
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament, seed=3,
                                               **extra)
    return tournament, run


def _games(tournament: Any) -> int:
    return Game.objects.filter(pairing__round__tournament=tournament).count()


def _playing(worker: subprocess.Popen[bytes]) -> bool:
    """The worker's pool process has bot processes: a game is under way."""
    return any(_descendants(child) for child in Workers.children(worker))


def test_kill_9_of_a_worker_s_main_process_the_round_waits_seconds_not_minutes(
        fault_workers: Any, make_event: Any, organizer: Any) -> None:
    pool = fault_workers(BOT_STUCK_CHECK_SECONDS="1", BOT_LEASE_SECONDS="6")
    (first,) = pool.start(1)
    pool.start_beat()
    tournament, run = _one_game_event(make_event, organizer)
    _wait(lambda: _playing(first), 90, "the game to start on the first worker", pool.logs)
    task = BotGameTask.objects.get(run=run)
    family = [first.pid, *_descendants(first.pid)]
    os.kill(first.pid, signal.SIGKILL)
    killed = time.monotonic()
    time.sleep(0.5)
    survivors = [pid for pid in family[1:] if _alive(pid)]
    pool.start(1)
    _wait(lambda: _games(tournament) or BotGameTask.objects.get(pk=task.pk).attempts > 1,
          600, "the lost game to be noticed", pool.logs)
    noticed = time.monotonic() - killed
    _wait(lambda: _games(tournament), 300, "the game to be recorded", pool.logs)
    recorded = time.monotonic() - killed
    task.refresh_from_db()
    print(f"\nkill -9 of the main process: {len(survivors)} of {len(family) - 1} children "
          f"outlived it; the lost game was sent again after {noticed:.1f} s, recorded after "
          f"{recorded:.1f} s (attempts {task.attempts})")
    for pid in survivors:  # an orphaned pool process may play on; it must not linger
        _kill_quietly(pid)
    assert noticed < 30, pool.logs()
    _wait(lambda: _finished(run), 120, "the run to finish", pool.logs)
    assert _games(tournament) == 1
    assert BotGameTask.objects.filter(run=run, done_at=None).count() == 0


def test_term_stops_a_worker_within_seconds_and_its_game_is_played_once(
        fault_workers: Any, make_event: Any, organizer: Any) -> None:
    """No beat here: the cancelled game's message goes back to the queue by itself."""
    _term_then_another_worker(fault_workers(REMAP_SIGTERM="SIGQUIT",
                                            CELERY_SOFT_SHUTDOWN_SECONDS="1",
                                            BOT_LEASE_SECONDS="4"), make_event, organizer)


@pytest.fixture
def filesystem_broker(tmp_path: Path) -> Iterator[Path]:
    """``make run``'s broker (kombu's filesystem transport) for this process and workers."""
    from config.celery import app

    folder = tmp_path / "broker"
    options = {key: str(folder / sub) for key, sub in (
        ("data_folder_in", "queue"), ("data_folder_out", "queue"),
        ("processed_folder", "processed"), ("control_folder", "control"))}
    for path in options.values():
        Path(path).mkdir(parents=True, exist_ok=True)
    saved = (os.environ["CELERY_BROKER_URL"], app.conf.broker_transport_options,
             app.conf.get("broker_write_url"))

    def reset_pools() -> None:
        app._pool = None
        if "amqp" in app.__dict__:
            app.amqp._producer_pool = None

    # Celery reads CELERY_BROKER_URL from the environment before its configuration
    os.environ["CELERY_BROKER_URL"] = "filesystem://"
    app.conf.broker_write_url = "filesystem://"
    app.conf.broker_transport_options = {**options, "store_processed": False}
    reset_pools()
    try:
        yield folder
    finally:
        (os.environ["CELERY_BROKER_URL"], app.conf.broker_transport_options,
         app.conf.broker_write_url) = saved
        reset_pools()


def test_term_stops_a_make_run_worker_within_seconds_too(
        fault_workers: Any, filesystem_broker: Path, make_event: Any, organizer: Any) -> None:
    """The same on ``make run``'s filesystem broker, where a stop once hung for minutes."""
    _term_then_another_worker(fault_workers(
        REMAP_SIGTERM="SIGQUIT", CELERY_SOFT_SHUTDOWN_SECONDS="1", BOT_LEASE_SECONDS="4",
        CELERY_BROKER_URL="filesystem://", CELERY_BROKER_FOLDER=str(filesystem_broker)),
        make_event, organizer)


def _term_then_another_worker(pool: FaultWorkers, make_event: Any, organizer: Any) -> None:
    (first,) = pool.start(1)
    tournament = make_event(entrants=2, match_format="single", bots="mcts",
                            bot_settings={"seconds": 1.0})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament, seed=3)
    _wait(lambda: _playing(first), 90, "the game to start", pool.logs)
    time.sleep(1.0)
    family = _descendants(first.pid)
    first.send_signal(signal.SIGTERM)
    stopping = time.monotonic()
    first.wait(timeout=60)
    stopped = time.monotonic() - stopping
    deadline = time.monotonic() + 5  # the fork server and bots end as they see it gone
    while (leftovers := [pid for pid in family if _alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    print(f"\nTERM: the worker stopped in {stopped:.1f} s; {len(leftovers)} of its "
          f"{len(family)} child processes were left")
    assert stopped < 10, pool.logs()
    assert leftovers == [], pool.logs()
    assert _games(tournament) == 0  # the game was cancelled, not finished
    pool.start(1)
    _wait(lambda: _games(tournament), 180, "another worker to play the game", pool.logs)
    _wait(lambda: _finished(run), 60, "the run to finish", pool.logs)
    task = BotGameTask.objects.get(run=run)
    assert _games(tournament) == 1 and task.attempts == 1 and task.done_at is not None


def test_a_message_redelivered_after_the_visibility_timeout_is_recorded_once(
        fault_workers: Any, make_event: Any, organizer: Any) -> None:
    """kill -9 a whole worker (main and pool processes) mid-game, no beat: Redis gives
    the unacknowledged message to the next worker once the visibility time-out has passed;
    that worker plays the game, and a copy of a recorded game records nothing."""
    pool = fault_workers(CELERY_VISIBILITY_TIMEOUT="4", BOT_LEASE_SECONDS="3")
    (first,) = pool.start(1)
    tournament, run = _one_game_event(make_event, organizer)
    _wait(lambda: _playing(first), 90, "the game to start", pool.logs)
    for pid in [first.pid, *_descendants(first.pid)]:
        _kill_quietly(pid)
    first.wait(timeout=10)
    killed = time.monotonic()
    pool.start(1)
    _wait(lambda: _games(tournament), 180, "the redelivered game", pool.logs)
    print(f"\nvisibility time-out 4 s: the game was recorded {time.monotonic() - killed:.1f} s "
          "after the worker died")
    _wait(lambda: _finished(run), 60, "the run to finish", pool.logs)
    task = BotGameTask.objects.get(run=run)
    assert task.attempts == 1  # delivered again by Redis, not sent again by the check
    from botruns.tasks import play_bot_game_task

    play_bot_game_task.apply_async((task.pairing_id, task.number))  # one more delivery
    _wait(lambda: "'duplicate'" in pool.logs(), 60, "the copy to find its game", pool.logs)
    assert _games(tournament) == 1


def test_two_copies_of_one_game_on_two_workers_record_it_once(
        fault_workers: Any, make_event: Any, organizer: Any) -> None:
    pool = fault_workers(BOT_LEASE_SECONDS="3")
    pool.start(2)
    tournament, run = _one_game_event(make_event, organizer)
    task = BotGameTask.objects.get(run=run)
    from botruns.tasks import play_bot_game_task

    play_bot_game_task.apply_async((task.pairing_id, task.number))  # a second message
    _wait(lambda: _finished(run), 120, "the run to finish", pool.logs)
    _wait(lambda: "'duplicate'" in pool.logs(), 60, "the second copy to find the game",
          pool.logs)
    assert _games(tournament) == 1


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _finished(run: BotRun) -> bool:
    run.refresh_from_db()
    return run.status != "running"
