"""Every bot kind returns only legal moves, in every game."""

from __future__ import annotations

import pytest

from games.bots.base import Budget
from games.bots.play import play_game, side_bots
from games.bots.registry import BOT_KINDS, get_bot
from games.engines import ENGINE_NAMES, get_engine
from tests.unit.bots.helpers import random_position

SMALL = Budget(iterations=25)


@pytest.mark.parametrize("game", ENGINE_NAMES)
@pytest.mark.parametrize("kind", BOT_KINDS)
def test_bot_moves_are_legal_in_seeded_positions(game: str, kind: str) -> None:
    engine = get_engine(game)
    bot = get_bot(kind, seed=3)
    for seed in range(6):
        state = random_position(game, seed)
        seat = engine.to_move(state)
        move = bot.choose(game, engine.observation(state, seat), SMALL)
        assert move in [str(legal) for legal in engine.legal_moves(state)]


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_bots_finish_a_game_with_legal_moves(game: str) -> None:
    engine = get_engine(game)
    bots = side_bots(get_bot("mcts", seed=1), get_bot("greedy", seed=2), engine.seat_count())
    result, moves = play_game(game, bots, seed=11, budget=Budget(iterations=15))
    replayed, replayed_result = engine.replay(
        {"game": game, "deal": engine.initial_deal(engine.new_game(seed=11)), "moves": moves}
    )
    assert replayed_result is not None
    assert replayed_result["winner"] == result["winner"]
    assert engine.is_over(replayed)
