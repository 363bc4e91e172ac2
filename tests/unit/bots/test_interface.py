"""The bot interface: reproducible play, hidden cards kept hidden, clear errors."""

from __future__ import annotations

import pytest

from games.bots.base import BotError, Budget, HiddenInformationError
from games.bots.play import play_game, side_bots
from games.bots.registry import get_bot
from games.engines import get_engine
from tests.unit.bots.helpers import random_position


@pytest.mark.parametrize("game", ["kazambi", "kugamai", "stolbiki", "anti-kazambi-pairs"])
def test_same_seed_and_iterations_give_the_same_game(game: str) -> None:
    seats = get_engine(game).seat_count()
    games = []
    for _ in range(2):
        bots = side_bots(get_bot("mcts", seed=7), get_bot("greedy", seed=8), seats)
        games.append(play_game(game, bots, seed=4, budget=Budget(iterations=20))[1])
    assert games[0] == games[1]


def test_random_bot_is_reproducible() -> None:
    engine = get_engine("stolbiki")
    state = random_position("stolbiki", 2)
    observation = engine.observation(state, engine.to_move(state))
    first = [get_bot("random", seed=5).choose("stolbiki", observation) for _ in range(3)]
    assert len(set(first)) == 1


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts", "solver"])
def test_stolbiki_bot_refuses_the_full_state(kind: str) -> None:
    engine = get_engine("stolbiki")
    state = engine.new_game(seed=1)
    with pytest.raises(HiddenInformationError):
        get_bot(kind, seed=1).choose("stolbiki", engine.to_dict(state))


def test_stolbiki_observation_holds_no_other_hand() -> None:
    engine = get_engine("stolbiki")
    state = random_position("stolbiki", 3)
    seat = engine.to_move(state)
    observation = engine.observation(state, seat)
    assert "hands" not in observation
    seen = set(observation["hand"]) | set(observation["table"].values())
    seen |= set(observation["revealed"])
    hidden = {
        card
        for other, hand in enumerate(engine.to_dict(state)["hands"])
        if other != seat
        for card in hand
    } - set(observation["revealed"])
    assert hidden
    assert not hidden & seen
    assert not any(card in str(observation) for card in hidden)


@pytest.mark.parametrize("settings", [{}, {"version": 1}])
def test_stolbiki_move_does_not_depend_on_hidden_cards(settings: dict[str, int]) -> None:
    """Two deals that differ only in the opponents' hidden cards look the same to seat 0,
    and the same bot with the same seed plays the same move in both."""
    engine = get_engine("stolbiki")
    doc = engine.to_dict(engine.new_game(seed=5))
    doc["history"], doc["table"], doc["revealed"] = [], {}, []
    observer = doc["to_move"]
    first, second = (observer + 1) % 4, (observer + 3) % 4
    swapped = {**doc, "hands": [list(hand) for hand in doc["hands"]]}
    swapped["hands"][first][0], swapped["hands"][second][0] = (
        doc["hands"][second][0],
        doc["hands"][first][0],
    )
    views = [
        engine.observation(engine.from_dict(d), observer) for d in (doc, swapped)
    ]
    assert views[0] == views[1]
    assert engine.from_dict(doc).hands != engine.from_dict(swapped).hands
    moves = [
        get_bot("mcts", seed=9, **settings).choose("stolbiki", view, Budget(iterations=60))
        for view in views
    ]
    assert moves[0] == moves[1]


def test_errors_are_value_errors_with_clear_messages() -> None:
    with pytest.raises(BotError, match="unknown bot kind"):
        get_bot("alphazero")
    with pytest.raises(BotError, match="bad settings"):
        get_bot("random", depth=3)
    with pytest.raises(BotError, match="iterations"):
        Budget(iterations=0)
    with pytest.raises(BotError, match="seconds"):
        Budget(seconds=-1)
    engine = get_engine("kugamai")
    doc = engine.to_dict(engine.new_game(seed=1))
    with pytest.raises(BotError, match="unknown game"):
        get_bot("random").choose("chess", doc)
    with pytest.raises(BotError, match="not 'kazambi'"):
        get_bot("random").choose("kazambi", doc)
    with pytest.raises(BotError, match="cannot read"):
        get_bot("random").choose("kugamai", {**doc, "hands": [["9-9"], []]})
    assert issubclass(BotError, ValueError)


def test_time_budget_stops_the_search() -> None:
    engine = get_engine("kazambi")
    state = engine.new_game(seed=3)
    move = get_bot("mcts", seed=1).choose(
        "kazambi", engine.observation(state, engine.to_move(state)), Budget(seconds=0.2)
    )
    assert move in [str(m) for m in engine.legal_moves(state)]
