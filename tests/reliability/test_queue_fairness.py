"""One club's whole-game analyses cannot starve another club's bot run.

The incident: four big analyses of one organizer held every process of the workers and
another club's bot run recorded no game for minutes. Real ``celery worker`` processes on
Redis against the test database, consuming every queue the settings route to, as the
embedded ``make run`` worker does.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analysis import services as analyses
from analysis.models import AnalysisStatus, GameAnalysis
from botruns import services as bot_tournaments
from games.bots.base import Budget as BotBudget
from games.bots.play import play_game, side_bots
from games.bots.registry import get_bot
from games.engines import get_engine
from matches.models import Game
from tests.integration.celery.conftest import BROKER, ROOT, Workers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: Per move of the big analyses: some 2 s of Kazambi search each on an idle core.
BIG_ITERATIONS = 5000


def every_queue() -> list[str]:
    """The queues a worker started without -Q consumes: every queue the settings name."""
    from config.celery import app

    return sorted(queue.name for queue in app.conf.task_queues)


class QueueWorkers(Workers):
    extra: dict[str, str] = {}  # noqa: RUF012 - set per test before the workers start

    def env(self) -> dict[str, str]:
        return {**super().env(), **self.extra}

    def start_on(self, queues: list[str], concurrency: int) -> subprocess.Popen[bytes]:
        index = len(self.processes) + 1
        log = open(self.log_dir / f"worker{index}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker",
             f"--hostname=fair{index}@%h", f"--concurrency={concurrency}", "-Q", ",".join(queues),
             "--pool=prefork", "--without-gossip", "--without-mingle", "--loglevel=INFO"],
            cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        return process


def _purge_every_queue() -> None:
    from tests.integration.celery.conftest import _purge_broker

    _purge_broker()


@pytest.fixture
def queue_workers(transactional_db: Any, tmp_path: Path) -> Iterator[QueueWorkers]:
    from django.db import connection

    from config.celery import app

    if not BROKER.startswith("redis://"):
        pytest.skip(f"these tests need a Redis broker, not {BROKER}")
    _purge_every_queue()
    app.conf.task_always_eager = False
    pool = QueueWorkers(connection.settings_dict["NAME"], tmp_path)
    try:
        yield pool
    finally:
        pool.stop()
        app.conf.task_always_eager = True
        _purge_every_queue()


def _kazambi_record(seed: int) -> dict[str, Any]:
    engine = get_engine("kazambi")
    bots = side_bots(get_bot("mcts", seed=seed), get_bot("greedy", seed=seed),
                     engine.seat_count())
    _, moves = play_game("kazambi", bots, seed=seed, budget=BotBudget(iterations=50))
    state = engine.new_game(seed=seed)
    for move in moves:
        state = engine.play(state, move)
    return dict(engine.record(state))


def _recorded_kazambi_games(make_event: Any, organizer: Any, count: int) -> list[Game]:
    from matches.services.games import game_entry_record
    from tournaments import services as tournament_services

    tournament = make_event(game="kazambi", entrants=2 * count)
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                 release=True)
    records = (_kazambi_record(seed) for seed in range(1, 100))
    side_a_first = (record for record in records if record["deal"]["first"] == 0)
    games = []
    for pairing in round_.pairings.exclude(entrant_b=None).order_by("board"):
        game_entry_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                          record=next(side_a_first))
        games.append(Game.objects.get(pairing=pairing, number=1))
    return games


def _bot_event(club: Any, entrants: int = 2) -> Any:
    from players.models import Player
    from tournaments import services

    organizer = club.organizers.get()
    tournament = services.tournament_create(
        actor=organizer, club=club, name="other club's bots", game="kugamai",
        format="round_robin", match_format="single")
    for index in range(entrants):
        player = Player.objects.create(display_name=f"{club.slug} bot {index + 1}", club=club,
                                       is_bot=True, bot_kind="random")
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=2000 - index)
    return tournament


def _wait(check: Any, timeout: float) -> float | None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def test_one_club_s_big_analyses_leave_another_club_s_bot_run_a_worker(
        queue_workers: QueueWorkers, make_event: Any, organizer: Any, club_b: Any) -> None:
    games = _recorded_kazambi_games(make_event, organizer, 4)
    queue_workers.start_on(every_queue(), concurrency=2)
    for game in games:
        analyses.game_analysis_start(actor=organizer, game=game, iterations=BIG_ITERATIONS)
    running = _wait(lambda: GameAnalysis.objects.filter(status=AnalysisStatus.RUNNING).exists(),
                    120)
    assert running is not None, queue_workers.logs()
    time.sleep(3)  # the worker has taken what it will take of the analyses
    tournament = _bot_event(club_b)
    bot_tournaments.bot_tournament_start(actor=club_b.organizers.get(), tournament=tournament)
    recorded = _wait(
        lambda: Game.objects.filter(pairing__round__tournament=tournament).exists(), 30)
    still_running = GameAnalysis.objects.filter(status=AnalysisStatus.RUNNING).count()
    print(f"\nbeside 4 big analyses of one club: the other club's first bot game recorded "
          f"after {recorded if recorded is None else round(recorded, 1)} s; analyses running "
          f"then: {still_running}, queued: "
          f"{GameAnalysis.objects.filter(status=AnalysisStatus.QUEUED).count()}")
    assert recorded is not None, "the other club's bot run recorded no game in 30 s\n" + (
        queue_workers.logs())
    assert still_running >= 1  # the analyses were still there to compete with


def test_the_deploy_layout_keeps_analyses_off_the_bot_game_worker(
        queue_workers: QueueWorkers, make_event: Any, organizer: Any, club_b: Any) -> None:
    """The workers of deploy/compose.yaml (one process each here), with every club's
    analyses allowed to run at once: they wait for the analysis worker, bot games do not."""
    from tests.unit.test_deploy_files import _compose, _queues_of

    queue_workers.extra = {"ANALYSIS_RUNNING_PER_CLUB": "4"}
    commands = [service["command"] for service in _compose()["services"].values()
                if "worker" in service.get("command", [])]
    for command in commands:
        queues = _queues_of(command)
        assert queues is not None
        queue_workers.start_on(sorted(queues), concurrency=1)
    games = _recorded_kazambi_games(make_event, organizer, 4)
    for game in games:
        analyses.game_analysis_start(actor=organizer, game=game, iterations=BIG_ITERATIONS)
    assert _wait(lambda: GameAnalysis.objects.filter(status=AnalysisStatus.RUNNING).exists(),
                 120) is not None, queue_workers.logs()
    tournament = _bot_event(club_b, entrants=3)
    bot_tournaments.bot_tournament_start(actor=club_b.organizers.get(), tournament=tournament)
    recorded = _wait(
        lambda: Game.objects.filter(pairing__round__tournament=tournament).count() >= 2, 60)
    print(f"\ndeploy layout ({len(commands)} workers), 4 big analyses: 2 bot games of the other "
          f"club recorded after {recorded if recorded is None else round(recorded, 1)} s")
    assert recorded is not None, queue_workers.logs()
    assert GameAnalysis.objects.filter(status=AnalysisStatus.RUNNING).count() == 1


def test_a_club_s_big_bot_run_does_not_fill_the_queue_ahead_of_another_club_s(
        queue_workers: QueueWorkers, make_event: Any, organizer: Any, club_b: Any,
        settings: Any) -> None:
    """Club A's round of 8 games is sent first, club B's one game after it, on one worker
    process: B's game waits for at most BOT_GAMES_PER_CLUB of A's games, not all 8. Counted
    in games, not seconds, so a loaded machine does not change the answer."""
    settings.BOT_GAMES_PER_CLUB = 2
    queue_workers.extra = {"BOT_GAMES_PER_CLUB": "2"}
    big = make_event(entrants=16, bots="mcts", bot_settings={"seconds": 0.02},
                     match_format="single", start=False)
    bot_tournaments.bot_tournament_start(actor=organizer, tournament=big, seed=1)
    small = _bot_event(club_b)
    bot_tournaments.bot_tournament_start(actor=club_b.organizers.get(), tournament=small)
    queue_workers.start_on(every_queue(), concurrency=1)
    first_of_b = _wait(lambda: Game.objects.filter(pairing__round__tournament=small).first(),
                       300)
    assert first_of_b is not None, queue_workers.logs()
    b_game = Game.objects.filter(pairing__round__tournament=small).order_by("pk").first()
    assert b_game is not None
    ahead = Game.objects.filter(pairing__round__tournament=big, pk__lt=b_game.pk).count()
    print(f"\none worker process, club A's round of 8 games sent first: {ahead} of A's games "
          f"were recorded before club B's first")
    assert ahead <= 2


@pytest.mark.django_db
def test_a_whole_game_analysis_stops_at_its_cap_with_the_moves_it_reached(
        settings: Any, make_event: Any, organizer: Any) -> None:
    """A big analysis ran for up to an hour: now each move's search stops after
    ANALYSIS_MOVE_SECONDS and the game after ANALYSIS_GAME_SECONDS, status "partial"."""
    settings.ANALYSIS_GAME_SECONDS = 2
    settings.ANALYSIS_MOVE_SECONDS = 0.5
    (game,) = _recorded_kazambi_games(make_event, organizer, 1)
    analysis, _ = analyses.game_analysis_start(actor=organizer, game=game,
                                               iterations=BIG_ITERATIONS)
    started = time.monotonic()
    status = analyses.game_analysis_run(analysis.pk)
    took = time.monotonic() - started
    analysis.refresh_from_db()
    print(f"\na {analysis.moves_total}-move Kazambi analysis at {BIG_ITERATIONS} iterations "
          f"capped at 2 s: {analysis.status} after {took:.1f} s, {analysis.moves_done} moves")
    assert status == analysis.status == AnalysisStatus.PARTIAL
    assert 0 < analysis.moves_done < analysis.moves_total
    assert analysis.result is not None and analysis.result["complete"] is False
    assert len(analysis.result["moves"]) == analysis.moves_done
    assert "Stopped after" in analysis.message
    again, queued = analyses.game_analysis_start(actor=organizer, game=game, iterations=100)
    assert queued and again.status == AnalysisStatus.QUEUED  # a partial one may be asked again
