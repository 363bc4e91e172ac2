"""A head-to-head match between two bots on duplicate deals, with evaluation statistics and
an optional SPRT stop rule. Pure Python: no database.

Every game goes through the referee, so both bots (built-in, installed or a command line)
play in their own processes. Deals and bot seeds come from ``secret`` (HMAC,
:mod:`games.series.seeds`): the same secret and ``seed`` replay the same match, and no bot
can work out the deal from its own seed or from the match's public numbers. With
``concurrency`` above 1 the games are spread over that many worker processes; results are
taken in deal order, so the report (and where the SPRT stops) does not depend on it.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.bots.evaluation import (
    HeadToHead,
    Sprt,
    normalized_elo,
    pair_counts,
    pentanomial,
    trinomial,
)
from games.bots.process.sandbox import Sandbox
from games.clocks.setting import ClockSetting
from games.engines import get_engine
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, RefereeOutcome, launch_of, referee_game
from games.series.roles import game_roles
from games.series.seeds import bot_seeds, deal_seed


@dataclass(frozen=True)
class MatchReport:
    wins: int
    draws: int
    losses: int
    forfeits: int
    pairs: list[int]  # pentanomial counts
    games: HeadToHead
    game_pairs: HeadToHead
    sprt_decision: str | None
    forfeit_reasons: list[str] = field(default_factory=list)
    sprt: Sprt | None = None
    sprt_llr: float = 0.0  # at the last pair the SPRT looked at

    def lines(self, name_a: str, name_b: str) -> list[str]:
        g, p = self.games, self.game_pairs
        out = [
            f"{name_a} v {name_b}: +{self.wins} ={self.draws} -{self.losses} "
            f"({self.wins + self.draws + self.losses} games, {self.forfeits} by forfeit)",
            f"  score {g.score:.3f}, Elo {g.elo:+.1f} [{g.elo_low:+.1f}, {g.elo_high:+.1f}] "
            f"(95%, trinomial), LOS {g.los:.1%}",
            f"  pairs {self.pairs} (0..2 points): Elo {p.elo:+.1f} "
            f"[{p.elo_low:+.1f}, {p.elo_high:+.1f}] (95%, pentanomial), LOS {p.los:.1%}",
            "  normalized Elo {:+.2f} ± {:.2f} (95%, pentanomial)".format(*normalized_elo(p)),
        ]
        if self.sprt is not None:
            s, llr = self.sprt, self.sprt_llr
            verdict = f"{self.sprt_decision} accepted" if self.sprt_decision else "no decision"
            out.append(f"  SPRT [{s.elo0:.2f}, {s.elo1:.2f}] {s.model} Elo: LLR {llr:.2f} "
                       f"({s.lower_bound:.2f}, {s.upper_bound:.2f}), {verdict}")
        out.extend(f"  forfeit: {reason}" for reason in self.forfeit_reasons)
        return out


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: everything a worker process needs to play it."""

    game: str
    options: dict[str, Any]
    sides: tuple[BotSpec, BotSpec]
    secret: bytes | str
    seed: int
    deal_index: int
    mirrored: int
    clock: ClockSetting | None = None
    move_seconds: float | None = None
    sandbox: Sandbox | None = None
    bots_dir: str | None = None

    def play(self) -> RefereeOutcome:
        index = 2 * self.deal_index + self.mirrored
        roles = game_roles(self.game, index, duplicate=True)
        deal = deal_for_game(self.game, self.options,
                             deal_seed(self.secret, self.seed, self.deal_index), roles)
        seats = get_engine(self.game).seat_count(**self.options)
        return referee_game(
            self.game, self.options, deal, self.sides,
            seeds=bot_seeds(self.secret, seats, self.seed, index), clock=self.clock,
            move_seconds=self.move_seconds, sandbox=self.sandbox, bots_dir=self.bots_dir,
        )


def _play(job: MatchGame) -> RefereeOutcome:
    return job.play()


MAX_REASONS = 10


def play_match(
    game: str, bot_a: BotSpec, bot_b: BotSpec, *, pairs: int, secret: bytes | str,
    seed: int = 0, options: Mapping[str, Any] | None = None, sprt: Sprt | None = None,
    concurrency: int = 1, clock: ClockSetting | None = None,
    move_seconds: float | None = None, sandbox: Sandbox | None = None,
    bots_dir: str | Path | None = None,
    on_game: Callable[[MatchGame, RefereeOutcome], object] | None = None,
) -> MatchReport:
    """Play up to ``pairs`` deal pairs (each deal twice, roles swapped)."""
    if pairs < 1:
        raise ValueError(f"a match needs at least one deal pair, not {pairs}")
    if concurrency < 1:
        raise ValueError(f"concurrency must be 1 or more, not {concurrency}")
    options = dict(options or {})
    get_engine(game).options(**options)  # a bad option or bot fails here, not in every game
    for spec in (bot_a, bot_b):
        launch_of(spec, game, bots_dir)
    jobs = [
        MatchGame(game, options, (bot_a, bot_b), secret, seed, deal_index, mirrored, clock,
                  move_seconds, sandbox, None if bots_dir is None else str(bots_dir))
        for deal_index in range(pairs) for mirrored in (0, 1)
    ]
    wins = draws = losses = forfeits = 0
    reasons: list[str] = []
    pair_points: list[float] = []
    decision = None
    llr: float | None = None
    points = 0.0
    for job, outcome in _outcomes(jobs, concurrency):
        if on_game is not None:
            on_game(job, outcome)
        if outcome.termination != "normal":
            forfeits += 1
            if len(reasons) < MAX_REASONS:
                reasons.append(f"deal {job.deal_index + 1}, game {job.mirrored + 1}: "
                               f"{outcome.reason}")
        if outcome.winner_side == 0:
            wins, points = wins + 1, points + 1
        elif outcome.winner_side == 1:
            losses += 1
        else:
            draws, points = draws + 1, points + 0.5
        if job.mirrored:
            pair_points.append(points)
            points = 0.0
            if sprt is not None and job.deal_index >= 4:
                llr = sprt.llr(pentanomial(pair_counts(pair_points)))
                decision = sprt.decision_for(llr)
                if decision:
                    break
    counts = pair_counts(pair_points)
    if sprt is not None and llr is None:  # fewer than five pairs: the LLR without a decision
        llr = sprt.llr(pentanomial(counts))
    return MatchReport(wins, draws, losses, forfeits, counts,
                       trinomial(wins=wins, draws=draws, losses=losses), pentanomial(counts),
                       decision, reasons, sprt, llr or 0.0)


def _outcomes(jobs: list[MatchGame], concurrency: int) -> Iterator[tuple[MatchGame,
                                                                        RefereeOutcome]]:
    """Each job with its outcome, in the jobs' order; with ``concurrency`` > 1, played by
    that many worker processes, at most twice as many games in flight. Stopping the
    iteration early cancels the games not started yet."""
    if concurrency == 1:
        for job in jobs:
            yield job, job.play()
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=concurrency, mp_context=context) as pool:
        pending: list[tuple[MatchGame, Future[RefereeOutcome]]] = []
        queue = iter(jobs)
        try:
            while True:
                while len(pending) < 2 * concurrency:
                    queued = next(queue, None)
                    if queued is None:
                        break
                    pending.append((queued, pool.submit(_play, queued)))
                if not pending:
                    return
                job, future = pending.pop(0)
                yield job, future.result()
        finally:
            for _, future in pending:
                future.cancel()
