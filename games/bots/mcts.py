"""Monte Carlo tree search (UCT), with determinization for hidden cards.

One tree serves every game. In a perfect-information game each iteration copies the root
state, descends the tree by UCB1, adds one node and finishes the game with a rollout on
the engine's fast path. For Stolbiki every iteration first deals the unseen
cards afresh (:meth:`SearchGame.determinize`) and descends only through moves legal in
that deal, counting for each child how often it was available (single-observer
information-set MCTS); UCB1 uses that count in place of the parent's visits.

Where a position has many moves (Kazambi has hundreds), a node widens progressively:
it considers its first ``widening * sqrt(visits)`` moves, in the order the adapter gives
(:meth:`SearchGame.node_moves`: shuffled; for Kazambi a sample ordered by the burn
measure of :mod:`games.bots.kazambi_policy`, whose playouts also follow that measure);
the Kazambi root is ordered by the greedy score.

The bot adds the exact solvers: Kugamai is solved from the deal on (memoised for the
game) and Kazambi endgames once few live tiles remain (see :class:`MctsBot`). Rewards
are side 0's, 0..1 (:meth:`SearchGame.rollout_value`): the result, or in Stolbiki
version 2 the result blended with the column margin (:mod:`games.bots.stolbiki_policy`).

With an iteration budget the search is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.bots.adapters import (
    KazambiSearch,
    KugamaiSearch,
    SearchGame,
    StolbikiSearch,
    search_game,
)
from games.bots.base import Bot, BotError, Budget
from games.bots.greedy import kazambi_scores
from games.bots.kazambi_policy import PLAYOUT_DEPTH, policy_search
from games.bots.solvers.kugamai import WIN, KugamaiSolver, SolverLimitError
from games.bots.stolbiki_policy import policy_search as stolbiki_policy_search
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT
from games.i18n import N_

#: Moves beyond which a node widens progressively.
WIDE = 24
#: Kazambi: how many root moves (a seeded sample) are ordered by the greedy score.
ROOT_SCORED = 300
#: Kugamai: new positions the exact solver may visit per move before MCTS searches
#: alone (a whole game from the deal takes under 40,000).
KUGAMAI_SOLVER_NODES = 60_000
#: The bot's versions: 1 the first MCTS, 2 the current one (see :class:`MctsBot`).
VERSIONS = (1, 2)
#: Version 2, Kazambi: the endgame solver is tried from this many live tiles down (the
#: larger number on a move of at least :data:`KAZAMBI_LONG_MOVE` seconds: on shorter
#: moves it rarely settles 13 to 16 live tiles and only takes the search's time)...
KAZAMBI_ENDGAME_TILES = 12
KAZAMBI_LONG_ENDGAME_TILES = 16
KAZAMBI_LONG_MOVE = 1.0
#: ... for this share of the move's time budget, or with an iteration budget for this
#: many new positions per iteration; what it proves stays in its table for later moves.
#: Once few enough live tiles remain that a proof is likely, it takes nearly the whole
#: move, and if it runs out first the bot plays the move it was trying to prove (the
#: first in its order not proved lost): that measured stronger than MCTS on what is
#: left of the move.
KAZAMBI_SOLVER_SHARE = 0.6
KAZAMBI_LIKELY_TILES = 13
KAZAMBI_LIKELY_SHARE = 0.97
KAZAMBI_NODES_PER_ITERATION = 20
#: Version 2: the Kazambi variants whose playouts stop after
#: :data:`~games.bots.kazambi_policy.PLAYOUT_DEPTH` moves (where that was measured
#: stronger; the others play to the end).
SHORT_PLAYOUTS = ("kazambi",)
#: Version 2: the budget of a move when the caller gives none (an iteration count keeps
#: play reproducible; the wall-clock cap is for slow machines).
DEFAULT_BUDGETS: dict[str, Budget] = {
    "kazambi": Budget(iterations=1000, seconds=0.5),
    "kazambi-pairs": Budget(iterations=300, seconds=0.5),
    "anti-kazambi": Budget(iterations=300, seconds=0.5),
    "anti-kazambi-pairs": Budget(iterations=300, seconds=0.5),
    "stolbiki": Budget(iterations=1000, seconds=0.5),
}


class Node:
    """A tree node: the move that led here, made by ``side``; rewards are ``side``'s."""

    __slots__ = ("move", "side", "children", "visits", "reward", "available", "order")

    def __init__(self, move: Any, side: int) -> None:
        self.move = move
        self.side = side
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        #: The node's moves in the order they are tried (perfect information only).
        self.order: list[Any] | None = None


def search(
    game: SearchGame,
    root_state: Any,
    budget: Budget,
    rng: random.Random,
    root_order: Callable[[Any, list[Any]], list[Any]] | None = None,
    widening: float = 2.0,
    root_moves: list[Any] | None = None,
) -> tuple[Any, Node]:
    """Run MCTS from ``root_state`` (left unchanged); return the most visited root move
    and the root node. ``root_moves`` (perfect information only) restricts the root to
    these legal moves, e.g. the ones a solver proved best."""
    root = Node(None, -1)
    clock = budget.clock()
    perfect = game.perfect_information
    if root_moves is not None and not perfect:
        raise BotError("root moves can only be restricted in a perfect-information game")
    first_moves = list(game.moves(root_state) if root_moves is None else root_moves)
    if len(first_moves) == 1:
        return first_moves[0], root
    if perfect:
        root.order = root_order(root_state, first_moves) if root_order else _shuffled(
            first_moves, rng
        )
    while True:
        _iterate(game, root, root_state, rng, perfect, widening)
        if not clock.tick():
            break
    best = max(root.children.values(), key=lambda child: (child.visits, child.reward))
    return best.move, root


def _shuffled(moves: list[Any], rng: random.Random) -> list[Any]:
    order = list(moves)
    rng.shuffle(order)
    return order


def _iterate(
    game: SearchGame,
    root: Node,
    root_state: Any,
    rng: random.Random,
    perfect: bool,
    widening: float,
) -> None:
    state = game.determinize(root_state, rng)
    node = root
    path = [root]
    log = math.log
    sqrt = math.sqrt
    exploration = game.exploration
    expanded = False
    candidates: Sequence[Any]
    while True:
        if perfect:
            order = node.order
            if order is None:
                order = node.order = game.node_moves(state, rng)
            if len(order) > WIDE:
                limit = max(WIDE // 2, int(widening * sqrt(node.visits + 1)))
                candidates = order[:limit]
            else:
                candidates = order
        else:
            candidates = game.moves(state)
        if not candidates:
            break
        children = node.children
        side = game.to_move(state) % 2
        untried = [move for move in candidates if move not in children]
        if untried:
            move = untried[0] if perfect else untried[int(rng.random() * len(untried))]
            game.push(state, move)
            child = children[move] = Node(move, side)
            path.append(child)
            expanded = True
            break
        best: Node | None = None
        best_value = -1.0
        for move in candidates:
            child = children[move]
            child.available += 1
            value = child.reward / child.visits + exploration * sqrt(
                log(child.available) / child.visits
            )
            if value > best_value:
                best, best_value = child, value
        assert best is not None
        game.push(state, best.move)
        node = best
        path.append(best)
    value = game.rollout_value(state, rng) if expanded else game.final_value(state)
    for visited in path:
        visited.visits += 1
        visited.reward += value if visited.side == 0 else 1.0 - value


class MctsBot(Bot):
    """UCT, helped by the exact solvers when ``endgame_solver`` is on (the default): a
    won Kazambi endgame is played out by the endgame solver; in Kugamai the whole game
    is solved (memoised for the rest of the game), a proved win is played out, and
    otherwise MCTS chooses among the moves that keep the proved value (a draw or a
    loss), looking for the opponent's mistakes. With ``policy`` (the default) Kazambi
    playouts and tree nodes follow the burn measure of :mod:`games.bots.kazambi_policy`;
    without it they are uniformly random.

    ``version`` (see docs/bots.md): 2, the default, adds the Stolbiki playout policy and
    margin reward of :mod:`games.bots.stolbiki_policy`, short Kazambi playouts judged by
    :mod:`games.bots.kazambi_value`, lets the Kazambi solver take over from
    :data:`KAZAMBI_ENDGAME_TILES` live tiles (16 on long moves) on a share of the move's
    budget (what it proves stays in its table: proved losing moves leave the root) and
    gives each game a default budget (:data:`DEFAULT_BUDGETS`); 1 is the bot as it was
    before, kept to measure the new one against."""

    kind = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        endgame_solver: bool = True,
        policy: bool = True,
        version: int = 2,
    ) -> None:
        super().__init__(seed)
        if isinstance(version, bool) or version not in VERSIONS:
            raise BotError(N_("mcts version must be one of %(versions)s, not %(version)r"),
                           versions=VERSIONS, version=version)
        self.endgame_solver = endgame_solver
        self.policy = policy
        self.version = version
        self.solvers: dict[bool, Any] = {}
        self.kugamai = KugamaiSolver()

    def adapter(self, game: str) -> SearchGame:
        """The search adapter of ``game`` for this bot's version and settings."""
        adapter = search_game(game)
        if self.policy and isinstance(adapter, KazambiSearch):
            depth = PLAYOUT_DEPTH if self.version >= 2 and game in SHORT_PLAYOUTS else None
            return policy_search(game, depth)
        if self.policy and self.version >= 2 and isinstance(adapter, StolbikiSearch):
            return stolbiki_policy_search(game)
        return adapter

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        adapter = self.adapter(game)
        if self.version >= 2 and budget.unset:
            budget = DEFAULT_BUDGETS.get(game, budget)
        state = adapter.load(observation, self.rng)
        root_moves = None
        if self.endgame_solver and isinstance(adapter, KugamaiSearch):
            proved = self.kugamai_proved(state)
            if isinstance(proved, str):
                return proved
            root_moves = proved
        elif self.endgame_solver and isinstance(adapter, KazambiSearch):
            solved, root_moves, budget = self.kazambi_endgame(game, adapter, state, budget)
            if solved is not None:
                return solved
        move, _ = search(
            adapter,
            state,
            budget,
            self.rng,
            root_order=self.root_order(adapter),
            root_moves=root_moves,
        )
        return adapter.text(state, move)

    def kazambi_endgame(
        self, game: str, adapter: KazambiSearch, state: Any, budget: Budget
    ) -> tuple[str | None, list[Any] | None, Budget]:
        """Try the endgame solver: (a proved winning move or ``None``, the root moves not
        proved lost or ``None`` for all, the budget left for MCTS)."""
        from games.bots.solvers import TABLE_LIMIT, KazambiSolver, solved_move
        from games.bots.solvers.kazambi import live_tile_count

        solver = self.solvers.setdefault(adapter.misere, KazambiSolver(adapter.misere))
        if len(solver.table) > TABLE_LIMIT:
            solver.table.clear()
        seconds = budget.seconds_left()
        started, cpu_started = time.perf_counter(), time.thread_time()
        if self.version < 2:
            # Version 1's solver (12 live tiles, 8,000 new positions) on the same share of
            # the move's time as version 2's, the rest left to MCTS: both think as long.
            solved = solved_move(
                game, state, whole_kugamai=False, kazambi=solver,
                kazambi_seconds=None if seconds is None else seconds * KAZAMBI_SOLVER_SHARE,
            )
            return solved, None, _less_time(
                budget, time.perf_counter() - started, time.thread_time() - cpu_started
            )
        live = live_tile_count(state)
        long_move = seconds is not None and seconds >= KAZAMBI_LONG_MOVE
        tiles = KAZAMBI_LONG_ENDGAME_TILES if long_move else KAZAMBI_ENDGAME_TILES
        if live > tiles:
            return None, None, budget
        if seconds is not None:
            share = KAZAMBI_LIKELY_SHARE if live <= KAZAMBI_LIKELY_TILES else KAZAMBI_SOLVER_SHARE
            seconds *= share
        nodes = None if budget.iterations is None else KAZAMBI_NODES_PER_ITERATION * (
            budget.iterations
        )
        solved = solved_move(
            game,
            state,
            whole_kugamai=False,
            kazambi=solver,
            endgame_tiles=tiles,
            kazambi_nodes=nodes,
            kazambi_seconds=seconds,
        )
        if solved is not None:
            return solved, None, budget
        known = solver.known_results(state)
        if any(known.values()):
            return str(next(move for move, wins in known.items() if wins)), None, budget
        moves = adapter.moves(state)
        proved_lost = len(known) == len(moves)
        if live <= KAZAMBI_LIKELY_TILES and not proved_lost:
            # Out of time: the move it was proving when time ran out (its best guess).
            return str(next(
                move for move in solver.ordered_moves(state) if move not in known
            )), None, budget
        root_moves = None
        if known:
            kept = [move for move in moves if move not in known]
            root_moves = kept or None
        return None, root_moves, _less_time(
            budget, time.perf_counter() - started, time.thread_time() - cpu_started
        )

    def kugamai_proved(self, state: KugamaiState) -> str | list[int] | None:
        """The move to play when the solver proves a win or leaves one best move; else
        the moves that keep the proved value; ``None`` if the solver ran out of nodes."""
        from games.bots.solvers import TABLE_LIMIT

        solver = self.kugamai
        if len(solver.table) > TABLE_LIMIT:
            solver.table.clear()
        solver.nodes = 0
        solver.node_limit = KUGAMAI_SOLVER_NODES
        try:
            value, move = solver.best(state)
            if move is None:
                return None
            if value == WIN:
                return MOVE_TEXT[move]
            # No win: best() searched every move to the end, so this reads the table.
            values = solver.move_values(state)
        except SolverLimitError:
            return None
        kept = [code for code, known in values.items() if known == value]
        return MOVE_TEXT[kept[0]] if len(kept) == 1 else kept

    def root_order(self, adapter: SearchGame) -> Callable[[Any, list[Any]], list[Any]] | None:
        """Kazambi roots have hundreds of moves: try them best first by the greedy score."""
        if not isinstance(adapter, KazambiSearch):
            return None

        rng = self.rng

        def order(state: Any, moves: list[Any]) -> list[Any]:
            indices = list(range(len(moves)))
            rng.shuffle(indices)
            head, tail = indices[:ROOT_SCORED], indices[ROOT_SCORED:]
            score = kazambi_scores(adapter, state)
            scored = sorted(head, key=lambda index: -score(moves[index]))
            return [moves[index] for index in scored + tail]

        return order


def _less_time(budget: Budget, wall: float, cpu: float) -> Budget:
    """``budget`` with ``wall`` and ``cpu`` seconds already spent taken off its time
    limits (a little is always left: the search runs at least one iteration)."""
    floor = 0.001
    return Budget(
        iterations=budget.iterations,
        seconds=None if budget.seconds is None else max(floor, budget.seconds - wall),
        cpu_seconds=(
            None if budget.cpu_seconds is None else max(floor, budget.cpu_seconds - cpu)
        ),
    )
