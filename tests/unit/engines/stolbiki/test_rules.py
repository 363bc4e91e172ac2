"""Every rule and decision of docs/rules/stolbiki.md, positive and negative."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games.engines import get_engine
from games.engines.errors import IllegalMoveError, OptionError
from games.engines.stolbiki import PASS, Placement, StolbikiEngine
from games.engines.stolbiki.engine import score
from games.engines.stolbiki.playout import play_randomly
from games.engines.stolbiki.state import StolbikiState
from tests.unit.engines.stolbiki import reference
from tests.unit.engines.stolbiki.positions import position

ENGINE = StolbikiEngine()


def load(
    table: dict[str, str], held: dict[int, list[str]] | None = None, **kw: Any
) -> StolbikiState:
    return ENGINE.from_dict(position(table, held, **kw))


def texts(moves: list[object]) -> list[str]:
    return [str(move) for move in moves]


def illegal(state: StolbikiState, move: str, match: str) -> None:
    with pytest.raises(IllegalMoveError, match=match):
        ENGINE.play(state, move)


# -- options, teams and seats ----------------------------------------------------------


def test_registry_finds_the_engine() -> None:
    assert isinstance(get_engine("stolbiki"), StolbikiEngine)
    assert ENGINE.perfect_information is False


@pytest.mark.parametrize(("team_size", "seats"), [(1, 4), (2, 4), (3, 6)])
def test_seat_count(team_size: int, seats: int) -> None:
    assert ENGINE.seat_count(team_size=team_size) == seats
    state = ENGINE.new_game(seed=1, team_size=team_size)
    assert len(ENGINE.to_dict(state)["hands"]) == seats


@pytest.mark.parametrize(
    "options",
    [{"deck": 40}, {"deck": True}, {"team_size": 4}, {"team_size": 0}, {"players": 4},
     {"deck": "36"}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        ENGINE.new_game(seed=1, **options)


@pytest.mark.parametrize(("deck", "team_size"), [(36, 1), (36, 2), (36, 3), (52, 1), (52, 3)])
def test_red_cards_go_to_red_seats_and_black_to_black(deck: int, team_size: int) -> None:
    for seed in range(5):
        deal = ENGINE.initial_deal(ENGINE.new_game(seed=seed, deck=deck, team_size=team_size))
        for seat, hand in enumerate(deal["hands"]):
            colour = "HD" if seat % 2 == deal["red_side"] else "CS"
            assert hand and all(card[1] in colour for card in hand)
        assert sum(len(hand) for hand in deal["hands"]) == deck


@pytest.mark.parametrize(
    ("deck", "team_size", "sizes"),
    [
        (36, 2, [9, 9, 9, 9]),
        (36, 1, [9, 9, 9, 9]),  # 1 v 1: each player's 18 cards in two equal piles
        (52, 1, [13, 13, 13, 13]),
        (36, 3, [6] * 6),
        (52, 3, [9, 9, 9, 9, 8, 8]),  # one at a time: the first seats of a team get more
    ],
)
def test_cards_are_dealt_one_at_a_time(deck: int, team_size: int, sizes: list[int]) -> None:
    deal = ENGINE.deal(7, deck=deck, team_size=team_size)
    assert [len(hand) for hand in deal["hands"]] == sizes


def test_deck_ranks() -> None:
    deal36 = ENGINE.deal(3, deck=36)
    assert {card[0] for hand in deal36["hands"] for card in hand} == set("6789TJQKA")
    deal52 = ENGINE.deal(3, deck=52)
    assert {card[0] for hand in deal52["hands"] for card in hand} == set("23456789TJQKA")


def test_one_v_one_seats_alternate_players() -> None:
    # seat order: A's first pile, B's first pile, A's second pile, B's second pile
    deal = ENGINE.deal(5, team_size=1, red_side=0)
    assert all(card[1] in "HD" for card in deal["hands"][0] + deal["hands"][2])
    assert all(card[1] in "CS" for card in deal["hands"][1] + deal["hands"][3])


def test_red_side_and_first_seat_are_drawn_by_lot() -> None:
    red_sides = Counter(ENGINE.deal(seed)["red_side"] for seed in range(60))
    firsts = Counter(ENGINE.deal(seed, team_size=3)["first"] for seed in range(120))
    assert set(red_sides) == {0, 1}
    assert set(firsts) == set(range(6))


def test_same_seed_same_deal() -> None:
    assert ENGINE.deal(11) == ENGINE.deal(11)
    assert ENGINE.to_dict(ENGINE.new_game(seed=11)) == ENGINE.to_dict(ENGINE.new_game(seed=11))
    assert ENGINE.deal(11) != ENGINE.deal(12)


def test_fixing_first_or_red_side_keeps_the_cards() -> None:
    drawn = ENGINE.deal(9)
    fixed = ENGINE.deal(9, first=(drawn["first"] + 1) % 4)
    assert fixed["hands"] == drawn["hands"]
    assert fixed["first"] == (drawn["first"] + 1) % 4
    assert ENGINE.deal(9, red_side=1)["red_side"] == 1
    with pytest.raises(OptionError):
        ENGINE.deal(9, first=4)
    with pytest.raises(OptionError):
        ENGINE.deal(9, red_side=2)


def test_first_seat_alternates_sides_between_games_of_a_match() -> None:
    starts = [ENGINE.starting_seat(game, 1, team_size=3) for game in range(4)]
    assert starts == [1, 2, 3, 4]
    assert [seat % 2 for seat in starts] == [1, 0, 1, 0]
    state = ENGINE.new_game(deal=ENGINE.deal(4, first=starts[1]))
    assert ENGINE.to_move(state) == 2


def test_seats_move_clockwise() -> None:
    state = ENGINE.new_game(seed=2, team_size=3)
    seats = []
    for _ in range(8):
        seats.append(ENGINE.to_move(state))
        state = ENGINE.play(state, ENGINE.legal_moves(state)[0])
    first = seats[0]
    assert seats == [(first + i) % 6 for i in range(8)]


# -- the first card ---------------------------------------------------------------------


def test_first_card_any_suit_rank_2_to_10_at_0_0() -> None:
    state = ENGINE.new_game(deal=ENGINE.deal(1, first=0, red_side=0))
    hand = ENGINE.to_dict(state)["hands"][0]
    expected = sorted(f"{card}@0,0" for card in hand if card[0] in "6789T")
    assert sorted(texts(ENGINE.legal_moves(state))) == expected
    low = next(card for card in hand if card[0] in "6789T")
    after = ENGINE.play(state, f"{low}@0,0")
    assert ENGINE.to_dict(after)["table"] == {"0,0": low}


def test_first_card_may_be_a_two_with_52_cards() -> None:
    deal = ENGINE.deal(1, deck=52, first=0, red_side=0)
    if "2H" not in deal["hands"][0]:
        swapped = deal["hands"][0][0]
        deal["hands"][2] = [swapped if card == "2H" else card for card in deal["hands"][2]]
        deal["hands"][0][0] = "2H"
    state = ENGINE.new_game(deal=deal, deck=52)
    assert "2H@0,0" in texts(ENGINE.legal_moves(state))
    ENGINE.play(state, "2H@0,0")


def test_first_card_refusals() -> None:
    deal = {
        "hands": [
            ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
            ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
            ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
            ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
        ],
        "first": 0,
        "red_side": 0,
    }
    state = ENGINE.new_game(deal=deal)
    illegal(state, "JH@0,0", "rank 2 to 10")
    illegal(state, "AH@0,0", "rank 2 to 10")
    illegal(state, "TH@1,0", "first card is laid at 0,0")
    illegal(state, "TC@0,0", "not in seat 0's hand")
    illegal(state, "2H@0,0", "no 2H in the 36-card deck")
    ENGINE.play(state, "TH@0,0")


def test_seat_without_a_low_card_passes_first_then_plays_again() -> None:
    deal = {
        "hands": [
            ["JH", "QH", "KH", "AH", "JD", "QD"],
            ["6C", "7C", "8C", "9C", "TC", "JC"],
            ["6H", "7H", "8H", "9H", "TH", "KD"],
            ["QC", "KC", "AC", "6S", "7S", "8S"],
            ["6D", "7D", "8D", "9D", "TD", "AD"],
            ["9S", "TS", "JS", "QS", "KS", "AS"],
        ],
        "first": 0,
        "red_side": 0,
    }
    state = ENGINE.new_game(deal=deal, team_size=3)
    assert ENGINE.legal_moves(state) == [PASS]
    illegal(state, "JH@0,0", "rank 2 to 10")
    state = ENGINE.play(state, "pass")
    doc = ENGINE.to_dict(state)
    assert doc["revealed"] == ["JH", "QH", "KH", "AH", "JD", "QD"]
    assert ENGINE.observation(state, 3)["revealed_by_seat"][0] == doc["revealed"]
    state = ENGINE.play(state, "6C@0,0")
    for _ in range(4):  # seats 2..5 lay cards around
        state = ENGINE.play(state, ENGINE.legal_moves(state)[0])
    assert ENGINE.to_move(state) == 0
    moves = texts(ENGINE.legal_moves(state))
    assert moves and moves != ["pass"]
    state = ENGINE.play(state, moves[0])
    shown = ENGINE.to_dict(state)["revealed"]
    assert moves[0].split("@")[0] not in shown
    assert len(shown) == 5  # the rest of the hand stays revealed


# -- the four principles --------------------------------------------------------------


def test_continuity() -> None:
    state = load({"0,0": "8H"}, {1: ["9C"]}, to_move=1)
    illegal(state, "9C@2,0", "touches no card")
    illegal(state, "9C@1,1", "touches no card")
    illegal(state, "9C@500,-7", "touches no card")
    ENGINE.play(state, "9C@1,0")
    ENGINE.play(state, "9C@0,-1")


def test_cell_already_taken() -> None:
    state = load({"0,0": "8H"}, {1: ["9C"]}, to_move=1)
    illegal(state, "9C@0,0", "already holds 8H")


def _row(cards: list[str], y: int = 0) -> dict[str, str]:
    return {f"{x},{y}": card for x, card in enumerate(cards)}


# alternating colours, each card higher than its left neighbour: a legal layout
ROW_36 = ["6H", "7C", "8D", "9S", "TH", "JC", "QD", "KS", "AH"]
ROW_52 = ["2H", "3C", "4D", "5S", "6H", "7C", "8D", "9S", "TH", "JC", "QD", "KS", "AH"]
COLUMN = {"0,0": "6H", "0,1": "7C", "0,2": "8D", "0,3": "9S"}


def test_rectangle_36_cards_is_9_wide_and_4_tall() -> None:
    state = load(_row(ROW_36[:8]), {0: ["AD"]}, to_move=0)
    ENGINE.play(state, "AD@8,0")  # the 9th column
    state = load(_row(ROW_36), {1: ["AS"]}, to_move=1)
    illegal(state, "AS@9,0", "10 columns wide, more than 9 .rectangle.")
    illegal(state, "AS@-1,0", "10 columns wide, more than 9")
    ENGINE.play(state, "AS@1,1")
    state = load(COLUMN, {0: ["AH", "AD"]}, to_move=0)
    illegal(state, "AH@0,4", "5 rows tall, more than 4 .rectangle.")
    illegal(state, "AD@0,-1", "5 rows tall, more than 4")
    ENGINE.play(state, "AD@1,0")


def test_rectangle_52_cards_is_13_wide() -> None:
    state = load(_row(ROW_52), {1: ["AS"]}, to_move=1, deck_size=52)
    illegal(state, "AS@13,0", "14 columns wide, more than 13")
    illegal(state, "AS@-1,0", "14 columns wide, more than 13")
    assert "AS@10,1" in texts(ENGINE.legal_moves(state))


def test_orientation_is_fixed() -> None:
    # columns are 4 tall: a vertical line of 5 is never allowed, a row of 6 is
    state = load(COLUMN, {0: ["AH", "AD"]}, to_move=0)
    moves = ENGINE.legal_moves(state)
    assert moves and all(move.y in range(0, 4) for move in moves)
    assert not any(move.x == 0 for move in moves)
    wide = load(_row(ROW_36[:5]), {1: ["AS"]}, to_move=1)
    assert "AS@5,0" in texts(ENGINE.legal_moves(wide))


def test_diversity() -> None:
    state = load({"0,0": "8H", "1,0": "9C"}, {0: ["9H", "TH", "6D"]}, to_move=0)
    illegal(state, "9H@-1,0", "9H would touch 8H at 0,0, a card of the same suit .diversity.")
    illegal(state, "9H@0,1", "same suit")
    # a card of the other red suit may touch a heart, whatever its rank
    ENGINE.play(state, "6D@-1,0")
    # diagonal neighbours do not count: TH at 1,1 touches only 9C
    ENGINE.play(state, "TH@1,1")


def test_seniority_without_own_colour_must_beat_a_neighbour() -> None:
    state = load({"0,0": "8H"}, {1: ["8C", "9C", "7S"]}, to_move=1)
    illegal(state, "8C@1,0", "touches no black card.*lowest is 8H at 0,0.*seniority")
    illegal(state, "7S@1,0", "seniority")
    ENGINE.play(state, "9C@1,0")


def test_seniority_needs_only_one_lower_neighbour() -> None:
    # cell 0,1 touches 8H (above) and TD (right): both red, the lowest is 8
    table = {"0,0": "8H", "1,0": "9C", "1,1": "TD"}
    state = load(table, {1: ["9S", "8S"]}, to_move=1)
    ENGINE.play(state, "9S@0,1")  # higher than 8H, lower than TD: allowed
    illegal(state, "8S@0,1", "lowest is 8H at 0,0 .seniority.")


def test_seniority_waived_next_to_own_colour() -> None:
    state = load({"0,0": "TH"}, {0: ["6D"]}, to_move=0)
    ENGINE.play(state, "6D@1,0")  # lower, but touches a red card of another suit
    # cell 1,1 touches JC (above) and QD (left): a low card of either colour fits
    table = {"0,0": "TH", "1,0": "JC", "0,1": "QD"}
    red = load(table, {0: ["6H"]}, to_move=0)
    assert "6H@1,1" in texts(ENGINE.legal_moves(red))
    black = load(table, {1: ["6S"]}, to_move=1)
    assert "6S@1,1" in texts(ENGINE.legal_moves(black))
    # only red neighbours: the rank condition is back
    table = {"0,0": "TH", "1,0": "JC", "1,1": "QD"}
    state = load(table, {1: ["6S"]}, to_move=1)
    illegal(state, "6S@0,1", "touches no black card")


def test_moving_is_compulsory() -> None:
    state = load({"0,0": "8H"}, {1: ["9C"]}, to_move=1)
    illegal(state, "pass", "moving is compulsory: seat 1 can lay a card")


# -- passing, revealing and the end -----------------------------------------------------


def _games(count: int, **options: Any) -> Iterator[StolbikiState]:
    for seed in range(count):
        state = ENGINE.new_game(seed=seed, **options)
        play_randomly(state, random.Random(seed))
        yield state


def test_a_seat_that_passed_plays_again_when_a_card_fits() -> None:
    found = 0
    for state in _games(40):
        history = ENGINE.to_dict(state)["history"]
        first = ENGINE.initial_deal(state)["first"]
        passed: set[int] = set()
        for index, move in enumerate(history):
            seat = (first + index) % 4
            if move == "pass":
                passed.add(seat)
            elif seat in passed:
                found += 1
    assert found > 0


def test_pass_reveals_the_hand_and_stays_revealed() -> None:
    for state in _games(15):
        replayed = ENGINE.new_game(deal=ENGINE.initial_deal(state))
        passed: set[int] = set()
        for move in ENGINE.to_dict(state)["history"]:
            seat = ENGINE.to_move(replayed)
            if move == "pass":
                assert ENGINE.legal_moves(replayed) == [PASS]
                passed.add(seat)
            replayed = ENGINE.play(replayed, move)
            doc = ENGINE.to_dict(replayed)
            expected = [card for s in sorted(passed) for card in doc["hands"][s]]
            assert sorted(doc["revealed"]) == sorted(expected)


def test_the_game_ends_when_no_seat_can_lay_a_card() -> None:
    ended_with_cards = 0
    for state in _games(20, team_size=3):
        doc = ENGINE.to_dict(state)
        assert ENGINE.is_over(state)
        assert ENGINE.legal_moves(state) == []
        assert reference.legal_moves(doc) == []
        ended_with_cards += any(doc["hands"])
        illegal(state, "pass", "the game is over")
        # one move earlier the game was not over
        previous = ENGINE.from_dict(doc)
        ENGINE.pop(previous)
        assert not ENGINE.is_over(previous)
    assert ended_with_cards > 0  # everyone stuck with cards left happens


def test_the_game_ends_when_all_cards_are_laid() -> None:
    for state in _games(40):
        if not any(ENGINE.to_dict(state)["hands"]):
            assert ENGINE.is_over(state)
            assert len(ENGINE.to_dict(state)["table"]) == 36
            return
    pytest.fail("no game laid every card")


def test_empty_hand_passes_while_others_play() -> None:
    for state in _games(200, team_size=3):
        doc = ENGINE.to_dict(state)
        replayed = ENGINE.new_game(deal=ENGINE.initial_deal(state), team_size=3)
        for move in doc["history"]:
            seat = ENGINE.to_move(replayed)
            if not ENGINE.to_dict(replayed)["hands"][seat]:
                assert move == "pass"
                assert ENGINE.legal_moves(replayed) == [PASS]
                return
            replayed = ENGINE.play(replayed, move)
    pytest.fail("no seat ran out of cards before the end")


# -- scoring ----------------------------------------------------------------------------


def test_scoring_by_columns_of_the_final_layout() -> None:
    table = {"0,0": "8H", "1,0": "9C", "1,1": "TD", "0,1": "JS", "2,1": "QC", "2,0": "KH"}
    doc = position(table, {}, red_side=0)
    result = score(ENGINE.from_dict(doc))
    # columns x=0: 8 red vs 11 black; x=1: 10 vs 9; x=2: 13 vs 12
    assert result["column_sums"] == [[8, 11], [10, 9], [13, 12]]
    assert result["points"] == [2, 1]  # red is side 0
    assert result["winner"] == 0
    assert result["margin"] == [31 - 32, 32 - 31]
    flipped = score(ENGINE.from_dict(position(table, {}, red_side=1)))
    assert flipped["points"] == [1, 2]
    assert flipped["winner"] == 1
    assert flipped["column_sums"] == result["column_sums"]  # always [red, black]


def test_equal_column_gives_no_point_and_equal_points_draw() -> None:
    table = {"0,0": "9H", "1,0": "TC", "1,1": "JD", "0,1": "JS", "2,0": "AD"}
    # x=0: 9 vs 11 black; x=1: 11 vs 10 red; x=2: 14 vs 0 red -> red 2, black 1
    result = score(ENGINE.from_dict(position(table, {}, red_side=0)))
    assert result["points"] == [2, 1]
    table = {"0,0": "9H", "1,0": "TC"}
    result = score(ENGINE.from_dict(position(table, {}, red_side=0)))
    assert result["column_sums"] == [[9, 0], [0, 10]]
    assert result["points"] == [1, 1]
    assert result["winner"] is None
    table = {"0,0": "9H", "0,1": "9D", "0,2": "TC", "0,3": "8S"}
    result = score(ENGINE.from_dict(position(table, {}, red_side=1)))
    assert result["column_sums"] == [[18, 18]]
    assert result["points"] == [0, 0]
    assert result["winner"] is None


def test_result_matches_the_naive_scorer_and_only_when_over() -> None:
    state = ENGINE.new_game(seed=3)
    with pytest.raises(ValueError, match="not over"):
        ENGINE.result(state)
    for state in _games(25, deck=52, team_size=1):
        doc = ENGINE.to_dict(state)
        result = ENGINE.result(state)
        naive = reference.score(doc)
        assert {key: result[key] for key in naive} == naive
        table_x = [int(key.split(",")[0]) for key in doc["table"]]
        assert len(result["column_sums"]) == max(table_x) - min(table_x) + 1


def test_placement_str_is_canonical() -> None:
    assert str(Placement("QS", 2, -1)) == "QS@2,-1"
