"""Bot-vs-bot tournaments played by Celery workers.

Each game is one task. A game is sent once (a ``BotGameTask`` row per pairing and game
number) and recorded once (``Game`` is unique per pairing and number; a redelivered task
finds its game recorded and stops). A level knockout match between bots goes to the higher
seed. The round barrier is the database: recording a match's result closes the round under
the tournament's row lock, and the transaction that sees no pending pairing left pairs the
next round (or finishes the tournament) and sends its games after commit. A periodic check
re-sends games that were sent but not recorded within the run's time-out (a worker killed
with -9, a message lost with a broker).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from botruns.models import BotGameTask, BotRun, BotRunStatus
from config.errors import ApplicationError
from games.bots.process.sandbox import Sandbox
from games.engines import get_engine
from games.series import MatchScore, deal_for_game, game_roles
from games.series.referee import BotSpec, RefereeOutcome, referee_game
from games.series.seeds import bot_seeds, deal_seed
from matches.models import Game
from matches.services.games import DuplicateGameError, game_record
from matches.services.results import match_format_of, match_result_record, match_score
from players.models import BotKind, Player
from players.permissions import SYSTEM, Actor, ensure_can_manage_club
from players.selectors import bot_game_problem, team_members_on
from tournaments.models import Entrant, Outcome, Pairing, Round, Status, Tournament
from tournaments.selectors import rounds_remaining, rounds_remaining_of
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
        raise ApplicationError(f"Team {entrant.team} has no members to play.", field="entrants")
    return members[0]


def _spec(player: Player) -> BotSpec:
    """The bot a player stands for: an installed program (run from the worker's bots
    directory) or a built-in kind with its settings."""
    if player.bot_kind == BotKind.INSTALLED:
        return BotSpec.installed(player.installed_bot)
    return BotSpec(kind=player.bot_kind, settings=dict(player.bot_settings or {}))


# -- starting --------------------------------------------------------------------------


@transaction.atomic
def bot_tournament_start(
    *, actor: Actor, tournament: Tournament, seed: int = 0, move_seconds: float | None = None,
    game_timeout_seconds: int = 300, inline: bool = False,
) -> BotRun:
    """Start (or resume) playing ``tournament`` with the workers (or, ``inline``, in this
    process through :func:`bot_run_inline`)."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    day = timezone.localdate()
    entrants = list(tournament.entrants.select_related("player", "team"))
    bots = [_bot_of(e, day) for e in entrants]
    humans = [e.name for e, bot in zip(entrants, bots, strict=True) if not bot.is_bot]
    if humans:
        raise ApplicationError(
            f"Only a tournament whose entrants are all bots can be played by the workers; "
            f"not bots: {', '.join(humans[:5])}.", field="entrants",
        )
    problems = [p for p in (bot_game_problem(bot, tournament.game) for bot in bots) if p]
    if problems:
        raise ApplicationError(" ".join(problems[:5]), field="entrants")
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        tournament = tournament_start(actor=actor, tournament=tournament)
    elif tournament.status == Status.FINISHED:
        raise ApplicationError("The tournament is finished.", field="status")
    run, created = BotRun.objects.get_or_create(
        tournament=tournament,
        defaults={"seed": seed, "move_seconds": move_seconds, "inline": inline,
                  "game_timeout_seconds": game_timeout_seconds},
    )
    if not created and run.status == BotRunStatus.FAILED:
        run.status, run.message = BotRunStatus.RUNNING, ""
        run.save(update_fields=["status", "message"])
    if not tournament.rounds.exists():
        round_pair_next(actor=actor, tournament=tournament)
    _advance(run, tournament)
    return run


# -- playing one game ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    status: str  # "recorded", "duplicate" or "skipped"
    outcome: RefereeOutcome | None = None


def bot_game_play(pairing_id: int, number: int) -> PlayedGame:
    """Play game ``number`` of the match on ``pairing_id`` and record it (the task's body)."""
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
        return PlayedGame("skipped")
    fmt = match_format_of(tournament)
    roles = game_roles(tournament.game, number - 1, duplicate=fmt.duplicate)
    secret = settings.BOT_SEED_SECRET
    seed = deal_seed(secret, run.seed, pairing.round.number, pairing.board, roles.deal_index)
    deal = deal_for_game(tournament.game, tournament.game_options, seed, roles)
    day = timezone.localdate()
    sides = (_spec(_bot_of(pairing.entrant_a, day)), _spec(_bot_of(pairing.entrant_b, day)))
    seats = get_engine(tournament.game).seat_count(**tournament.game_options)
    outcome = referee_game(
        tournament.game, tournament.game_options, deal, sides,
        seeds=bot_seeds(secret, seats, run.seed, pairing.round.number, pairing.board, number),
        move_seconds=run.move_seconds, bots_dir=settings.BOTS_DIR,
        sandbox=Sandbox(isolation=settings.BOT_ISOLATION),
    )
    if outcome.reason:
        log.warning("%s, game %d: %s", pairing, number, outcome.reason)
    result = {0: "a", 1: "b", None: "draw"}[outcome.winner_side]
    try:
        with transaction.atomic():
            recorded = game_record(
                actor=SYSTEM, pairing=pairing, number=number, result=result,
                record=outcome.record if outcome.termination == "normal" else None,
                termination=outcome.termination, deal_seed=seed,
                forfeit_reason=outcome.reason,
            )
            _mark_done(pairing_id, number)
            if not recorded.match_decided:
                _send(run, [(pairing_id, number + 1)])
            else:
                if tournament.is_knockout and fmt.winner(recorded.score) is None:
                    _break_knockout_tie(recorded.game.pairing, recorded.score)
                if not Pairing.objects.filter(round_id=pairing.round_id, entrant_b__isnull=False,
                                              outcome=Outcome.PENDING).exists():
                    _advance(run, tournament)
    except DuplicateGameError:
        _mark_done(pairing_id, number)
        return PlayedGame("duplicate")
    return PlayedGame("recorded", outcome)


def _mark_done(pairing_id: int, number: int) -> None:
    BotGameTask.objects.filter(pairing_id=pairing_id, number=number, done_at=None).update(
        done_at=timezone.now()
    )


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
            round_pair_next(actor=SYSTEM, tournament=tournament)
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
        [BotGameTask(run=run, pairing_id=p, number=n, sent_at=now) for p, n in new],
        ignore_conflicts=True,
    )
    if new and not run.inline:
        transaction.on_commit(lambda: _publish(new))


def _publish(games: list[tuple[int, int]]) -> None:
    from botruns.tasks import play_bot_game_task

    for pairing_id, number in games:
        play_bot_game_task.delay(pairing_id, number)


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
    """Re-send games sent longer ago than their run's time-out and not recorded yet, and
    send what a running tournament's current round lacks. Returns how many were re-sent."""
    now = now or timezone.now()
    resent: list[tuple[int, int]] = []
    runs = BotRun.objects.filter(status=BotRunStatus.RUNNING, inline=False)
    for run in runs.select_related("tournament"):
        cutoff = now - dt.timedelta(seconds=run.game_timeout_seconds)
        with transaction.atomic():
            stuck = list(
                BotGameTask.objects.select_for_update(skip_locked=True)
                .filter(run=run, done_at=None, sent_at__lt=cutoff)
            )
            for task in stuck:
                if Game.objects.filter(pairing_id=task.pairing_id, number=task.number).exists():
                    task.done_at = now
                    task.save(update_fields=["done_at"])
                    continue
                task.sent_at, task.attempts = now, task.attempts + 1
                task.save(update_fields=["sent_at", "attempts"])
                resent.append((task.pairing_id, task.number))
            _advance(run, run.tournament)
    if resent:
        log.warning("re-sent %d stuck bot games", len(resent))
        _publish(resent)
    return len(resent)


# -- progress --------------------------------------------------------------------------------


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
