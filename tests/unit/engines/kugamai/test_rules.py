"""Every rule and decision of docs/rules/kugamai.md, positive and negative."""

from __future__ import annotations

import pytest

from games.engines.errors import EngineError, IllegalMoveError
from games.engines.kugamai.tiles import HIGH_DOUBLES_MASK, LOW_DOUBLES_MASK

from .helpers import ENGINE, position, random_game

# End 6; the only 0-tile off the table is 0-6, so 6-0 would make a fish on 0.
FISH_CHAIN = ["0-0", "0-1", "1-2", "2-0", "0-3", "3-4", "4-0", "0-5", "5-6"]
# End 6; the only 6-tile off the table is 0-6, which would make a fish: nobody can move.
DRAW_CHAIN = ["0-0", "0-1", "1-6", "6-6", "6-2", "2-0", "0-3", "3-6", "6-4", "4-0", "0-5", "5-6"]
# End 3; seat 0 (low doubles) has placed 1-1 and 2-2 and holds 3-3.
WIN_CHAIN = ["0-0", "0-1", "1-1", "1-2", "2-2", "2-3"]
WIN_HAND = ["3-3", "3-4", "0-6", "1-6", "2-6", "4-5", "0-2", "1-5"]


def rule_of(state, move) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        ENGINE.play(state, move)
    return caught.value.rule


# -- deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_deal_gives_doubles_out_and_eleven_shuffled_tiles_each(seed):
    state = ENGINE.new_game(seed=seed)
    low = state.low_doubles_seat
    hands = ENGINE.to_dict(state)["hands"]
    assert [len(hand) for hand in hands] == [14, 14]
    assert {"1-1", "2-2", "3-3"} <= set(hands[low])
    assert {"4-4", "5-5", "6-6"} <= set(hands[1 - low])
    assert not {"4-4", "5-5", "6-6"} & set(hands[low])
    assert sorted(hands[0] + hands[1]) == sorted(f"{a}-{b}" for a in range(7) for b in range(a, 7))


def test_low_doubles_seat_is_drawn_by_lot_when_not_given():
    seats = {ENGINE.new_game(seed=seed).low_doubles_seat for seed in range(40)}
    assert seats == {0, 1}


@pytest.mark.parametrize("low", [0, 1])
def test_low_doubles_seat_option_decides_who_takes_the_low_doubles(low):
    for seed in range(10):
        state = ENGINE.new_game(seed=seed, low_doubles_seat=low)
        assert state.low_doubles_seat == low
        assert state.hands[low] & LOW_DOUBLES_MASK == LOW_DOUBLES_MASK
        assert state.hands[1 - low] & HIGH_DOUBLES_MASK == HIGH_DOUBLES_MASK


def test_low_doubles_alternate_through_a_match():
    assert [ENGINE.low_doubles_seat(k, first=1) for k in range(4)] == [1, 0, 1, 0]
    assert [ENGINE.low_doubles_seat(k) for k in range(3)] == [0, 1, 0]
    with pytest.raises(EngineError):
        ENGINE.low_doubles_seat(-1)
    with pytest.raises(EngineError):
        ENGINE.low_doubles_seat(0, first=2)


def test_either_player_may_hold_zero_zero_and_open():
    """Decision: 0-0 is dealt with the shuffled tiles, so the low- or the high-doubles
    player may hold it; it is not one of the three doubles a player must place."""
    holder_is_low = set()
    for seed in range(40):
        state = ENGINE.new_game(seed=seed)
        holder = 0 if state.hands[0] & 1 else 1
        assert ENGINE.to_move(state) == holder
        holder_is_low.add(holder == state.low_doubles_seat)
        assert state.doubles_left == [3, 3]
        opened = ENGINE.play(state, "0-0")
        assert opened.doubles_left == [3, 3]
    assert holder_is_low == {True, False}


# -- play -------------------------------------------------------------------------------


def test_the_holder_of_zero_zero_opens_with_it_and_nothing_else():
    state = ENGINE.new_game(seed=5)
    assert ENGINE.legal_moves(state) == ["0-0"]
    other_tile = ENGINE.to_dict(state)["hands"][state.to_move][1]
    assert "must open with it" in rule_of(state, other_tile)
    assert "must open with it" in rule_of(state, "pass")
    after = ENGINE.play(state, "0-0")
    assert ENGINE.to_move(after) == 1 - ENGINE.to_move(state)
    assert ENGINE.to_dict(after)["chain"] == ["0-0"]


def test_a_tile_must_match_the_open_end_and_its_other_half_opens():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    assert ENGINE.legal_moves(state) == ["6-1"]
    after = ENGINE.play(state, "6-1")
    assert after.end == 1
    assert ENGINE.to_dict(after)["chain"][-1] == "6-1"
    assert ENGINE.to_move(after) == 1
    assert all(move.startswith("1-") for move in ENGINE.legal_moves(after))


def test_a_tile_that_does_not_match_is_refused():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    assert rule_of(state, "1-1") == "1-1 does not match the open end 6"


def test_a_move_is_written_matched_half_first():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    rule = rule_of(state, "1-6")
    assert "does not match the open end 6" in rule
    assert "6-1" in rule


def test_a_tile_must_be_in_the_movers_hand():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    assert rule_of(state, "6-2") == "tile 2-6 is not in seat 0's hand (it is in seat 1's hand)"
    assert rule_of(state, "5-6") == "tile 5-6 is not in seat 0's hand (it is on the table)"


def test_a_double_keeps_the_open_end():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"], to_move=1)
    assert ENGINE.legal_moves(state) == ["6-2", "6-3", "6-4", "6-6"]
    after = ENGINE.play(state, "6-6")
    assert after.end == 6
    assert after.doubles_left == [3, 2]
    assert ENGINE.legal_moves(after) == ["6-1"]


def test_a_move_that_makes_a_fish_is_illegal():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    assert "6-0" not in ENGINE.legal_moves(state)
    rule = rule_of(state, "6-0")
    assert "fish" in rule and "0" in rule


def test_fish_rule_holds_even_for_the_only_tile_that_fits():
    state = position(FISH_CHAIN, ["0-6", "1-3", "1-1", "2-2", "3-3"])
    assert ENGINE.legal_moves(state) == ["pass"]
    rule = rule_of(state, "6-0")
    assert "fish" in rule and "must pass" in rule


def test_fish_check_applies_to_a_double(monkeypatch):
    """A double that would leave no tile of its value off the table is refused too. In a
    real game that cannot arise (by parity only 0 can ever be fished), so the counts are
    forced here to check that the rule is applied to doubles as well."""
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"], to_move=1)
    state.remaining[6] = 1
    state.safe &= ~(1 << 6)
    assert "6-6" not in ENGINE.legal_moves(state)
    assert "fish" in rule_of(state, "6-6")


def test_only_a_value_whose_last_tile_is_played_is_a_fish():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"], to_move=1)
    # 6-2 leaves 2 open with 2-2, 2-3, 2-5 ... still off the table: no fish.
    assert "6-2" in ENGINE.legal_moves(state)


def test_a_player_with_no_legal_move_passes_and_the_other_moves_again():
    state = position(FISH_CHAIN, ["0-6", "1-3", "1-1", "2-2", "3-3"])
    assert ENGINE.legal_moves(state) == ["pass"]
    assert not ENGINE.is_over(state)
    after = ENGINE.play(state, "pass")
    assert ENGINE.to_move(after) == 1
    assert after.end == 6
    assert ENGINE.to_dict(after)["chain"] == FISH_CHAIN
    assert ENGINE.to_dict(after)["history"] == ["pass"]
    assert "pass" not in ENGINE.legal_moves(after)


def test_passing_with_a_legal_move_is_refused():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    rule = rule_of(state, "pass")
    assert "can lay 6-1" in rule and "pass only when no tile fits" in rule


@pytest.mark.parametrize("to_move", [0, 1])
def test_neither_player_can_move_is_a_draw(to_move):
    state = position(DRAW_CHAIN, ["0-6", "1-1", "2-2", "3-3", "1-2", "1-3"], to_move=to_move)
    assert ENGINE.is_over(state)
    assert ENGINE.legal_moves(state) == []
    assert ENGINE.result(state) == {"winner": None, "reason": "blocked", "moves": 0}
    assert "neither seat can lay a tile on the open end 6" in rule_of(state, "pass")
    assert "the game is over" in rule_of(state, "6-0")


def test_draw_is_detected_after_the_move_that_blocks():
    # One move earlier: seat 1 lays 5-6 and the game is blocked at once.
    chain = DRAW_CHAIN[:-1]
    state = position(chain, ["0-6", "1-1", "2-2", "3-3", "1-2", "1-3"], to_move=1)
    assert "5-6" in ENGINE.legal_moves(state)
    after = ENGINE.play(state, "5-6")
    assert ENGINE.is_over(after)
    assert ENGINE.result(after)["winner"] is None


def test_the_first_player_without_doubles_wins_at_once():
    state = position(WIN_CHAIN, WIN_HAND)
    assert ENGINE.legal_moves(state) == ["3-3", "3-4"]
    won = ENGINE.play(state, "3-3")
    assert ENGINE.is_over(won)
    assert ENGINE.result(won) == {"winner": 0, "reason": "doubles out", "moves": 1}
    assert ENGINE.legal_moves(won) == []
    # Seat 0 still holds tiles and seat 1 could move: the win ends the game anyway.
    assert ENGINE.to_dict(won)["hands"][0]
    assert "seat 0 has placed all its doubles" in rule_of(won, "3-4")


def test_no_win_while_a_double_is_in_hand():
    state = position(WIN_CHAIN, WIN_HAND)
    after = ENGINE.play(state, "3-4")
    assert not ENGINE.is_over(after)
    with pytest.raises(EngineError, match="not over"):
        ENGINE.result(after)


def test_high_doubles_player_wins_with_four_five_six():
    chain = ["0-0", "0-4", "4-4", "4-5", "5-5", "5-6"]
    seat0 = ["1-1", "2-2", "3-3", "0-1", "0-2", "0-3", "0-5", "0-6", "1-2", "1-3", "1-4"]
    state = position(chain, seat0, to_move=1, low=0)
    won = ENGINE.play(state, "6-6")
    assert ENGINE.result(won)["winner"] == 1


def test_play_leaves_its_argument_unchanged():
    state = position(FISH_CHAIN, ["0-6", "1-6", "1-1", "2-2", "3-3"])
    before = ENGINE.to_dict(state)
    ENGINE.play(state, "6-1")
    assert ENGINE.to_dict(state) == before


def test_push_and_pop_undo_exactly():
    states = random_game(11)
    state = ENGINE.new_game(seed=11)
    snapshots = []
    for later in states[1:]:
        snapshots.append((ENGINE.to_dict(state), list(state.remaining), state.safe))
        ENGINE.push(state, ENGINE.to_dict(later)["history"][-1])
        assert ENGINE.to_dict(state) == ENGINE.to_dict(later)
    for doc, remaining, safe in reversed(snapshots):
        ENGINE.pop(state)
        assert (ENGINE.to_dict(state), state.remaining, state.safe) == (doc, remaining, safe)
    with pytest.raises(EngineError, match="no move to take back"):
        ENGINE.pop(state)


def test_push_accepts_move_codes():
    state = ENGINE.new_game(seed=3)
    codes = ENGINE.legal_codes(state)
    assert codes == (0,)
    ENGINE.push(state, codes[0])
    assert ENGINE.to_dict(state)["chain"] == ["0-0"]
    with pytest.raises(EngineError):
        ENGINE.push(state, 50)
    with pytest.raises(EngineError):
        ENGINE.push(state, True)  # type: ignore[arg-type]
