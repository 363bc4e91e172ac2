"""Bot-vs-bot tournaments played by Celery workers.

Each game is one task. A game is sent once (a ``BotGameTask`` row per pairing and game
number) and recorded once (``Game`` is unique per pairing and number; a redelivered task
finds its game recorded and stops). A level knockout match between bots goes to the higher
seed. The round barrier is the database: recording a match's result closes the round under
the tournament's row lock, and the transaction that sees no pending pairing left pairs the
next round (or finishes the tournament) and sends its games after commit.

Lost games: a worker playing a game holds its lease (``BotGameTask.lease_until``), renewed
by a thread every third of ``BOT_LEASE_SECONDS`` while the game runs. A periodic check
(beat, every ``BOT_STUCK_CHECK_SECONDS``) sends again the games whose lease ran out (their
worker was killed, or the game ran past its time limit) and those sent longer ago than the
run's ``game_timeout_seconds`` and never started (a message lost with a broker). A game
lost :data:`MAX_LOSSES` times stops its run with a message instead of being sent forever;
a task that finds another worker's live lease stops (a message delivered twice). A game
whose database connection is lost while it runs (a PostgreSQL restart caught it, often
mid-write) ends its lease on a fresh connection and its task is sent again at once
(``interrupted``), instead of waiting for the lease to run out and the next check.


Fair share: at most ``BOT_GAMES_PER_CLUB`` games of a club's running runs are sent and
unfinished at once. The others wait as rows without ``sent_at`` and are sent, oldest
first, when one of the club's games ends (and by the periodic check), under the club's
row lock, so one club's big round cannot fill the queue ahead of another club's games.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db import connection as db_connection
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from botruns.models import DEFAULT_GAME_SECONDS, BotGameTask, BotRun, BotRunStatus
from core.bounds import (
    MAX_GAME_SECONDS,
    MAX_MOVE_SECONDS,
    MAX_RESEND_SECONDS,
    MIN_GAME_SECONDS,
    MIN_RESEND_SECONDS,
)
from core.db_retry import connection_lost
from core.errors import ApplicationError
from games.bots.process.sandbox import Sandbox
from games.engines import get_engine
from games.series import MatchScore, deal_for_game, game_roles
from games.series.referee import BotSpec, RefereeOutcome, referee_game
from games.series.seeds import bot_seeds, deal_seed
from matches.models import Game
from matches.services.games import DuplicateGameError, game_record
from matches.services.results import match_result_record, match_score
from players.models import BotKind, Club, Player
from players.permissions import SYSTEM, Actor, ensure_can_manage_club
from players.selectors import bot_game_problem, team_members_on
from players.services import bot_settings_check
from tournaments.models import Entrant, Outcome, Pairing, Status, Tournament
from tournaments.selectors import match_format_of, rounds_remaining
from tournaments.services.rounds import round_pair_next
from tournaments.services.tournaments import (
    lock_tournament,
    tournament_finish,
    tournament_start,
)

log = logging.getLogger(__name__)


def _bot_of(entrant: Entrant, day: Any) -> Player:
    if entrant.player_id is not None:
        assert entrant.player is not None
        return entrant.player
    assert entrant.team is not None
    members = list(team_members_on(entrant.team, day).order_by("id"))
    if not members:
        raise ApplicationError(_("Team %(team)s has no members to play.")
                               % {"team": entrant.team}, field="entrants")
    return members[0]


def _spec(player: Player) -> BotSpec:
    """The bot a player stands for: an installed program (run from the worker's bots
    directory) or a built-in kind with its settings."""
    if player.bot_kind == BotKind.INSTALLED:
        return BotSpec.installed(player.installed_bot)
    return BotSpec(kind=player.bot_kind, settings=dict(player.bot_settings or {}))


def _sides(pairing: Pairing, day: Any) -> tuple[tuple[BotSpec, BotSpec], tuple[int, str] | None]:
    """Both sides' bots, and the first side that cannot play (no member, not a bot, or
    settings the checks refuse: a row saved before them) with the reason."""
    specs = []
    for side, entrant in enumerate((pairing.entrant_a, pairing.entrant_b)):
        assert entrant is not None
        try:
            bot = _bot_of(entrant, day)
            if not bot.is_bot:
                raise ApplicationError(_("%(player)s is not a bot.") % {"player": bot})
            bot_settings_check(bot.bot_kind, bot.bot_settings)
        except ApplicationError as error:
            return (BotSpec("random"), BotSpec("random")), (
                side, _("side %(side)s (%(entrant)s) cannot play: %(problem)s") % {
                    "side": "AB"[side], "entrant": entrant.name, "problem": error.message})
        specs.append(_spec(bot))
    return (specs[0], specs[1]), None


# -- starting --------------------------------------------------------------------------


def bot_run_check(
    *, actor: Actor, tournament: Tournament, seed: int = 0, move_seconds: float | None = None,
    game_seconds: int = DEFAULT_GAME_SECONDS, game_timeout_seconds: int = 300,
) -> None:
    """The checks of :func:`bot_tournament_start` alone (the admin's form runs them): the
    run's limits within their bounds, every entrant a bot with valid settings."""
    ensure_can_manage_club(actor, tournament.club)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ApplicationError(_("The seed is a whole number from 0 to 2^63 - 1."),
                               field="seed")
    if move_seconds is not None and (isinstance(move_seconds, bool)
                                     or not isinstance(move_seconds, int | float)
                                     or not 0 < move_seconds <= MAX_MOVE_SECONDS):
        raise ApplicationError(_("A move may take from 0 up to %(limit)g seconds.")
                               % {"limit": MAX_MOVE_SECONDS}, field="move_seconds")
    for name, value, low, high in (
            ("game_seconds", game_seconds, MIN_GAME_SECONDS, MAX_GAME_SECONDS),
            ("game_timeout_seconds", game_timeout_seconds, MIN_RESEND_SECONDS,
             MAX_RESEND_SECONDS)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ApplicationError(
                _("%(name)s is a whole number of seconds from %(low)d to %(high)d.")
                % {"name": name, "low": low, "high": high}, field=name)
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    day = timezone.localdate()
    bots = [(entrant, _bot_of(entrant, day))
            for entrant in tournament.entrants.select_related("player", "team")]
    humans = [entrant.name for entrant, bot in bots if not bot.is_bot]
    if humans:
        raise ApplicationError(
            _("Only a tournament whose entrants are all bots can be played by the workers; "
              "not bots: %(names)s.") % {"names": ", ".join(humans[:5])}, field="entrants",
        )
    for entrant, bot in bots:
        try:
            bot_settings_check(bot.bot_kind, bot.bot_settings)
        except ApplicationError as error:
            raise ApplicationError(_("%(entrant)s: %(problem)s") % {
                "entrant": entrant.name, "problem": error.message}, field="entrants") from None
    problems = [p for p in (bot_game_problem(bot, tournament.game) for _, bot in bots) if p]
    if problems:
        raise ApplicationError(" ".join(problems[:5]), field="entrants")


@transaction.atomic
def bot_tournament_start(
    *, actor: Actor, tournament: Tournament, seed: int = 0, move_seconds: float | None = None,
    game_seconds: int = DEFAULT_GAME_SECONDS, game_timeout_seconds: int = 300,
    inline: bool = False,
) -> BotRun:
    """Start (or resume) playing ``tournament`` with the workers (or, ``inline``, in this
    process through :func:`bot_run_inline`)."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    bot_run_check(actor=actor, tournament=tournament, seed=seed, move_seconds=move_seconds,
                  game_seconds=game_seconds, game_timeout_seconds=game_timeout_seconds)
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        tournament = tournament_start(actor=actor, tournament=tournament)
    run, created = BotRun.objects.get_or_create(
        tournament=tournament,
        defaults={"seed": seed, "move_seconds": move_seconds, "inline": inline,
                  "game_seconds": game_seconds, "game_timeout_seconds": game_timeout_seconds},
    )
    if not created and run.status == BotRunStatus.FAILED:
        run.status, run.message = BotRunStatus.RUNNING, ""
        run.save(update_fields=["status", "message"])
        _resend_open(run)
    if not tournament.rounds.exists():
        round_pair_next(actor=actor, tournament=tournament, release=True)  # nobody to wait for
    _advance(run, tournament)
    return run


def _resend_open(run: BotRun) -> None:
    """A resumed run sends its unfinished games again, their losses forgiven."""
    now = timezone.now()
    games = list(run.tasks.filter(done_at=None).values_list("pairing_id", "number"))
    run.tasks.filter(done_at=None).update(
        losses=0, lease_until=None, started_at=None, worker="",
        sent_at=now if run.inline else None, attempts=F("attempts") + 1)
    if games and not run.inline:
        _release_held(run.tournament.club_id)


# -- playing one game ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    #: "recorded", "duplicate" (recorded before), "skipped" (the match needs no such game),
    #: "elsewhere" (another worker holds its lease), "interrupted" (its database connection
    #: was lost: ask again) or "failed" (an error: sent again)
    status: str
    outcome: RefereeOutcome | None = None
    #: Seconds after which the task asks again: "elsewhere", until the other worker's lease
    #: runs out; "interrupted", :data:`RETRY_AFTER_LOST_CONNECTION`.
    retry_in: float | None = None


#: A started game lost this many times stops its run instead of being sent again.
MAX_LOSSES = 3
#: Seconds before a game interrupted by a lost database connection is tried again (a
#: restart takes a fraction of a second; the pool waits for the server to answer).
RETRY_AFTER_LOST_CONNECTION = 1.0
#: Seconds a game task may run past its run's ``game_seconds`` before Celery's soft time
#: limit (the bots starting and stopping, the database), and from the soft to the hard one.
TASK_GRACE_SECONDS = 60
TASK_KILL_SECONDS = 30


def worker_name() -> str:
    """Who plays a game: this host and process."""
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


class GameLease:
    """A worker's hold on a game while it plays it: taken in one update (only when no live
    lease exists), renewed by a thread every third of ``BOT_LEASE_SECONDS``, ended when the
    game ends (at once, if it ended without being recorded, so that it is sent again)."""

    def __init__(self, pairing_id: int, number: int) -> None:
        self.rows = BotGameTask.objects.filter(pairing_id=pairing_id, number=number,
                                               done_at=None)
        self.seconds = float(settings.BOT_LEASE_SECONDS)
        self.worker = worker_name()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._renew, daemon=True,
                                        name=f"lease {pairing_id}/{number}")

    def take(self) -> float | None:
        """Take the lease; while another worker's lease is live, the seconds it has left.
        This process's own lease (left by a copy interrupted here) is taken over."""
        now = timezone.now()
        taken = self.rows.filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now)
                                 | Q(worker=self.worker)).update(
            worker=self.worker, started_at=now,
            lease_until=now + dt.timedelta(seconds=self.seconds))
        if not taken:
            held = self.rows.filter(lease_until__gte=now).values_list("lease_until",
                                                                      flat=True).first()
            if held is not None:
                return max(0.0, (held - now).total_seconds())
        self._thread.start()
        return None

    def _renew(self) -> None:
        try:
            while not self._stop.wait(self.seconds / 3):
                self.rows.filter(worker=self.worker).update(
                    lease_until=timezone.now() + dt.timedelta(seconds=self.seconds))
        except Exception:  # a renewal that fails lets the lease run out: the game is resent
            log.exception("could not renew the lease of %s", self._thread.name)
        finally:
            db_connection.close()

    def end(self, *, recorded: bool) -> None:
        self._stop.set()
        self._thread.join(timeout=self.seconds)
        if not recorded:
            self.rows.filter(worker=self.worker).update(lease_until=timezone.now())


def bot_game_play(pairing_id: int, number: int) -> PlayedGame:
    """Play game ``number`` of the match on ``pairing_id`` and record it (the task's body).

    A worker run takes the game's lease first; another worker's live lease means the game
    is being played (a message delivered twice), or was by a worker stopped a moment ago:
    this copy says when the lease runs out, and the task asks again then. A lost database
    connection ends the lease on a fresh one and says to ask again at once."""
    try:
        return _bot_game_play(pairing_id, number)
    except (OperationalError, InterfaceError) as error:
        if not connection_lost(error):
            raise
        log.warning("game %d of pairing %d interrupted by a lost database connection: "
                    "sent again", number, pairing_id)
        db_connection.close()
        _end_own_lease(pairing_id, number)
        return PlayedGame("interrupted", retry_in=RETRY_AFTER_LOST_CONNECTION)


def _end_own_lease(pairing_id: int, number: int) -> None:
    """End this process's lease on a game now, if the database answers (else the next
    copy in this process takes it over, and others wait for it to run out)."""
    try:
        BotGameTask.objects.filter(pairing_id=pairing_id, number=number, done_at=None,
                                   worker=worker_name()).update(lease_until=timezone.now())
    except (OperationalError, InterfaceError):
        log.warning("could not end the lease of game %d of pairing %d", number, pairing_id)
        db_connection.close()


def _bot_game_play(pairing_id: int, number: int) -> PlayedGame:
    pairing = (
        Pairing.objects.select_related(
            "round__tournament__bot_run", "entrant_a__player", "entrant_a__team",
            "entrant_b__player", "entrant_b__team",
        ).get(pk=pairing_id)
    )
    tournament = pairing.round.tournament
    run = tournament.bot_run
    if Game.objects.filter(pairing=pairing, number=number).exists():
        _mark_done(pairing_id, number)
        return PlayedGame("duplicate")
    if pairing.outcome != Outcome.PENDING or pairing.entrant_b is None:
        _mark_done(pairing_id, number)  # the match is decided: the game is never needed
        return PlayedGame("skipped")
    lease = None if run.inline else GameLease(pairing_id, number)
    held = lease.take() if lease is not None else None
    if held is not None:
        return PlayedGame("elsewhere", retry_in=held + 1)
    played = PlayedGame("failed")
    try:
        played = _play(run, tournament, pairing, number)
    finally:
        if lease is not None:
            lease.end(recorded=played.status in ("recorded", "duplicate"))
    return played


def _play(run: BotRun, tournament: Tournament, pairing: Pairing, number: int) -> PlayedGame:
    pairing_id = pairing.pk
    fmt = match_format_of(tournament)
    roles = game_roles(tournament.game, number - 1, duplicate=fmt.duplicate)
    secret = settings.BOT_SEED_SECRET
    seed = deal_seed(secret, run.seed, pairing.round.number, pairing.board, roles.deal_index)
    deal = deal_for_game(tournament.game, tournament.game_options, seed, roles)
    day = timezone.localdate()
    sides, fault = _sides(pairing, day)
    outcome: RefereeOutcome | None = None
    if fault is not None:  # a bot that cannot play forfeits, once, without a referee
        side, reason = fault
        winner_side: int | None = 1 - side
        termination = "forfeit"
    else:
        seats = get_engine(tournament.game).seat_count(**tournament.game_options)
        outcome = referee_game(
            tournament.game, tournament.game_options, deal, sides,
            seeds=bot_seeds(secret, seats, run.seed, pairing.round.number, pairing.board, number),
            move_seconds=run.move_seconds, bots_dir=settings.BOTS_DIR,
            sandbox=Sandbox(isolation=settings.BOT_ISOLATION), game_seconds=run.game_seconds,
        )
        reason, winner_side, termination = (outcome.reason, outcome.winner_side,
                                            outcome.termination)
    if reason:
        log.warning("%s, game %d: %s", pairing, number, reason)
    result = {0: "a", 1: "b", None: "draw"}[winner_side]
    try:
        with transaction.atomic():
            recorded = game_record(
                actor=SYSTEM, pairing=pairing, number=number, result=result,
                record=outcome.record if outcome and termination == "normal" else None,
                termination=termination, deal_seed=seed,
                forfeit_reason=reason[:1000] if termination != "normal" else "",
            )
            _mark_done(pairing_id, number)
            if not recorded.match_decided:
                _send(run, [(pairing_id, number + 1)])
            else:
                if tournament.system.needs_winner and fmt.winner(recorded.score) is None:
                    _break_knockout_tie(recorded.game.pairing, recorded.score)
                if not Pairing.objects.filter(round_id=pairing.round_id, entrant_b__isnull=False,
                                              outcome=Outcome.PENDING).exists():
                    _advance(run, tournament)
    except DuplicateGameError:
        _mark_done(pairing_id, number)
        return PlayedGame("duplicate")
    return PlayedGame("recorded", outcome)


def _mark_done(pairing_id: int, number: int) -> None:
    """The game needs no worker any more: its place in the club's share goes to the next."""
    BotGameTask.objects.filter(pairing_id=pairing_id, number=number, done_at=None).update(
        done_at=timezone.now()
    )
    club_id = (Pairing.objects.filter(pk=pairing_id)
               .values_list("round__tournament__club_id", flat=True).first())
    if club_id is not None:
        _release_held(club_id)


# -- the round barrier -------------------------------------------------------------------


def _advance(run: BotRun, tournament: Tournament) -> None:
    """Send the games the current round still needs; when it is complete, pair the next
    round or finish. Runs inside the caller's transaction, under the tournament lock."""
    tournament = lock_tournament(tournament)
    if tournament.status != Status.RUNNING:
        return
    current = tournament.rounds.order_by("-number").first()
    assert current is not None
    pending = list(
        current.pairings.filter(outcome=Outcome.PENDING, entrant_b__isnull=False)
        .select_related("entrant_a", "entrant_b").prefetch_related("games")
    )
    fmt = match_format_of(tournament)
    to_play = []
    for pairing in pending:
        score = match_score([game.winner_side for game in pairing.games.all()])
        if not fmt.is_decided(score):
            to_play.append((pairing.pk, score.games + 1))
        else:
            _break_knockout_tie(pairing, score)
    if to_play:
        _send(run, to_play)
        return
    if pending:
        _advance(run, tournament)
        return
    if rounds_remaining(tournament) == 0:
        tournament_finish(actor=SYSTEM, tournament=tournament)
        run.status, run.finished_at = BotRunStatus.FINISHED, timezone.now()
        run.save(update_fields=["status", "finished_at"])
        return
    try:
        with transaction.atomic():
            round_pair_next(actor=SYSTEM, tournament=tournament, release=True)
    except ApplicationError as error:  # a round that should exist cannot be paired
        run.status, run.message = BotRunStatus.FAILED, str(error)
        run.save(update_fields=["status", "message"])
        log.error("bot tournament %s stopped: %s", tournament, error)
        return
    _advance(run, tournament)


def _break_knockout_tie(pairing: Pairing, score: MatchScore) -> None:
    """A level knockout match between bots goes to the higher seed (lower seed number)."""
    pairing = Pairing.objects.select_related("entrant_a", "entrant_b").get(pk=pairing.pk)
    a, b = pairing.entrant_a, pairing.entrant_b
    assert b is not None
    a_first = (a.seed or 10**9, a.pk) < (b.seed or 10**9, b.pk)
    match_result_record(actor=SYSTEM, pairing=pairing, score=score,
                  outcome=Outcome.A_WINS if a_first else Outcome.B_WINS,
                  expected_version=pairing.version)


def _send(run: BotRun, games: list[tuple[int, int]]) -> None:
    """Create the task rows of games not sent yet and publish them after commit."""
    if not games:
        return
    now = timezone.now()
    existing = set(
        BotGameTask.objects.filter(
            Q(*[Q(pairing_id=p, number=n) for p, n in games], _connector=Q.OR)
        ).values_list("pairing_id", "number")
    )
    new = [(p, n) for p, n in games if (p, n) not in existing]
    BotGameTask.objects.bulk_create(
        [BotGameTask(run=run, pairing_id=p, number=n, sent_at=now if run.inline else None)
         for p, n in new],
        ignore_conflicts=True,
    )
    if new and not run.inline:
        _release_held(run.tournament.club_id)


def _release_held(club_id: int) -> None:
    """Send the club's waiting games, oldest first, while fewer than ``BOT_GAMES_PER_CLUB``
    of its games are sent and unfinished; published after commit."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        open_tasks = BotGameTask.objects.filter(
            run__tournament__club_id=club_id, run__status=BotRunStatus.RUNNING,
            run__inline=False, done_at=None)
        in_flight = open_tasks.filter(sent_at__isnull=False).count()
        free = settings.BOT_GAMES_PER_CLUB - in_flight
        if free <= 0:
            return
        chosen = list(open_tasks.filter(sent_at__isnull=True).select_related("run")
                      .order_by("id")[:free])
        if not chosen:
            return
        BotGameTask.objects.filter(pk__in=[task.pk for task in chosen]).update(
            sent_at=timezone.now())
        by_run: dict[int, tuple[BotRun, list[tuple[int, int]]]] = {}
        for task in chosen:
            by_run.setdefault(task.run_id, (task.run, []))[1].append(
                (task.pairing_id, task.number))
        for run, games in by_run.values():
            transaction.on_commit(partial(_publish, run, games))


def _publish(run: BotRun, games: list[tuple[int, int]]) -> None:
    """Send the games to the workers, with Celery time limits from the run's game limit
    (the referee ends a game in time; the limits are the backstop for everything else)."""
    from botruns.tasks import play_bot_game_task

    soft = run.game_seconds + TASK_GRACE_SECONDS
    for pairing_id, number in games:
        play_bot_game_task.apply_async((pairing_id, number), soft_time_limit=soft,
                                       time_limit=soft + TASK_KILL_SECONDS)


def bot_run_inline(run: BotRun) -> int:
    """Play an inline run's games one after another in this process; return how many."""
    played = 0
    while True:
        open_tasks = list(
            BotGameTask.objects.filter(run=run, done_at=None).order_by("id")
            .values_list("pairing_id", "number")
        )
        if not open_tasks:
            break
        for pairing_id, number in open_tasks:
            played += bot_game_play(pairing_id, number).status == "recorded"
    run.refresh_from_db()
    return played


# -- the periodic check --------------------------------------------------------------------


def bot_games_resend_stuck(now: Any = None) -> int:
    """Send again the games whose lease ran out (their worker died, or they ran past their
    time limit) and those sent longer ago than the run's time-out and never started (a lost
    message); send what a running tournament's current round lacks. A game lost
    :data:`MAX_LOSSES` times stops its run. Returns how many games were sent again."""
    now = now or timezone.now()
    count = 0
    runs = BotRun.objects.filter(status=BotRunStatus.RUNNING, inline=False)
    for run in runs.select_related("tournament"):
        cutoff = now - dt.timedelta(seconds=run.game_timeout_seconds)
        resent: list[tuple[int, int]] = []
        with transaction.atomic():
            stuck = list(
                BotGameTask.objects.select_for_update(skip_locked=True)
                .filter(run=run, done_at=None)
                .filter(Q(lease_until__lt=now)
                        | Q(lease_until__isnull=True, sent_at__lt=cutoff))
                .select_related("pairing__round")
            )
            for task in stuck:
                if Game.objects.filter(pairing_id=task.pairing_id, number=task.number).exists():
                    task.done_at = now
                    task.save(update_fields=["done_at"])
                    continue
                if task.lease_until is not None:
                    task.losses += 1
                    log.warning("%s, game %d: lost by %s (lease ran out), loss %d",
                                task.pairing, task.number, task.worker, task.losses)
                if task.losses >= MAX_LOSSES:
                    task.save(update_fields=["losses"])
                    _fail(run, _("Round %(round)d, board %(board)d, game %(game)d was lost "
                                 "%(losses)d times while being played (its worker died, or "
                                 "the game ran past its time limit): the run stopped. Start "
                                 "it again to resume.") % {
                        "round": task.pairing.round.number, "board": task.pairing.board,
                        "game": task.number, "losses": task.losses})
                    resent = []
                    break
                task.sent_at, task.attempts = now, task.attempts + 1
                task.lease_until, task.started_at, task.worker = None, None, ""
                task.save(update_fields=["sent_at", "attempts", "lease_until", "started_at",
                                         "worker", "losses"])
                resent.append((task.pairing_id, task.number))
            run.refresh_from_db(fields=["status"])
            if run.status == BotRunStatus.RUNNING:
                _advance(run, run.tournament)
            _release_held(run.tournament.club_id)  # a share freed by a lost release
        if resent:
            log.warning("re-sent %d stuck bot games of %s", len(resent), run.tournament)
            _publish(run, resent)
            count += len(resent)
    return count


def _fail(run: BotRun, message: str) -> None:
    run.status, run.message = BotRunStatus.FAILED, message
    run.save(update_fields=["status", "message"])
    log.error("bot tournament %s stopped: %s", run.tournament, message)
