"""The lease rules of bot games, without workers: which games the check sends again, and a
game lost again and again stops its run instead of filling every worker slot."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from botruns import services as bot_tournaments
from botruns.models import BotGameTask, BotRun

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def sent(monkeypatch: Any) -> list[tuple[int, int]]:
    """Games the check sends go here, not to (eager) workers."""
    games: list[tuple[int, int]] = []
    monkeypatch.setattr(bot_tournaments, "_publish", lambda run, new: games.extend(new))
    return games


@pytest.fixture
def run(make_event: Any, organizer: Any) -> BotRun:
    tournament = make_event(entrants=2, bots="random", match_format="single")
    return bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                                game_timeout_seconds=300)


def _lose(task: BotGameTask, now: dt.datetime) -> None:
    """The game was started by a worker that then died: its lease ran out."""
    BotGameTask.objects.filter(pk=task.pk).update(
        worker="dead:1", started_at=now - dt.timedelta(seconds=30),
        lease_until=now - dt.timedelta(seconds=1))


def test_a_game_whose_lease_ran_out_is_sent_again_at_once(run: BotRun) -> None:
    task = BotGameTask.objects.get(run=run)
    now = timezone.now()
    assert bot_tournaments.bot_games_resend_stuck(now) == 0  # sent just now, not started
    _lose(task, now)
    assert bot_tournaments.bot_games_resend_stuck(now) == 1
    task.refresh_from_db()
    assert (task.attempts, task.losses, task.lease_until, task.worker) == (2, 1, None, "")


def test_a_live_lease_is_left_alone_and_a_copy_is_told_to_wait(run: BotRun) -> None:
    task = BotGameTask.objects.get(run=run)
    now = timezone.now()
    BotGameTask.objects.filter(pk=task.pk).update(
        worker="alive:1", started_at=now, lease_until=now + dt.timedelta(seconds=10),
        sent_at=now - dt.timedelta(hours=2))
    assert bot_tournaments.bot_games_resend_stuck(now) == 0
    played = bot_tournaments.bot_game_play(task.pairing_id, task.number)
    assert played.status == "elsewhere" and played.retry_in is not None
    assert 9 < played.retry_in <= 11.5


def test_a_game_never_started_is_sent_again_after_the_time_out_without_a_loss(
        run: BotRun) -> None:
    task = BotGameTask.objects.get(run=run)
    later = timezone.now() + dt.timedelta(seconds=301)
    assert bot_tournaments.bot_games_resend_stuck(later) == 1
    task.refresh_from_db()
    assert (task.attempts, task.losses) == (2, 0)


def test_a_game_lost_again_and_again_stops_its_run_and_a_restart_resumes_it(
        run: BotRun, organizer: Any) -> None:
    task = BotGameTask.objects.get(run=run)
    for _ in range(bot_tournaments.MAX_LOSSES):
        now = timezone.now()
        _lose(task, now)
        bot_tournaments.bot_games_resend_stuck(now)
    run.refresh_from_db()
    assert run.status == "failed"
    assert f"lost {bot_tournaments.MAX_LOSSES} times" in run.message
    assert bot_tournaments.bot_games_resend_stuck(timezone.now()) == 0  # nothing more sent
    resumed = bot_tournaments.bot_tournament_start(actor=organizer, tournament=run.tournament)
    task.refresh_from_db()
    assert resumed.status == "running" and task.losses == 0 and task.lease_until is None


def test_a_played_game_ends_its_lease(run: BotRun) -> None:
    task = BotGameTask.objects.get(run=run)
    played = bot_tournaments.bot_game_play(task.pairing_id, task.number)
    assert played.status == "recorded"
    task.refresh_from_db()
    assert task.done_at is not None and task.worker == bot_tournaments.worker_name()


@pytest.mark.django_db(transaction=True)
def test_a_game_caught_mid_write_by_a_lost_connection_is_sent_again_at_once(
        run: BotRun) -> None:
    """Before: the lease's end failed on the dead connection too, so the game waited for its
    lease to run out (about 14 s) and for the next check before it was sent again."""
    import psycopg
    from django.db import connection

    from matches.models import Game

    task = BotGameTask.objects.get(run=run)

    def cut_at_the_game_insert(execute: Any, sql: str, params: Any, many: bool,
                               context: Any) -> Any:
        if sql.startswith('INSERT INTO "games_game"') and not cut:
            cut.append(connection.connection.info.backend_pid)
            settings = connection.settings_dict
            with psycopg.connect(f"host={settings['HOST']} port={settings['PORT'] or 5432} "
                                 f"user={settings['USER']} dbname={settings['NAME']}",
                                 autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [cut[0]])
                while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                                    [cut[0]]).fetchone():
                    other.execute("SELECT pg_sleep(0.01)")
        return execute(sql, params, many, context)

    cut: list[int] = []
    with connection.execute_wrapper(cut_at_the_game_insert):
        played = bot_tournaments.bot_game_play(task.pairing_id, task.number)
    assert cut, "the game was never written"
    assert played.status == "interrupted"
    assert played.retry_in is not None and played.retry_in <= 1  # the task sends it again
    task.refresh_from_db()
    assert task.lease_until is not None and task.lease_until <= timezone.now()
    assert task.done_at is None and not Game.objects.filter(pairing_id=task.pairing_id).exists()
    again = bot_tournaments.bot_game_play(task.pairing_id, task.number)  # the copy sent again
    assert again.status == "recorded"
    assert Game.objects.filter(pairing_id=task.pairing_id).count() == 1
