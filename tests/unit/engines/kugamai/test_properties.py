"""Property-based tests over random seeded games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.kugamai.tiles import FULL_SET, TILE_MASK, own_doubles_mask

from .helpers import ENGINE

seeds = st.integers(min_value=0, max_value=2**32)


def play_out(seed: int, choice_seed: int):
    rng = random.Random(choice_seed)
    state = ENGINE.new_game(seed=seed)
    states = [state]
    while not ENGINE.is_over(state):
        state = ENGINE.play(state, rng.choice(ENGINE.legal_moves(state)))
        states.append(state)
    return states


def check_invariants(state) -> None:
    hand0, hand1 = state.hands
    table = 0
    for code in state.chain:
        assert not table & TILE_MASK[code], "a tile laid twice"
        table |= TILE_MASK[code]
    # Material: hands and table are the 28 dealt tiles, each once.
    assert not hand0 & hand1 and not (hand0 | hand1) & table
    assert hand0 | hand1 | table == FULL_SET
    # The chain: opens with 0-0, each tile matches the end before it, never a fish.
    doc = ENGINE.to_dict(state)
    chain = doc["chain"]
    if chain:
        assert chain[0] == "0-0"
    for before, after in zip(chain, chain[1:], strict=False):
        assert before[2] == after[0]
    for number in range(1, len(chain) + 1):
        end = int(chain[number - 1][2])
        assert sum(1 for tile in chain[:number] if str(end) in tile) < 7
    # Incremental counts agree with a recount.
    for value in range(7):
        on_table = sum(1 for tile in chain if str(value) in tile)
        assert state.remaining[value] == 7 - on_table
        assert bool(state.safe >> value & 1) == (state.remaining[value] >= 2)
    for seat in (0, 1):
        mask = own_doubles_mask(seat, state.low_doubles_seat)
        assert state.doubles_left[seat] == (state.hands[seat] & mask).bit_count()
    # At most one seat is out of doubles, and only after laying its last one.
    assert state.doubles_left.count(0) <= 1
    # Seats alternate, passes included.
    opener = ENGINE.initial_deal(state)["first"]
    assert state.to_move == (opener + len(doc["history"])) % 2
    assert len(chain) == sum(1 for move in doc["history"] if move != "pass")
    # A pass is never followed by a pass.
    assert "pass,pass" not in ",".join(doc["history"])


@settings(max_examples=60, deadline=None)
@given(seeds, seeds)
def test_invariants_hold_in_every_position(seed, choice_seed):
    for state in play_out(seed, choice_seed):
        check_invariants(state)
        moves = ENGINE.legal_moves(state)
        assert moves == sorted(set(moves)) or moves == ["pass"]
        assert bool(moves) != ENGINE.is_over(state)


@settings(max_examples=40, deadline=None)
@given(seeds, seeds)
def test_documents_round_trip(seed, choice_seed):
    for state in play_out(seed, choice_seed):
        doc = ENGINE.to_dict(state)
        assert ENGINE.to_dict(ENGINE.from_dict(doc)) == doc
        bare = ENGINE.from_dict(dict(doc, history=[]))
        assert ENGINE.legal_moves(bare) == ENGINE.legal_moves(state)


@settings(max_examples=40, deadline=None)
@given(seeds, seeds)
def test_replaying_the_record_gives_the_same_result(seed, choice_seed):
    final = play_out(seed, choice_seed)[-1]
    replayed, result = ENGINE.replay(ENGINE.record(final, ["a", "b"]))
    assert result == ENGINE.result(final)
    assert ENGINE.to_dict(replayed) == ENGINE.to_dict(final)


@settings(max_examples=40, deadline=None)
@given(seeds, seeds)
def test_game_ends_by_a_win_or_a_block(seed, choice_seed):
    final = play_out(seed, choice_seed)[-1]
    result = ENGINE.result(final)
    if result["winner"] is None:
        assert result["reason"] == "blocked"
        assert final.doubles_left.count(0) == 0
        # Blocked: the last tile of the open end's value is its fish-making 0-tile.
        assert final.remaining[final.end] == 1
    else:
        assert result["reason"] == "doubles out"
        assert final.doubles_left[result["winner"]] == 0
        last = ENGINE.to_dict(final)["chain"][-1]
        assert last[0] == last[2] != "0"


@settings(max_examples=30, deadline=None)
@given(seeds, seeds)
def test_push_pop_is_a_round_trip(seed, choice_seed):
    states = play_out(seed, choice_seed)
    final = states[-1]
    history = ENGINE.to_dict(final)["history"]
    state = ENGINE.new_game(seed=seed)
    for move in history:
        ENGINE.push(state, move)
    for earlier in reversed(states[:-1]):
        ENGINE.pop(state)
        assert ENGINE.to_dict(state) == ENGINE.to_dict(earlier)
        assert state.remaining == earlier.remaining and state.safe == earlier.safe
