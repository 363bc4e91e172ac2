"""MCTS with its helpers: the Kugamai solver inside the search, the Kazambi burn policy."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots.base import Bot, BotError, Budget
from games.bots.kazambi_policy import (
    NODE_SCORED,
    NODE_WIDTH,
    PLAYOUT_DEPTH,
    SHORT_NODE_WIDTH,
    node_moves,
    policy_playout,
    policy_rollout,
    policy_search,
)
from games.bots.mcts import MctsBot
from games.bots.play import side_bots
from games.bots.registry import get_bot
from games.bots.solvers.kugamai import KugamaiSolver
from games.bots.solvers.kugamai import solve as solve_kugamai
from games.engines import get_engine
from games.engines.kazambi.rules import hand_tiles, tile_move_count
from games.engines.kugamai.tiles import MOVE_TEXT
from tests.unit.bots.helpers import random_position

SMALL = Budget(iterations=30)


def _play_out(game: str, state: Any, bots: list[Bot]) -> Any:
    engine = get_engine(game)
    while not engine.is_over(state):
        seat = engine.to_move(state)
        state = engine.play(state, bots[seat].choose(game, engine.observation(state, seat), SMALL))
    return engine.result(state)["winner"]


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_mcts_wins_every_kugamai_deal_proved_won(opponent: str) -> None:
    engine = get_engine("kugamai")
    proved = 0
    for seed in range(10):
        state = engine.new_game(seed=seed)
        if solve_kugamai(state) != 1:
            continue
        proved += 1
        winner_seat = engine.to_move(state)
        bots = side_bots(get_bot("mcts", seed=seed), get_bot(opponent, seed=seed), 2)
        if winner_seat == 1:
            bots.reverse()
        assert _play_out("kugamai", state, bots) == winner_seat
    assert proved >= 3


def test_mcts_keeps_the_proved_kugamai_value() -> None:
    """In drawn or lost positions MCTS still picks a move that keeps the proved value."""
    engine = get_engine("kugamai")
    checked = 0
    for seed in range(40):
        state = random_position("kugamai", seed)
        values = KugamaiSolver().move_values(state)
        if len(values) < 2 or max(values.values()) == 1:
            continue
        best = max(values.values())
        kept = {MOVE_TEXT[code] for code, value in values.items() if value == best}
        if len(kept) == len(values):
            continue
        checked += 1
        move = MctsBot(seed=seed).choose(
            "kugamai", engine.observation(state, engine.to_move(state)), SMALL
        )
        assert move in kept
    assert checked >= 2


def test_kugamai_move_values_agree_with_the_solver() -> None:
    for seed in range(10):
        state = random_position("kugamai", seed)
        solver = KugamaiSolver()
        value, move = solver.best(state)
        values = solver.move_values(state)
        if move is None:
            assert values == {}
            continue
        assert max(values.values()) == value
        assert values[move] == value


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi", "kazambi-pairs"])
def test_policy_rollout_ends_with_a_side_and_leaves_the_state(game: str) -> None:
    adapter = policy_search(game)
    engine = get_engine(game)
    for seed in range(4):
        state = random_position(game, seed)
        before = engine.to_dict(state)
        winners = {policy_rollout(adapter, state, random.Random(k)) for k in range(10)}
        assert winners <= {0, 1}
        assert engine.to_dict(state) == before


@pytest.mark.parametrize(
    ("game", "depth", "width"),
    [("kazambi", None, NODE_WIDTH), ("anti-kazambi-pairs", None, NODE_WIDTH),
     ("kazambi", PLAYOUT_DEPTH, SHORT_NODE_WIDTH)],
)
def test_node_moves_are_distinct_legal_moves_burning_ones_first(
    game: str, depth: int | None, width: int
) -> None:
    adapter = policy_search(game, depth)
    engine = get_engine(game)
    for seed in range(6):
        state = random_position(game, seed)
        legal = set(adapter.moves(state))
        sample = adapter.node_moves(state, random.Random(seed))
        assert len(set(sample)) == len(sample) == min(len(legal), width)
        assert set(sample) <= legal
        assert {str(move) for move in sample} <= {str(m) for m in engine.legal_moves(state)}
    state = random_position("kazambi", 1)
    adapter = policy_search("kazambi")
    sample = node_moves(adapter, state, random.Random(2))[:NODE_SCORED]
    nxt = (state.to_move + 1) % state.seats
    left = []
    for move in sample:
        adapter.push(state, move)
        left.append(sum(1 for t in hand_tiles(state.hands[nxt]) if tile_move_count(state, t)))
        adapter.pop(state)
    assert left == sorted(left)


@pytest.mark.parametrize("policy", [True, False])
def test_kazambi_mcts_with_and_without_the_policy_plays_legal_moves(policy: bool) -> None:
    engine = get_engine("anti-kazambi")
    for seed in range(3):
        state = random_position("anti-kazambi", seed)
        observation = engine.observation(state, engine.to_move(state))
        move = MctsBot(seed=seed, policy=policy).choose("anti-kazambi", observation, SMALL)
        assert move in {str(legal) for legal in engine.legal_moves(state)}


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi", "kazambi-pairs"])
def test_short_policy_playouts_give_a_reward_and_leave_the_state(game: str) -> None:
    adapter = policy_search(game, playout_depth=PLAYOUT_DEPTH)
    engine = get_engine(game)
    for seed in range(4):
        state = random_position(game, seed)
        before = engine.to_dict(state)
        values = [adapter.rollout_value(state, random.Random(k)) for k in range(10)]
        assert all(0.0 <= value <= 1.0 for value in values)
        assert engine.to_dict(state) == before
        whole = {policy_playout(adapter, state, random.Random(k)) for k in range(10)}
        assert whole <= {0.0, 1.0}


@pytest.mark.parametrize("version", [0, 3, "2", True])
def test_mcts_refuses_a_version_it_does_not_have(version: Any) -> None:
    with pytest.raises(BotError, match="mcts version must be one of"):
        get_bot("mcts", seed=1, version=version)
