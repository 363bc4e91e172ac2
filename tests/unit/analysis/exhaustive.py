"""An independent referee for the analysis tests: plain minimax over the engines' public
interface (``legal_moves``, ``play``, ``is_over``, ``result``), memoised on the state
document. Values are for the side to move: 1 a win, 0 a draw, -1 a loss."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines import get_engine


class Exhaustive:
    def __init__(self, game: str) -> None:
        self.engine = get_engine(game)
        self.memo: dict[str, int] = {}

    def _key(self, state: Any) -> str:
        doc = self.engine.to_dict(state)
        doc.pop("history", None)
        return json.dumps(doc, sort_keys=True)

    def value(self, state: Any) -> int:
        """The side to move's value under perfect play."""
        engine = self.engine
        if engine.is_over(state):
            # A finished position is valued for the seat that would move next.
            winner = engine.result(state)["winner"]
            if winner is None:
                return 0
            return 1 if winner == engine.to_move(state) % 2 else -1
        key = self._key(state)
        known = self.memo.get(key)
        if known is None:
            known = max(self.move_values(state).values())
            self.memo[key] = known
        return known

    def move_values(self, state: Any) -> dict[str, int]:
        """Each legal move's value for the side to move (after it, perfect play)."""
        engine = self.engine
        side = engine.to_move(state) % 2
        values = {}
        for move in engine.legal_moves(state):
            after = engine.play(state, move)
            if engine.is_over(after):
                winner = engine.result(after)["winner"]
                values[str(move)] = 0 if winner is None else (1 if winner == side else -1)
            else:
                child = self.value(after)
                values[str(move)] = child if engine.to_move(after) % 2 == side else -child
        return values


def random_position(game: str, seed: int, small: Any, **options: Any) -> tuple[Any, list[str]]:
    """Play random moves from a seeded deal until ``small(state)`` holds in a game not
    over (a game that ends before starts again from another deal); return the position
    and the moves that led there."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, **options)
    moves: list[str] = []
    while not small(state):
        state = engine.play(state, _random_move(engine, state, rng, moves))
        if engine.is_over(state):
            return random_position(game, seed + 1000, small, **options)
    return state, moves


def random_game(game: str, seed: int, **options: Any) -> Any:
    """A whole game of random moves from a seeded deal; its final state."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, **options)
    while not engine.is_over(state):
        state = engine.play(state, _random_move(engine, state, rng, []))
    return state


def _random_move(engine: Any, state: Any, rng: random.Random, moves: list[str]) -> str:
    legal = engine.legal_moves(state)
    move = str(legal[rng.randrange(len(legal))])
    moves.append(move)
    return move


def _small(state: Any) -> bool:
    return sum(len(hand) for hand in get_engine("kugamai").to_dict(state)["hands"]) <= 12


def blunder_game(seed: int) -> tuple[dict[str, Any], int, int, int, set[str], Exhaustive]:
    """A Kugamai game with one known blunder: random moves until the referee finds a
    position with moves of different values, the worst of them played there, perfect
    play after. Returns the record, the blunder's move number, the values before and
    after it, the better moves and the referee."""
    engine = get_engine("kugamai")
    referee = Exhaustive("kugamai")
    rng = random.Random(seed)
    state, moves = random_position("kugamai", seed, _small)
    while True:
        values = referee.move_values(state)
        if len(set(values.values())) > 1:
            break
        move = rng.choice(sorted(values))
        state = engine.play(state, move)
        moves.append(move)
        if engine.is_over(state):
            return blunder_game(seed + 100)
    best, worst = max(values.values()), min(values.values())
    better = {move for move, value in values.items() if value == best}
    blunder = min(move for move, value in values.items() if value == worst)
    number = len(moves) + 1
    state = engine.play(state, blunder)
    while not engine.is_over(state):
        values = referee.move_values(state)
        move = min(move for move, value in values.items() if value == max(values.values()))
        state = engine.play(state, move)
    return engine.record(state), number, best, worst, better, referee
