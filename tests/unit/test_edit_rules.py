"""The Swiss rules a hand-edited round breaks (tournaments.pairing.edit_rules, pure)."""

from __future__ import annotations

from tournaments.pairing.edit_rules import (
    BYE_AGAIN,
    COLOUR_DIFFERENCE,
    FORBIDDEN,
    REPEAT,
    SAME_COLOUR_THREE,
    UNPAIRED,
    Board,
    Broken,
    PastRound,
    broken_rules,
)


def test_a_clean_round_breaks_nothing() -> None:
    earlier = [PastRound(((1, 2), (3, 4)))]
    assert broken_rules(earlier, [Board(3, 1), Board(2, 4)], [1, 2, 3, 4]) == []


def test_a_repeat_and_a_forbidden_pair_are_named_with_both_entrants() -> None:
    earlier = [PastRound(((1, 2), (3, 4)))]
    broken = broken_rules(earlier, [Board(2, 1), Board(3, 4)], [1, 2, 3, 4],
                          forbidden=[(4, 3)])
    assert broken == [Broken(REPEAT, (2, 1)), Broken(REPEAT, (3, 4)),
                      Broken(FORBIDDEN, (3, 4))]


def test_the_same_colour_a_third_time_in_a_row() -> None:
    # 1 moved second, then first twice (difference +1); 2 moved first, then second twice
    earlier = [PastRound(((2, 1),)), PastRound(((1, 3), (4, 2))), PastRound(((1, 4), (3, 2)))]
    assert broken_rules(earlier, [Board(1, 5)], [1, 5]) == [
        Broken(SAME_COLOUR_THREE, (1,))]
    assert broken_rules(earlier, [Board(5, 2)], [2, 5]) == [
        Broken(SAME_COLOUR_THREE, (2,))]
    assert broken_rules(earlier, [Board(2, 1)], [1, 2]) == [Broken(REPEAT, (2, 1))]
    # a bye between does not break the run of colours (only games count)
    with_bye = [*earlier, PastRound((), frozenset({1}))]
    assert broken_rules(with_bye, [Board(1, 5)], [1, 5]) == [
        Broken(SAME_COLOUR_THREE, (1,))]


def test_a_colour_difference_above_two() -> None:
    earlier = [PastRound(((1, 2),)), PastRound(((3, 1),)), PastRound(((1, 4),)),
               PastRound(((1, 5),))]
    # 1: first, second, first, first = +2; first once more makes +3 (and three in a row)
    broken = broken_rules(earlier, [Board(1, 6)], [1, 6])
    assert Broken(COLOUR_DIFFERENCE, (1,)) in broken
    assert Broken(SAME_COLOUR_THREE, (1,)) in broken
    assert broken_rules(earlier, [Board(6, 1)], [1, 6]) == []


def test_a_second_pairing_allocated_bye_and_someone_left_without_a_board() -> None:
    earlier = [PastRound(((1, 2),), frozenset({3}))]
    broken = broken_rules(earlier, [Board(2, 1), Board(3)], [1, 2, 3, 4])
    assert broken == [Broken(REPEAT, (2, 1)), Broken(BYE_AGAIN, (3,)),
                      Broken(UNPAIRED, (4,))]
