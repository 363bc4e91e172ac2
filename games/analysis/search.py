"""Win rates per move from the bots' MCTS (a seeded, bounded search)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.analysis.budget import Budget, Clock
from games.analysis.report import MoveValue, PositionReport
from games.bots.adapters import SearchGame
from games.bots.base import Budget as SearchBudget
from games.bots.mcts import search

RootOrder = Callable[[Any, list[Any]], list[Any]]


def search_values(
    adapter: SearchGame,
    state: Any,
    budget: Budget,
    *,
    root_order: RootOrder | None = None,
    root_moves: list[Any] | None = None,
    clock: Clock | None = None,
) -> PositionReport:
    """The root's children after ``budget.iterations`` MCTS iterations from ``state``
    (fewer if ``clock``, by default the budget's own, runs out first): each visited
    move's win rate for the side to move and its visits; the most visited move is the
    best (as the bot would play it)."""
    legal = adapter.moves(state) if root_moves is None else list(root_moves)
    rng = random.Random(budget.seed)
    side = adapter.to_move(state) % 2
    report = PositionReport(
        adapter.name, adapter.to_move(state), side, "mcts", [], seed=budget.seed
    )
    if len(legal) == 1:
        report.moves = [MoveValue(adapter.text(state, legal[0]), best=True)]
        report.notes.append("forced")
        return report
    seconds, cpu_seconds = (clock or budget.clock()).left()
    _, root = search(
        adapter,
        state,
        SearchBudget(iterations=budget.iterations, seconds=seconds, cpu_seconds=cpu_seconds),
        rng,
        root_order=root_order,
        root_moves=root_moves,
    )
    children = sorted(
        (child for child in root.children.values() if child.visits),
        key=lambda child: (-child.visits, -child.reward),
    )
    for index, child in enumerate(children):
        report.moves.append(
            MoveValue(
                adapter.text(state, child.move),
                win_rate=child.reward / child.visits,
                visits=child.visits,
                best=index == 0,
            )
        )
    report.iterations = sum(child.visits for child in children)
    if report.iterations < budget.iterations:
        report.notes.append("stopped by the time budget")
    report.unexplored = len(legal) - len(children)
    if report.moves:
        report.win_rate = report.moves[0].win_rate
    return report
