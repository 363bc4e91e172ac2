"""Property-based tests over random seeded games of every variant and board size."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.engines.kazambi import KazambiEngine, KazambiState
from games.engines.kazambi.notation import parse_move, parse_tile
from tests.unit.engines.kazambi.reference import naive_moves

GAMES = ["kazambi", "kazambi-pairs", "anti-kazambi", "anti-kazambi-pairs"]

games = st.tuples(
    st.sampled_from(GAMES),
    st.integers(0, 2**32),
    st.integers(2, 12),
    st.integers(2, 12),
)


def check_position(engine: KazambiEngine, state: KazambiState) -> None:
    """Invariants that hold in every position reached from a deal."""
    doc = engine.to_dict(state)
    deal = engine.initial_deal(state)
    history = [parse_move(text) for text in doc["history"]]
    first = deal["first"]
    # Material: each seat's hand plus the tiles it placed is what it was dealt.
    for seat in range(engine.seats):
        placed = [m.tile for i, m in enumerate(history) if (first + i) % engine.seats == seat]
        held = [parse_tile(t) for t in doc["hands"][seat]]
        assert sorted(placed + held) == sorted(parse_tile(t) for t in deal["hands"][seat])
    # The board shows exactly the placed halves, and no line holds a value of two tiles.
    owner: dict[tuple[int, int], int] = {}
    for index, move in enumerate(history):
        owner[move.row, move.col] = owner[move.cell_y] = index
        assert doc["board"][move.row][move.col] == str(move.value_x)
        assert doc["board"][move.cell_y[0]][move.cell_y[1]] == str(move.value_y)
    assert sum(row.count(".") for row in doc["board"]) == len(doc["board"]) * len(
        doc["board"][0]
    ) - 2 * len(history)
    lines = [[(r, c) for c in range(len(doc["board"][0]))] for r in range(len(doc["board"]))]
    lines += [[(r, c) for r in range(len(doc["board"]))] for c in range(len(doc["board"][0]))]
    for line in lines:
        tiles_per_value: dict[str, set[int]] = {}
        for r, c in line:
            if (r, c) in owner:
                tiles_per_value.setdefault(doc["board"][r][c], set()).add(owner[r, c])
        assert all(len(tiles) == 1 for tiles in tiles_per_value.values())
    # Documents round-trip, also without (part of) their history.
    loaded = engine.from_dict(doc)
    assert engine.to_dict(loaded) == doc
    for cut in {0, len(history) // 2, len(history)}:
        partial = {**doc, "history": doc["history"][cut:]}
        loaded = engine.from_dict(partial)
        assert engine.to_dict(loaded) == partial
        replayed, _ = engine.replay(engine.record(loaded))
        assert engine.to_dict(replayed) == partial
    # The game ends exactly when the seat to move has no placement.
    moves = engine.legal_moves(state)
    assert engine.is_over(state) == (not moves)
    assert len({str(m) for m in moves}) == len(moves) == engine.move_count(state)


@settings(max_examples=30, deadline=None)
@given(games)
def test_random_games_keep_every_invariant(case: tuple[str, int, int, int]) -> None:
    name, seed, rows, cols = case
    engine = get_engine(name)
    assert isinstance(engine, KazambiEngine)
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, rows=rows, cols=cols)
    burnt_before = [set(engine.burnt(state, seat)) for seat in range(engine.seats)]
    naive_checks = 0
    while True:
        check_position(engine, state)
        moves = engine.legal_moves(state)
        if naive_checks < 3 and rng.random() < 0.3:
            assert {str(m) for m in moves} == naive_moves(engine.to_dict(state))
            naive_checks += 1
        burnt = [set(engine.burnt(state, seat)) for seat in range(engine.seats)]
        hands = engine.to_dict(state)["hands"]
        for seat in range(engine.seats):
            # Burnt tiles stay burnt while they are held.
            assert burnt_before[seat] & set(hands[seat]) <= burnt[seat]
        playable = Counter(m.tile for m in moves)
        mover = engine.to_move(state)
        assert {parse_tile(t) for t in burnt[mover]} == {
            parse_tile(t) for t in hands[mover] if not playable[parse_tile(t)]
        }
        burnt_before = burnt
        if not moves:
            break
        move = rng.choice(moves)
        before = engine.to_dict(state)
        engine.push(state, move)
        engine.pop(state)
        assert engine.to_dict(state) == before
        state = engine.play(state, move)
    result = engine.result(state)
    stuck = engine.to_move(state)
    assert result["stuck_seat"] == stuck
    assert result["winner"] == (stuck % 2 if engine.misere else 1 - stuck % 2)
    assert engine.replay(engine.record(state))[1] == result
