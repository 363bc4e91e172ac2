"""The exact solvers against a plain minimax over the engine's public API, and the
promise that a position proved won is never lost."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.bots.base import Budget
from games.bots.kazambi_placements import board_placements
from games.bots.play import side_bots
from games.bots.registry import get_bot
from games.bots.solvers.kazambi import (
    FAR_FROM_BURNT,
    KazambiSolver,
    live_hand,
    live_tile_count,
    near_burnt,
)
from games.bots.solvers.kazambi import solve as solve_kazambi
from games.bots.solvers.kugamai import KugamaiSolver
from games.bots.solvers.kugamai import solve as solve_kugamai
from games.engines import Engine, get_engine
from games.engines.kazambi.board import geometry
from games.engines.kazambi.notation import KazambiMove
from games.engines.kazambi.rules import placement_masks
from games.engines.kugamai.tiles import tile_count
from tests.unit.bots.helpers import play_random_until, reach_randomly


def minimax(engine: Engine[Any], state: Any) -> int:
    """The value for the side to move (1, 0, -1), with no memo and no pruning; seats
    alternate sides after every move (passes included) in these games."""
    if engine.is_over(state):
        winner = engine.result(state)["winner"]
        if winner is None:
            return 0
        return 1 if winner == engine.to_move(state) % 2 else -1
    return max(-minimax(engine, engine.play(state, move)) for move in engine.legal_moves(state))


def kugamai_tiles_in_hands(state: Any) -> int:
    return sum(tile_count(hand) for hand in state.hands)


@pytest.mark.parametrize("seed", range(12))
def test_kugamai_solver_matches_minimax(seed: int) -> None:
    engine = get_engine("kugamai")
    state = play_random_until("kugamai", seed, lambda s: kugamai_tiles_in_hands(s) <= 14)
    if state is None:
        pytest.skip("the random game ended early")
    value, move = KugamaiSolver().best(state)
    assert solve_kugamai(state) == value == minimax(engine, state)
    assert move is not None
    after = engine.play(state, move)
    assert -minimax(engine, after) == value


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi", "kazambi-pairs", "anti-kazambi-pairs"])
@pytest.mark.parametrize("seed", range(12))
def test_kazambi_endgame_solver_matches_minimax(game: str, seed: int) -> None:
    engine = get_engine(game)
    misere = game.startswith("anti")
    state = reach_randomly(game, seed, lambda s: live_tile_count(s) <= 4)
    assert state is not None
    won, move = KazambiSolver(misere).best(state)
    expected = minimax(engine, state)
    assert solve_kazambi(state, misere) == expected
    assert won == (expected == 1)
    if won:
        assert move is not None
        assert minimax(engine, engine.play(state, move)) == -1


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi", "kazambi-pairs"])
@pytest.mark.parametrize("seed", range(6))
def test_kazambi_known_results_and_order_agree_with_minimax(game: str, seed: int) -> None:
    """After a search every move the table settles has its minimax value, and the
    search's order holds every legal move (or a winning one alone)."""
    engine = get_engine(game)
    misere = game.startswith("anti")
    state = reach_randomly(game, seed, lambda s: live_tile_count(s) <= 4)
    assert state is not None
    solver = KazambiSolver(misere)
    won, _ = solver.best(state)
    for move, wins in solver.known_results(state).items():
        assert wins == (minimax(engine, engine.play(state, move)) == -1)
    ordered = solver.ordered_moves(state)
    legal = set(engine.legal_moves(state))
    if len(ordered) == 1 and len(legal) > 1:
        assert won and minimax(engine, engine.play(state, ordered[0])) == -1
    else:
        assert len(ordered) == len(legal) and set(ordered) == legal


def _play_from(game: str, state: Any, bots: list[Any]) -> Any:
    engine = get_engine(game)
    while not engine.is_over(state):
        seat = engine.to_move(state)
        move = bots[seat].choose(game, engine.observation(state, seat), Budget(iterations=30))
        state = engine.play(state, move)
    return engine.result(state)["winner"]


@pytest.mark.parametrize("opponent", ["random", "greedy", "mcts"])
def test_kugamai_solver_never_loses_a_proved_win(opponent: str) -> None:
    engine = get_engine("kugamai")
    proved = 0
    for seed in range(12):
        state = engine.new_game(seed=seed)
        if solve_kugamai(state) != 1:
            continue
        proved += 1
        winner_seat = engine.to_move(state)
        for opponent_seed in range(2):
            bots = side_bots(get_bot("solver"), get_bot(opponent, seed=opponent_seed), 2)
            if winner_seat == 1:
                bots.reverse()
            assert _play_from("kugamai", state, bots) == winner_seat
    assert proved >= 3


@pytest.mark.parametrize("game", ["kazambi", "anti-kazambi-pairs"])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_kazambi_solver_never_loses_a_proved_endgame(game: str, opponent: str) -> None:
    engine = get_engine(game)
    seats = engine.seat_count()
    proved = 0
    for seed in range(8):
        state = play_random_until(game, seed, lambda s: live_tile_count(s) <= 8)
        if state is None or solve_kazambi(state, game.startswith("anti")) != 1:
            continue
        proved += 1
        side = engine.to_move(state) % 2
        solver, other = get_bot("solver"), get_bot(opponent, seed=seed)
        bots = side_bots(solver, other, seats) if side == 0 else side_bots(other, solver, seats)
        assert _play_from(game, state, bots) == side
    assert proved >= 2


def test_kazambi_solver_table_tells_board_sizes_apart() -> None:
    """The same masks and hands on a 3x4 and on a 2x6 board (the bits name other cells)
    have different values: a solver reused across board sizes must not mix them up."""
    engine = get_engine("kazambi")
    rng = random.Random(6)
    square = engine.new_game(seed=6, rows=3, cols=4)
    for _ in range(2):
        moves = engine.legal_moves(square)
        square = engine.play(square, moves[rng.randrange(len(moves))])
    wide = dataclasses.replace(square.copy(), geometry=geometry(2, 6))
    fresh = [KazambiSolver(False).wins(state) for state in (square, wide)]
    assert fresh[0] != fresh[1]
    shared = KazambiSolver(False)
    assert [shared.wins(state) for state in (square, wide)] == fresh
    assert shared.key(square) != shared.key(wide)
    assert KazambiSolver(True).key(square) != shared.key(square)


@pytest.mark.parametrize("seed", range(4))
def test_kazambi_near_burnt_counts_each_live_tiles_placements_up_to_the_cap(seed: int) -> None:
    """The solver's tie-break is the engine's placement count of every live tile of the
    hand (doubles counted once per cell pair), each capped at FAR_FROM_BURNT."""
    state = play_random_until("kazambi", seed, lambda s: live_tile_count(s) <= 16)
    if state is None:
        pytest.skip("the random game ended early")
    board = state.geometry
    for seat in range(state.seats):
        hand = live_hand(state, seat)
        expected = 0
        for tile in range(28):
            if hand >> tile & 1:
                count = sum(m.bit_count() for m in placement_masks(board, state.allowed, tile))
                expected += min(count, FAR_FROM_BURNT)
        assert near_burnt(state.allowed, hand, board.rows, board.cols) == expected


@pytest.mark.parametrize(("rows", "cols", "seed"), [(7, 8, 0), (7, 8, 1), (5, 6, 2), (4, 9, 3)])
def test_kazambi_packed_placements_follow_the_engine(rows: int, cols: int, seed: int) -> None:
    """Each tile's packed placements count the engine's placements, and what a placement
    keeps of them is exactly the tile's packed placements once the engine has played it."""
    engine = get_engine("kazambi")
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, rows=rows, cols=cols)
    for _ in range(6):
        moves = engine.legal_moves(state)
        state = engine.play(state, moves[rng.randrange(len(moves))])
    board = state.geometry
    placements = board_placements(rows, cols)

    def packed(allowed: list[int], tile: int) -> int:
        return placements.packed(allowed, tile, board.not_last_col)

    for tile in range(28):
        count = sum(m.bit_count() for m in placement_masks(board, state.allowed, tile))
        assert packed(state.allowed, tile).bit_count() == count
    legal = set(engine.legal_moves(state))
    seen = set()
    for tile in range(28):
        if not state.hands[state.to_move] >> tile & 1:
            continue
        rest = packed(state.allowed, tile)
        entries = placements.entries(tile)
        while rest:
            bit = rest & -rest
            rest ^= bit
            placement, keeps = entries[bit.bit_length() - 1]
            cell_x, cell_y, value_x, value_y, _ = placement
            row, col = divmod(cell_x, cols)
            move = KazambiMove(value_x, value_y, row, col, cell_y - cell_x == cols)
            seen.add(move)
            after = engine.play(state, move).allowed
            for other in range(28):
                assert packed(state.allowed, other) & keeps[other] == packed(after, other), (
                    move, other
                )
    assert seen == legal
