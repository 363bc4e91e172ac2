"""Every rule and decision of docs/rules/kazambi.md, positive and negative."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import get_engine
from games.engines.errors import IllegalMoveError, NotationError, OptionError
from games.engines.kazambi import (
    AntiKazambiEngine,
    AntiKazambiPairsEngine,
    KazambiEngine,
    KazambiPairsEngine,
)
from tests.unit.engines.kazambi.helpers import game, random_game

kazambi = KazambiEngine()
pairs = KazambiPairsEngine()
anti = AntiKazambiEngine()
anti_pairs = AntiKazambiPairsEngine()


def illegal(engine: KazambiEngine, state: object, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        engine.play(state, move)  # type: ignore[arg-type]
    return caught.value.rule


# -- registry and variants --------------------------------------------------------------


def test_registry_names_give_the_four_variants() -> None:
    assert isinstance(get_engine("kazambi"), KazambiEngine)
    assert isinstance(get_engine("kazambi-pairs"), KazambiPairsEngine)
    assert isinstance(get_engine("anti-kazambi"), AntiKazambiEngine)
    assert isinstance(get_engine("anti-kazambi-pairs"), AntiKazambiPairsEngine)
    assert [e.seat_count() for e in (kazambi, pairs, anti, anti_pairs)] == [2, 4, 2, 4]
    assert [e.misere for e in (kazambi, pairs, anti, anti_pairs)] == [False, False, True, True]


# -- material ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_two_players_get_the_same_14_of_28_tiles(seed: int) -> None:
    hands = kazambi.to_dict(kazambi.new_game(seed=seed))["hands"]
    assert hands[0] == hands[1]
    assert len(set(hands[0])) == 14


def test_deal_depends_on_the_seed_only() -> None:
    assert kazambi.to_dict(kazambi.new_game(seed=5)) == kazambi.to_dict(kazambi.new_game(seed=5))
    deals = {tuple(kazambi.to_dict(kazambi.new_game(seed=s))["hands"][0]) for s in range(10)}
    assert len(deals) > 1


@pytest.mark.parametrize("seed", range(20))
def test_pairs_teams_hold_the_same_14_split_7_7(seed: int) -> None:
    hands = [set(h) for h in pairs.to_dict(pairs.new_game(seed=seed))["hands"]]
    assert all(len(hand) == 7 for hand in hands)
    assert not hands[0] & hands[2] and not hands[1] & hands[3]
    assert hands[0] | hands[2] == hands[1] | hands[3]


def test_pairs_splits_are_independent_per_team() -> None:
    splits = [pairs.to_dict(pairs.new_game(seed=s))["hands"] for s in range(20)]
    assert any(set(h[0]) != set(h[1]) and set(h[0]) != set(h[3]) for h in splits)


def test_first_player_is_drawn_by_lot_and_recorded_in_the_deal() -> None:
    for engine, seats in ((kazambi, 2), (pairs, 4)):
        firsts = set()
        for seed in range(40):
            state = engine.new_game(seed=seed)
            assert engine.initial_deal(state)["first"] == engine.to_move(state)
            firsts.add(engine.to_move(state))
        assert firsts == set(range(seats))


def test_next_game_of_a_match_starts_with_the_other_side() -> None:
    assert [kazambi.starting_seat(i, first=1) for i in range(4)] == [1, 0, 1, 0]
    assert [pairs.starting_seat(i, first=0) % 2 for i in range(4)] == [0, 1, 0, 1]


# -- board ------------------------------------------------------------------------------


def test_default_board_is_7_by_8() -> None:
    doc = kazambi.to_dict(kazambi.new_game(seed=1))
    assert doc["options"] == {"rows": 7, "cols": 8}
    assert doc["board"] == ["........"] * 7


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 12), (12, 2), (12, 12), (3, 5)])
def test_any_board_from_2_to_12(rows: int, cols: int) -> None:
    doc = kazambi.to_dict(kazambi.new_game(seed=1, rows=rows, cols=cols))
    assert doc["board"] == ["." * cols] * rows


@pytest.mark.parametrize(
    "options", [{"rows": 1}, {"cols": 13}, {"rows": "7"}, {"cols": True}, {"size": 7}]
)
def test_bad_board_options_are_rejected(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        kazambi.new_game(seed=1, **options)


# -- the move ---------------------------------------------------------------------------


def test_first_move_may_go_anywhere_in_either_orientation() -> None:
    state = game(kazambi)
    horizontal, vertical = 7 * 7, 6 * 8
    doubles = 5
    expected = doubles * (horizontal + vertical) + (14 - doubles) * 2 * (horizontal + vertical)
    assert kazambi.move_count(state) == len(kazambi.legal_moves(state)) == expected
    texts = {str(m) for m in kazambi.legal_moves(state)}
    assert {"3-5@a1b1", "5-3@a1b1", "3-5@a1a2", "5-3@a1a2", "3-5@g7h7", "3-5@h6h7"} <= texts


def test_a_tile_need_not_touch_the_others() -> None:
    state = game(kazambi, ["0-1@a1b1"])
    state = kazambi.play(state, "2-3@g7h7")
    assert kazambi.to_dict(state)["board"][6] == "......23"


def test_cells_must_be_adjacent() -> None:
    with pytest.raises(NotationError, match="not orthogonally adjacent"):
        kazambi.play(game(kazambi), "2-3@a1c1")
    with pytest.raises(NotationError, match="not orthogonally adjacent"):
        kazambi.play(game(kazambi), "2-3@a1b2")


def test_cells_must_be_on_the_board() -> None:
    assert illegal(kazambi, game(kazambi), "2-3@h1i1") == "cell i1 is off the 7 x 8 board"
    assert illegal(kazambi, game(kazambi), "2-3@a7a8") == "cell a8 is off the 7 x 8 board"


def test_cells_must_be_empty() -> None:
    state = game(kazambi, ["0-1@a1b1"])
    assert illegal(kazambi, state, "2-3@b1c1") == "cell b1 is already taken"


def test_tile_must_be_in_the_hand_of_the_seat_to_move() -> None:
    assert illegal(kazambi, game(kazambi), "4-4@a1b1") == "tile 4-4 is not in seat 0's hand"
    state = game(kazambi, ["0-1@a1b1", "0-1@c3d3"])
    assert illegal(kazambi, state, "1-0@e5f5") == "tile 0-1 is not in seat 0's hand"


def test_both_colours_of_a_tile_can_be_played() -> None:
    state = game(kazambi, ["0-1@a1b1", "0-1@c3d3"])
    assert kazambi.to_dict(state)["board"][2] == "..01...."


def test_no_row_may_hold_a_value_twice() -> None:
    state = game(kazambi, ["3-5@a1b1"])
    assert illegal(kazambi, state, "5-6@e1f1") == "row 1 already has a 5"
    assert illegal(kazambi, state, "6-5@e1f1") == "row 1 already has a 5"
    assert illegal(kazambi, state, "5-6@h1h2") == "row 1 already has a 5"
    kazambi.play(state, "6-5@e2f2")  # another row is fine


def test_no_column_may_hold_a_value_twice() -> None:
    state = game(kazambi, ["3-5@c1c2"])
    assert illegal(kazambi, state, "3-2@c6c7") == "column c already has a 3"
    assert illegal(kazambi, state, "2-3@c6c7") == "column c already has a 3"
    assert illegal(kazambi, state, "3-2@c6d6") == "column c already has a 3"
    kazambi.play(state, "3-2@d6d7")


def test_each_half_is_checked_on_its_own_cell() -> None:
    state = game(kazambi, ["3-5@a1b1"])  # column a holds a 3, column b a 5
    assert illegal(kazambi, state, "6-5@a2b2") == "column b already has a 5"
    assert illegal(kazambi, state, "3-2@a2b2") == "column a already has a 3"
    kazambi.play(state, "5-3@a2b2")


def test_double_halves_do_not_clash_with_each_other() -> None:
    """Decision: 5-5 may lie in one row or one column if no other 5 is there."""
    state = game(kazambi)
    kazambi.play(state, "5-5@c3d3")
    kazambi.play(state, "5-5@c3c4")
    assert "5-5@c3d3" in {str(m) for m in kazambi.legal_moves(state)}


def test_a_double_clashes_with_other_tiles() -> None:
    state = game(kazambi, ["5-5@c3d3"])
    assert illegal(kazambi, state, "5-6@a3a4") == "row 3 already has a 5"
    assert illegal(kazambi, state, "6-5@d5d6") == "column d already has a 5"
    assert illegal(kazambi, state, "5-5@e3f3") == "row 3 already has a 5"
    assert illegal(kazambi, state, "5-5@d5d6") == "column d already has a 5"


def test_moves_alternate() -> None:
    state = game(kazambi, first=1)
    seats = []
    for move in ["0-1@a1b1", "0-1@c3d3", "2-3@e5f5"]:
        seats.append(kazambi.to_move(state))
        state = kazambi.play(state, move)
    assert seats == [1, 0, 1]
    assert kazambi.to_move(state) == 0


def test_play_leaves_its_argument_unchanged() -> None:
    state = game(kazambi)
    before = kazambi.to_dict(state)
    after = kazambi.play(state, "0-1@a1b1")
    assert kazambi.to_dict(state) == before
    assert kazambi.to_dict(after) != before


def test_push_and_pop_restore_the_position() -> None:
    state = game(kazambi, ["0-1@a1b1"])
    before = kazambi.to_dict(state)
    kazambi.push(state, "5-5@c3d3")
    assert kazambi.pop(state) == kazambi.parse(game(kazambi, ["0-1@a1b1"]), "5-5@c3d3")
    assert kazambi.to_dict(state) == before
    assert kazambi.legal_moves(state) == kazambi.legal_moves(game(kazambi, ["0-1@a1b1"]))


# -- end of the game --------------------------------------------------------------------

# On a 2 x 2 board, two tiles fill it; then the seat to move (seat 0) cannot move.
FULL_2X2 = ["0-1@a1b1", "2-3@a2b2"]


def test_a_player_who_cannot_move_loses() -> None:
    state = game(kazambi, FULL_2X2, rows=2, cols=2)
    assert kazambi.is_over(state)
    assert kazambi.legal_moves(state) == []
    assert kazambi.result(state) == {"winner": 1, "stuck_seat": 0, "tiles_placed": 2}
    assert illegal(kazambi, state, "5-5@a1b1") == "the game is over"


def test_no_tile_fitting_ends_the_game_though_cells_are_empty() -> None:
    state = random_game(kazambi, seed=0)
    stuck = kazambi.result(state)["stuck_seat"]
    hand = kazambi.to_dict(state)["hands"][stuck]
    assert hand and kazambi.burnt(state, stuck) == hand
    board = kazambi.to_dict(state)["board"]
    assert any(row[c] == row[c + 1] == "." for row in board for c in range(7))


def test_a_player_with_an_empty_hand_loses() -> None:
    state = random_game(kazambi, seed=2, rows=12, cols=12)
    stuck = kazambi.result(state)["stuck_seat"]
    assert kazambi.to_dict(state)["hands"][stuck] == []
    assert kazambi.result(state)["winner"] == 1 - stuck


def test_the_game_goes_on_while_the_seat_to_move_can_move() -> None:
    state = game(kazambi, ["0-1@a1b1"], rows=2, cols=2)
    assert not kazambi.is_over(state)
    with pytest.raises(ValueError, match="not over"):
        kazambi.result(state)


def test_there_is_no_pass() -> None:
    state = game(kazambi, FULL_2X2, rows=2, cols=2)
    assert "no pass" in illegal(kazambi, state, "pass")
    assert "no pass" in illegal(kazambi, game(kazambi), "pass")


def test_misere_the_player_who_cannot_move_wins() -> None:
    state = game(anti, FULL_2X2, rows=2, cols=2)
    assert anti.result(state) == {"winner": 0, "stuck_seat": 0, "tiles_placed": 2}


# -- burnt tiles ------------------------------------------------------------------------


def test_burnt_tiles_fit_nowhere() -> None:
    # 2 x 2 board with 0-1 on the top row: a2 (column a holds 0) and b2 (column b holds 1).
    state = game(kazambi, ["0-1@a1b1"], rows=2, cols=2)
    burnt = kazambi.burnt(state, 1)
    assert "0-0" in burnt and "1-1" in burnt  # a double needs two cells of one column
    assert "0-1" not in burnt  # 1 on a2, 0 on b2
    assert "2-3" not in burnt
    playable = {str(m).split("@")[0] for m in kazambi.legal_moves(state)}
    hand = kazambi.to_dict(state)["hands"][1]
    for tile in hand:
        low, high = tile.split("-")
        fits = f"{low}-{high}" in playable or f"{high}-{low}" in playable
        assert fits == (tile not in burnt)


def test_burnt_tiles_stay_burnt_and_are_shown_to_everyone() -> None:
    state = game(kazambi, ["0-1@a1b1"], rows=2, cols=2)
    burnt = set(kazambi.burnt(state, 0))
    after = kazambi.play(state, "2-3@a2b2")
    assert burnt <= set(kazambi.burnt(after, 0))
    observation = kazambi.observation(after, 1)
    assert observation["burnt"] == [kazambi.burnt(after, 0), kazambi.burnt(after, 1)]


def test_burnt_rejects_a_missing_seat() -> None:
    with pytest.raises(ValueError, match="seat"):
        kazambi.burnt(game(kazambi), 2)


# -- pairs ------------------------------------------------------------------------------


def test_pairs_seats_move_clockwise() -> None:
    state = game(pairs, first=2)
    seats = []
    for move in ["2-3@c3d3", "5-6@e5f5", "0-0@a1b1", "0-1@g7h7"]:
        seats.append(pairs.to_move(state))
        state = pairs.play(state, move)
    assert seats == [2, 3, 0, 1]


def test_pairs_seat_holds_only_its_own_tiles() -> None:
    state = game(pairs)  # seat 0 holds DEAL[:7], seat 2 DEAL[7:]
    assert illegal(pairs, state, "2-3@a1b1") == "tile 2-3 is not in seat 0's hand"


def test_pairs_the_team_of_the_stuck_seat_loses() -> None:
    state = game(pairs, ["0-1@a1b1", "2-3@a2b2"], first=1, rows=2, cols=2)
    assert pairs.to_move(state) == 3
    assert pairs.is_over(state)
    assert pairs.result(state) == {"winner": 0, "stuck_seat": 3, "tiles_placed": 2}


def test_misere_applies_to_pairs() -> None:
    """Decision: the misère flag also applies to pairs."""
    state = game(anti_pairs, ["0-1@a1b1", "2-3@a2b2"], first=1, rows=2, cols=2)
    assert anti_pairs.result(state) == {"winner": 1, "stuck_seat": 3, "tiles_placed": 2}


def test_pairs_partner_with_an_empty_hand_loses_for_the_team() -> None:
    state = random_game(pairs, seed=1, rows=12, cols=12)
    stuck = pairs.result(state)["stuck_seat"]
    assert pairs.to_dict(state)["hands"][stuck] == []
    assert pairs.result(state)["winner"] == 1 - stuck % 2
