"""Analysis writes and the one synchronous computation: a position's values now, a
whole game's annotations on a worker (stored in :class:`GameAnalysis`)."""

from __future__ import annotations

import hashlib
import json
from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis import limits
from analysis.models import AnalysisStatus, GameAnalysis
from core.errors import ApplicationError
from games.analysis import AnalysisError, Budget, analyse_game, analyse_position, position_at
from games.analysis.game import MAX_RECORD_MOVES, replay
from games.analysis.report import Information
from games.engines import ENGINE_NAMES, EngineError, get_engine
from matches.models import Game
from players.models import Club
from players.permissions import Actor, actor_user, can_manage_club, is_organizer

#: MCTS iterations (or Stolbiki playouts) one request may ask for, and the default.
MAX_POSITION_ITERATIONS = 5000
POSITION_ITERATIONS = 1000
#: The solvers' node budget of one request (its time: see :func:`position_analysis`).
POSITION_SOLVER_NODES = 40_000
#: Per move of a whole game analysed by a worker.
MAX_GAME_ITERATIONS = 5000
GAME_ITERATIONS = 1000
GAME_SOLVER_NODES = 150_000
#: Seconds a whole game's task may run past ``ANALYSIS_GAME_SECONDS`` before Celery's soft
#: time limit (the last move's solver, the database); a running analysis not finished
#: after the cap and twice this is taken to have lost its worker.
TASK_GRACE_SECONDS = 60
MAX_SEED = 2**63 - 1


def _bounded(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(
            _("%(name)s must be a whole number from %(low)d to %(high)d.")
            % {"name": name, "low": low, "high": high},
            field=name,
        )
    return value


def _application_error(error: AnalysisError, default: str) -> ApplicationError:
    return ApplicationError(str(error), field=error.field or default)


def position_analysis(
    *,
    actor: Actor,
    address: str,
    state: object = None,
    record: object = None,
    move: object = None,
    iterations: object = POSITION_ITERATIONS,
    seed: object = 0,
) -> dict[str, Any]:
    """The values of every move for the side to move, from a state document or from
    ``record`` after ``move`` moves. Bounded: :data:`MAX_POSITION_ITERATIONS`, the
    solvers' :data:`POSITION_SOLVER_NODES` and ``ANALYSIS_CPU_SECONDS`` of CPU time
    (``ANALYSIS_ORGANIZER_CPU_SECONDS`` for organizers and staff; twice that of wall
    time either way). Anyone else's search also draws on the budgets of its client
    ``address`` and of the site, and waits for no one (:mod:`analysis.limits`: a
    :class:`~core.errors.LimitError`). Answers are kept by position and budget: asking
    again costs no search, and no budget is asked. A finished Stolbiki record is analysed
    with every hand (the result says so)."""
    iterations = _bounded("iterations", iterations, 1, MAX_POSITION_ITERATIONS)
    seed = _bounded("seed", seed, 0, MAX_SEED)
    anonymous = not may_analyse_longer(actor)
    cpu_seconds = float(settings.ANALYSIS_CPU_SECONDS if anonymous
                        else settings.ANALYSIS_ORGANIZER_CPU_SECONDS)
    budget = Budget(iterations=iterations, seed=seed, solver_nodes=POSITION_SOLVER_NODES,
                    cpu_seconds=cpu_seconds, seconds=2 * cpu_seconds)
    game, position, information, extra = _position(state, record, move)
    key = _answer_key(game, position, information, budget)
    report: dict[str, Any] | None = cache.get(key)
    if report is None:
        if anonymous:
            limits.check(address)
        with limits.anonymous_search(address) if anonymous else nullcontext():
            report = analyse_position(game, position, budget, information=information).as_dict()
        cache.set(key, report, timeout=settings.ANALYSIS_CACHE_SECONDS)
    return {**report, **extra}


def may_analyse_longer(actor: Actor) -> bool:
    """Staff and the organizers of any club get the longer budget, and no shared one."""
    return bool(getattr(actor, "is_staff", False) or is_organizer(actor))


def _position(state: object, record: object,
              move: object) -> tuple[str, Any, Information, dict[str, Any]]:
    """(game, position, what the analysis may see, what the answer adds) of the input."""
    if (state is None) == (record is None):
        raise ApplicationError(
            _("Give either a state document or a game record with a move number."),
            field="state" if state is not None else "record",
        )
    if record is None:
        game, position = _state_of(state)
        return game, position, "observed", {}
    if move is None:
        raise ApplicationError(_("A game record needs the move number to analyse."),
                               field="move")
    try:
        replayed, position = position_at(record, move)
    except AnalysisError as error:
        raise _application_error(error, "record") from None
    return replayed.game, position, replayed.information, {"move_number": move}


def _answer_key(game: str, position: Any, information: str, budget: Budget) -> str:
    """The cache key of a position's answer: the canonical state document, what the
    analysis may see, and the budget (seed included)."""
    canonical = json.dumps(
        [game, get_engine(game).to_dict(position), information, budget.iterations,
         budget.seed, budget.solver_nodes, budget.cpu_seconds],
        sort_keys=True, separators=(",", ":"))
    return "analysis-position:" + hashlib.sha256(canonical.encode()).hexdigest()


def _state_of(document: object) -> tuple[str, Any]:
    if not isinstance(document, dict):
        raise ApplicationError(_("The state document must be a JSON object."), field="state")
    game = document.get("game")
    if game not in ENGINE_NAMES:
        raise ApplicationError(
            _("The state document's game must be one of: %(games)s.")
            % {"games": ", ".join(ENGINE_NAMES)},
            field="state",
        )
    history = document.get("history")
    if isinstance(history, list) and len(history) > MAX_RECORD_MOVES:
        raise ApplicationError(
            _("The state document's history has more than %(limit)d moves.")
            % {"limit": MAX_RECORD_MOVES},
            field="state",
        )
    try:
        return str(game), get_engine(str(game)).from_dict(document)
    except (EngineError, TypeError, KeyError) as error:
        raise ApplicationError(
            _("The state document is not valid: %(error)s") % {"error": error}, field="state"
        ) from None


# -- a whole game ----------------------------------------------------------------------


def may_start_analysis(actor: Actor, game: Game) -> bool:
    """Staff and the organizers of the game's club may start its analysis."""
    if not getattr(actor, "is_authenticated", False):
        return False
    if getattr(actor, "is_staff", False):
        return True
    return can_manage_club(actor, game.pairing.round.tournament.club)


@transaction.atomic
def game_analysis_start(
    *, actor: Actor, game: Game, iterations: int = GAME_ITERATIONS, seed: int = 0
) -> tuple[GameAnalysis, bool]:
    """Queue the analysis of every move of ``game`` for a worker; return it and whether
    it was queued now. An analysis queued, running or done is returned as it is (it runs
    once); a failed one, or one whose worker was lost, is queued again."""
    if not may_start_analysis(actor, game):
        raise PermissionDenied(_("Only the organizers of this game's club may analyse it."))
    iterations = _bounded("iterations", iterations, 1, MAX_GAME_ITERATIONS)
    seed = _bounded("seed", seed, 0, MAX_SEED)
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if not locked.record:
        raise ApplicationError(_("This game has no move record to analyse."), field="game")
    try:
        replayed = replay(locked.record)
    except AnalysisError as error:
        raise _application_error(error, "record") from None
    analysis, created = GameAnalysis.objects.get_or_create(
        game=locked,
        defaults={"iterations": iterations, "seed": seed, "moves_total": len(replayed.moves),
                  "requested_by": actor_user(actor)},
    )
    if not created and not _restartable(analysis):
        return analysis, False
    if not created:
        analysis.status = AnalysisStatus.QUEUED
        analysis.iterations, analysis.seed, analysis.message = iterations, seed, ""
        analysis.moves_done, analysis.moves_total = 0, len(replayed.moves)
        analysis.started_at = analysis.finished_at = None
        analysis.result = None
        analysis.save()
    pk = analysis.pk
    transaction.on_commit(lambda: _publish(pk))
    return analysis, True


def _restartable(analysis: GameAnalysis) -> bool:
    if analysis.status in (AnalysisStatus.FAILED, AnalysisStatus.PARTIAL):
        return True
    return analysis.status == AnalysisStatus.RUNNING and _stale(analysis)


def stale_after() -> timedelta:
    """How long a running analysis may go unfinished before its worker counts as lost."""
    return timedelta(seconds=settings.ANALYSIS_GAME_SECONDS + 2 * TASK_GRACE_SECONDS)


def _stale(analysis: GameAnalysis) -> bool:
    started = analysis.started_at
    return started is not None and timezone.now() - started > stale_after()


def _publish(analysis_id: int) -> None:
    from analysis.tasks import analyse_game_task

    analyse_game_task.delay(analysis_id)


def game_analysis_run(analysis_id: int) -> str:
    """Run a queued analysis (the worker's task); a copy of the task that finds it
    already taken, done or gone does nothing (``"skipped"``), and one whose club already
    runs ``ANALYSIS_RUNNING_PER_CLUB`` analyses leaves it queued (``"waiting"``: the task
    asks again later). Returns the status it leaves."""
    claimed = _claim(analysis_id)
    if claimed != AnalysisStatus.RUNNING:
        return claimed
    analysis = GameAnalysis.objects.select_related("game").get(pk=analysis_id)

    def progress(done: int, total: int) -> None:
        GameAnalysis.objects.filter(pk=analysis_id).update(moves_done=done, moves_total=total)

    budget = Budget(iterations=analysis.iterations, seed=analysis.seed,
                    solver_nodes=GAME_SOLVER_NODES, seconds=settings.ANALYSIS_MOVE_SECONDS)
    game_seconds = settings.ANALYSIS_GAME_SECONDS
    try:
        report = analyse_game(analysis.game.record, budget, progress=progress,
                              seconds=game_seconds)
    except AnalysisError as error:
        _finish(analysis_id, AnalysisStatus.FAILED, message=str(error))
        return AnalysisStatus.FAILED
    except Exception as error:
        _finish(analysis_id, AnalysisStatus.FAILED, message=f"{type(error).__name__}: {error}")
        raise
    if not report.complete:
        _finish(analysis_id, AnalysisStatus.PARTIAL, result=report.as_dict(),
                message=_("Stopped after %(done)d of %(total)d moves: a game's analysis may "
                          "take %(seconds)d seconds. Ask again with fewer iterations.")
                % {"done": len(report.moves), "total": report.moves_total,
                   "seconds": game_seconds})
        return AnalysisStatus.PARTIAL
    _finish(analysis_id, AnalysisStatus.DONE, result=report.as_dict(),
            moves=len(report.moves))
    return AnalysisStatus.DONE


@transaction.atomic
def _claim(analysis_id: int) -> str:
    """Take a queued analysis (or one whose worker was lost) for this worker, under its
    club's row lock so that two workers cannot both take the club's last place."""
    found = (GameAnalysis.objects.filter(pk=analysis_id)
             .values_list("game__pairing__round__tournament__club_id", flat=True).first())
    if found is None:
        return "skipped"
    Club.objects.select_for_update().filter(pk=found).first()
    now = timezone.now()
    fresh = now - stale_after()
    analysis = GameAnalysis.objects.get(pk=analysis_id)
    takeable = analysis.status == AnalysisStatus.QUEUED or (
        analysis.status == AnalysisStatus.RUNNING and analysis.started_at is not None
        and analysis.started_at < fresh)
    if not takeable:
        return "skipped"
    running = GameAnalysis.objects.filter(
        status=AnalysisStatus.RUNNING, started_at__gte=fresh,
        game__pairing__round__tournament__club_id=found,
    ).exclude(pk=analysis_id).count()
    if running >= settings.ANALYSIS_RUNNING_PER_CLUB:
        return "waiting"
    GameAnalysis.objects.filter(pk=analysis_id).update(
        status=AnalysisStatus.RUNNING, started_at=now, moves_done=0)
    return AnalysisStatus.RUNNING


def _finish(analysis_id: int, status: str, *, message: str = "",
            result: dict[str, Any] | None = None, moves: int | None = None) -> None:
    fields: dict[str, Any] = {"status": status, "message": message, "result": result,
                              "finished_at": timezone.now()}
    if moves is not None:
        fields.update(moves_done=moves, moves_total=moves)
    GameAnalysis.objects.filter(pk=analysis_id).update(**fields)
