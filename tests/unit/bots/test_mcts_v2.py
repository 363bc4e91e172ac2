"""MCTS version 2: the Stolbiki column policy, the Kazambi solver taking over earlier,
per-game default budgets, CPU-time budgets, and version 1 kept alongside."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games.bots.mcts as mcts
from games.bots.adapters import StolbikiSearch
from games.bots.base import BotError, Budget
from games.bots.mcts import DEFAULT_BUDGETS, MctsBot
from games.bots.registry import get_bot
from games.bots.solvers.kazambi import KazambiSolver, live_tile_count
from games.bots.stolbiki_policy import (
    StolbikiPolicySearch,
    column_sums,
    column_value,
    policy_playout,
)
from games.engines import get_engine
from games.engines.stolbiki.engine import StolbikiEngine
from tests.unit.bots.helpers import play_random_until, random_position


def test_policy_playout_plays_legal_moves_to_the_end() -> None:
    engine = get_engine("stolbiki")
    stolbiki = StolbikiEngine()
    for seed in range(4):
        start = random_position("stolbiki", seed)
        played = start.copy()
        value = policy_playout(played, random.Random(seed))
        state = start
        for code in played.history[len(start.history):]:
            state = engine.play(state, stolbiki.move_text(state, code))
        assert engine.is_over(state)
        result = engine.result(state)
        expected = 0.5 if result["winner"] is None else float(result["winner"] == 0)
        assert (value > 0.5, value < 0.5) == (expected > 0.5, expected < 0.5)


def test_column_value_counts_the_margin() -> None:
    state = get_engine("stolbiki").new_game(seed=1)
    red, black = column_sums(state)
    assert column_value(state, red, black) == 0.5
    width = len(red)
    values = []
    for red_columns in (0, 3, 4, 5, 8):
        red = [10 if x < red_columns else 0 for x in range(width)]
        black = [0 if x < red_columns else 10 for x in range(width)]
        black[8:] = [0] * (width - 8)
        values.append(column_value(state, red, black))
    side_zero_is_red = state.red_side == 0
    assert values == sorted(values, reverse=not side_zero_is_red)
    assert all(0.0 <= value <= 1.0 for value in values)


def test_version_two_uses_the_stolbiki_policy_and_version_one_does_not() -> None:
    assert isinstance(MctsBot(version=2).adapter("stolbiki"), StolbikiPolicySearch)
    old = MctsBot(version=1).adapter("stolbiki")
    assert isinstance(old, StolbikiSearch) and not isinstance(old, StolbikiPolicySearch)
    with pytest.raises(BotError, match="version"):
        get_bot("mcts", version=3)


@pytest.mark.parametrize("version", [1, 2])
def test_both_versions_are_reproducible_with_an_iteration_budget(version: int) -> None:
    for game in ("stolbiki", "kazambi"):
        engine = get_engine(game)
        state = random_position(game, 4)
        view = engine.observation(state, engine.to_move(state))
        moves = {
            get_bot("mcts", seed=7, version=version).choose(game, view, Budget(iterations=40))
            for _ in range(2)
        }
        assert len(moves) == 1
        assert moves <= {str(move) for move in engine.legal_moves(state)}


def test_stolbiki_midgame_move_does_not_depend_on_hidden_cards() -> None:
    """Positions that differ only in two opponents' hidden cards give the same view and the
    same move."""
    engine = get_engine("stolbiki")
    checked = 0
    for seed in range(12):
        state = random_position("stolbiki", seed)
        observer = engine.to_move(state)
        first, second = (observer + 1) % 4, (observer + 3) % 4
        if state.revealed >> first & 1 or state.revealed >> second & 1:
            continue
        if not state.hands[first] or not state.hands[second]:
            continue
        doc = engine.to_dict(state)
        swapped = {**doc, "hands": [list(hand) for hand in doc["hands"]]}
        swapped["hands"][first][0], swapped["hands"][second][0] = (
            doc["hands"][second][0], doc["hands"][first][0],
        )
        views = [engine.observation(engine.from_dict(d), observer) for d in (doc, swapped)]
        assert views[0] == views[1]
        moves = {
            get_bot("mcts", seed=3).choose("stolbiki", view, Budget(iterations=40))
            for view in views
        }
        assert len(moves) == 1
        checked += 1
    assert checked >= 3


def _endgame(game: str, seed: int, tiles: int) -> Any:
    return play_random_until(game, seed, lambda state: live_tile_count(state) <= tiles)


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi"])
def test_kazambi_solver_takes_over_from_version_two(game: str) -> None:
    """Version 2 plays a proved win in a position version 1 leaves to MCTS (more live tiles
    than its 12), even with a one-iteration budget."""
    engine = get_engine(game)
    misere = game.startswith("anti")
    played = 0
    for seed in range(30):
        state = _endgame(game, seed, 13)
        if state is None or live_tile_count(state) <= 12:
            continue
        won, _ = KazambiSolver(misere).best(state)
        if not won:
            continue
        view = engine.observation(state, engine.to_move(state))
        move = MctsBot(seed=1).choose(game, view, Budget(iterations=5_000, cpu_seconds=30))
        after = engine.play(state, move)
        assert not KazambiSolver(misere).wins(after)
        played += 1
        if played == 2:
            break
    assert played == 2


def test_kazambi_solver_waits_for_twelve_live_tiles_on_short_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a second a move leaves 13 to 16 live tiles to MCTS; a longer move tries the
    solver from 16."""
    import games.bots.solvers as solvers

    tried: list[int] = []
    real_solved_move = solvers.solved_move

    def spy(*args: Any, **kwargs: Any) -> Any:
        tried.append(kwargs["endgame_tiles"])
        return real_solved_move(*args, **kwargs)

    monkeypatch.setattr(solvers, "solved_move", spy)
    engine = get_engine("kazambi")
    for seed in range(30):
        state = _endgame("kazambi", seed, 16)
        if state is not None and live_tile_count(state) > 12:
            break
    else:
        pytest.skip("no position with 13 to 16 live tiles found")
    view = engine.observation(state, engine.to_move(state))
    MctsBot(seed=1).choose("kazambi", view, Budget(iterations=30, seconds=0.5))
    assert tried == []
    MctsBot(seed=1).choose("kazambi", view, Budget(iterations=30, seconds=1.0))
    assert tried == [mcts.KAZAMBI_LONG_ENDGAME_TILES]


def test_kazambi_solver_known_losses_leave_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the solver runs out of time, moves it proved lost are not searched."""
    engine = get_engine("kazambi")
    for seed in range(30):
        state = _endgame("kazambi", seed, 8)
        if state is not None and not KazambiSolver(False).best(state)[0]:
            break
    else:
        pytest.skip("no lost endgame found")
    bot = MctsBot(seed=2)
    solver = bot.solvers.setdefault(False, KazambiSolver(False))
    solver.best(state)
    known = solver.known_results(state)
    assert known and not any(known.values())
    seen: dict[str, Any] = {}
    real_search = mcts.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        return real_search(*args, **kwargs)

    monkeypatch.setattr(mcts, "search", spy)
    move = bot.choose("kazambi", engine.observation(state, engine.to_move(state)),
                      Budget(iterations=20))
    legal = {str(m) for m in engine.legal_moves(state)}
    assert move in legal
    if len(known) < len(legal):
        assert seen["root_moves"] is not None
        assert not {str(m) for m in seen["root_moves"]} & {str(m) for m in known}


def test_kazambi_solver_out_of_time_plays_its_first_unrefuted_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Near the end a solver that runs out of time has the last word: the bot plays the
    first move in the solver's order that it has not proved lost, and MCTS is not run."""
    engine = get_engine("kazambi")

    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("MCTS ran")

    monkeypatch.setattr(mcts, "search", no_search)
    checked = 0
    for seed in range(40):
        state = _endgame("kazambi", seed, 12)
        if state is None or live_tile_count(state) < 10:
            continue
        bot = MctsBot(seed=1)
        view = engine.observation(state, engine.to_move(state))
        move = bot.choose("kazambi", view, Budget(iterations=1))
        solver = bot.solvers[False]
        known = solver.known_results(state)
        if any(known.values()) or len(known) == len(engine.legal_moves(state)):
            continue  # settled within the budget after all
        assert move == str(next(m for m in solver.ordered_moves(state) if m not in known))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_version_two_gives_kazambi_a_default_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Budget] = []
    real_search = mcts.search

    def spy(game: Any, state: Any, budget: Budget, *args: Any, **kwargs: Any) -> Any:
        seen.append(budget)
        return real_search(game, state, Budget(iterations=5), *args, **kwargs)

    monkeypatch.setattr(mcts, "search", spy)
    engine = get_engine("kazambi")
    view = engine.observation(engine.new_game(seed=2), 0)
    MctsBot(seed=1).choose("kazambi", view)
    MctsBot(seed=1, version=1).choose("kazambi", view)
    assert seen[0] == DEFAULT_BUDGETS["kazambi"]
    assert seen[1] == Budget()


def test_cpu_seconds_budget_stops_the_search() -> None:
    engine = get_engine("stolbiki")
    state = engine.new_game(seed=3)
    clock = Budget(cpu_seconds=0.05).clock()
    assert clock.limit is None and clock.tick()
    move = get_bot("mcts", seed=1).choose(
        "stolbiki", engine.observation(state, engine.to_move(state)), Budget(cpu_seconds=0.05)
    )
    assert move in [str(m) for m in engine.legal_moves(state)]
    with pytest.raises(BotError, match="cpu_seconds"):
        Budget(cpu_seconds=0)
