"""Stolbiki: expected column points per move, from random playouts over sampled deals of
the cards the seat to move cannot see (or over the true hands of a finished game)."""

from __future__ import annotations

import random

from games.analysis.budget import Budget, Clock
from games.analysis.report import Information, MoveValue, PositionReport
from games.bots.adapters import search_game
from games.engines import get_engine
from games.engines.stolbiki.state import StolbikiState

#: At most this many sampled deals per move, whatever the budget.
MAX_SAMPLES = 2000


def stolbiki_sampling(
    state: StolbikiState, budget: Budget, information: Information, clock: Clock | None = None
) -> PositionReport:
    """``budget.iterations`` playouts shared evenly among the legal moves, ranked by
    the expected column points won over the other side's. With
    ``"observed"`` each sample deals afresh the hands the seat to move cannot see
    (consistent with its observation: its own hand, the table, hand sizes and the cards
    shown by seats that passed); with ``"all hands"`` every sample keeps the true hands."""
    engine = get_engine("stolbiki")
    adapter = search_game("stolbiki")
    rng = random.Random(budget.seed)
    seat = engine.to_move(state)
    side = seat % 2
    if information == "observed":
        root = adapter.load(engine.observation(state, seat), rng)
    else:
        root = state.copy()
    legal = adapter.moves(root)
    report = PositionReport(
        "stolbiki", seat, side, "sampling", [], information=information, seed=budget.seed
    )
    samples = max(1, min(MAX_SAMPLES, budget.iterations // max(1, len(legal))))
    clock = clock or budget.clock()
    totals = [[0.0, 0.0, 0.0] for _ in legal]
    done = 0
    for _ in range(samples):
        deal = adapter.determinize(root, rng) if information == "observed" else root
        for index, move in enumerate(legal):
            playout = deal.copy()
            adapter.push(playout, move)
            adapter.rollout(playout, rng)
            result = engine.result(playout)
            points = result["points"]
            totals[index][0] += points[side]
            totals[index][1] += points[1 - side]
            winner = result["winner"]
            totals[index][2] += 1.0 if winner == side else 0.5 if winner is None else 0.0
        done += 1
        if clock.expired():
            break
    for index, move in enumerate(legal):
        mine, theirs, wins = totals[index]
        report.moves.append(
            MoveValue(
                adapter.text(root, move),
                points=mine / done,
                opponent_points=theirs / done,
                win_rate=wins / done,
                visits=done,
            )
        )
    report.moves.sort(key=lambda found: (-_margin(found), -(found.win_rate or 0.0)))
    if report.moves:
        best = report.moves[0]
        for found in report.moves:
            found.best = _margin(found) == _margin(best)
        report.points = best.points
        report.win_rate = best.win_rate
    report.samples = done
    if done < samples:
        report.notes.append("stopped by the time budget")
    report.iterations = done * len(legal)
    return report


def _margin(found: MoveValue) -> float:
    return (found.points or 0.0) - (found.opponent_points or 0.0)
