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
game) and Kazambi endgames once few live tiles remain (see :class:`MctsBot`).

With an iteration budget the search is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.bots.adapters import KazambiSearch, KugamaiSearch, SearchGame, search_game
from games.bots.base import Bot, BotError, Budget
from games.bots.greedy import kazambi_score
from games.bots.kazambi_policy import policy_search
from games.bots.solvers.kugamai import WIN, KugamaiSolver, SolverLimitError
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT

#: Moves beyond which a node widens progressively.
WIDE = 24
#: Kazambi: how many root moves (a seeded sample) are ordered by the greedy score.
ROOT_SCORED = 300
#: Kugamai: new positions the exact solver may visit per move before MCTS searches
#: alone (a whole game from the deal takes under 40,000).
KUGAMAI_SOLVER_NODES = 60_000


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
    first_moves = game.moves(root_state) if root_moves is None else list(root_moves)
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
    winner = game.rollout(state, rng) if expanded else game.winner(state)
    for visited in path:
        visited.visits += 1
        if winner is None:
            visited.reward += 0.5
        elif winner == visited.side:
            visited.reward += 1.0


class MctsBot(Bot):
    """UCT, helped by the exact solvers when ``endgame_solver`` is on (the default): a
    won Kazambi endgame is played out by the endgame solver; in Kugamai the whole game
    is solved (memoised for the rest of the game), a proved win is played out, and
    otherwise MCTS chooses among the moves that keep the proved value (a draw or a
    loss), looking for the opponent's mistakes. With ``policy`` (the default) Kazambi
    playouts and tree nodes follow the burn measure of :mod:`games.bots.kazambi_policy`;
    without it they are uniformly random."""

    kind = "mcts"

    def __init__(
        self, seed: int | None = None, *, endgame_solver: bool = True, policy: bool = True
    ) -> None:
        super().__init__(seed)
        self.endgame_solver = endgame_solver
        self.policy = policy
        self.solvers: dict[bool, Any] = {}
        self.kugamai = KugamaiSolver()

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        adapter = search_game(game)
        if self.policy and isinstance(adapter, KazambiSearch):
            adapter = policy_search(game)
        state = adapter.load(observation, self.rng)
        root_moves = None
        if self.endgame_solver and isinstance(adapter, KugamaiSearch):
            proved = self.kugamai_proved(state)
            if isinstance(proved, str):
                return proved
            root_moves = proved
        elif self.endgame_solver:
            from games.bots.solvers import TABLE_LIMIT, KazambiSolver, solved_move

            kazambi = None
            if isinstance(adapter, KazambiSearch):
                kazambi = self.solvers.setdefault(adapter.misere, KazambiSolver(adapter.misere))
                if len(kazambi.table) > TABLE_LIMIT:
                    kazambi.table.clear()
            solved = solved_move(game, state, whole_kugamai=False, kazambi=kazambi)
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
            scored = sorted(head, key=lambda index: -kazambi_score(adapter, state, moves[index]))
            return [moves[index] for index in scored + tail]

        return order
