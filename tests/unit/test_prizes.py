"""Prize lists worked out by hand: the arithmetic is in the comments, the code must agree."""

from __future__ import annotations

from collections.abc import Hashable
from decimal import Decimal

import pytest

from tournaments.prizes import (
    PlayerFacts,
    Prize,
    PrizeGroup,
    PrizeList,
    Standing,
    allocate,
    born_in_or_after,
    club_member,
    field_is,
    rating_band,
    unrated,
    women,
)


def cash(*amounts: int) -> tuple[Prize, ...]:
    return tuple(Prize(Decimal(amount)) for amount in amounts)


def won(result: PrizeList) -> dict[Hashable, tuple[str, int, Decimal]]:
    return {a.player: (a.group, a.place, a.cash) for a in result.awards}


D = Decimal


# A three-way tie for 2nd-4th overall. Prizes 1000, 500, 300, 200.
# A 7 points; B, C, D 6.5 (tie-break order B, C, D); E 6.
THREE_WAY = [Standing("A", 7), Standing("B", 6.5), Standing("C", 6.5), Standing("D", 6.5),
             Standing("E", 6)]
OVERALL_4 = PrizeGroup("overall", cash(1000, 500, 300, 200))


def test_a_three_way_tie_shared_by_hort() -> None:
    # Pool of places 2-4: 500 + 300 + 200 = 1000.
    # Half (500) shared equally: 500 / 3 = 166.666...
    # Half by tie-break order: B 500/2 = 250, C 300/2 = 150, D 200/2 = 100.
    # B 250 + 166.666 = 416.666 -> 416.66; C 316.666 -> 316.66; D 266.666 -> 266.66.
    # Paid 999.98: remainder 0.02.
    result = allocate(THREE_WAY, [OVERALL_4], method="hort")
    assert won(result) == {"A": ("overall", 1, D("1000.00")),
                           "B": ("overall", 2, D("416.66")),
                           "C": ("overall", 3, D("316.66")),
                           "D": ("overall", 4, D("266.66"))}
    (share,) = result.groups[0].shares
    assert share.method == "hort"
    assert share.places == (2, 4)
    assert share.players == ("B", "C", "D")
    assert share.pool == D(1000)
    assert share.amounts == (D("416.66"), D("316.66"), D("266.66"))
    assert share.remainder == D("0.02")
    assert result.award_of("B") is not None
    assert result.award_of("B").shared_with == ("C", "D")  # type: ignore[union-attr]
    assert result.award_of("E") is None


def test_the_same_tie_split_equally() -> None:
    # Pool 1000 / 3 = 333.333... -> 333.33 each; paid 999.99, remainder 0.01.
    result = allocate(THREE_WAY, [OVERALL_4], method="split")
    assert [won(result)[p][2] for p in "ABCD"] == [D("1000.00"), D("333.33"), D("333.33"),
                                                   D("333.33")]
    (share,) = result.groups[0].shares
    assert share.remainder == D("0.01")


def test_the_same_tie_decided_by_tiebreaks() -> None:
    # Nobody shares: B, C, D take 500, 300, 200 in tie-break order.
    result = allocate(THREE_WAY, [OVERALL_4], method="tiebreak")
    assert [won(result)[p][2] for p in "ABCD"] == [D(1000), D(500), D(300), D(200)]
    assert result.groups[0].shares == ()


# Promotion. Overall 1000, 500, 300; under-1800 band 200, 100.
PROMOTION_ROWS = [
    Standing("A", 7, PlayerFacts(rating=2100)),
    Standing("B", 6.5, PlayerFacts(rating=2000)),
    Standing("C", 6, PlayerFacts(rating=1750)),
    Standing("D", 5.5, PlayerFacts(rating=1700)),
    Standing("E", 5, PlayerFacts(rating=1650)),
    Standing("F", 4, PlayerFacts(rating=1900)),
]


def test_a_promotion_from_a_rating_band_to_third_overall() -> None:
    # By value: overall 1000 -> A, 500 -> B, 300 -> C (C is also the band's best, but
    # 300 > 200, so C is promoted to 3rd overall); band 200 -> D, band 100 -> E.
    band = PrizeGroup("under 1800", cash(200, 100), rating_band(None, 1799))
    result = allocate(PROMOTION_ROWS, [PrizeGroup("overall", cash(1000, 500, 300)), band])
    assert won(result) == {"A": ("overall", 1, D(1000)), "B": ("overall", 2, D(500)),
                           "C": ("overall", 3, D(300)),
                           "D": ("under 1800", 1, D(200)), "E": ("under 1800", 2, D(100))}


def test_the_more_valuable_band_prize_wins_over_third_overall() -> None:
    # Band 1st is 400 > overall 3rd 300: C (best under 1800) takes the band's 400, and
    # overall 3rd goes to the next player who holds nothing: D.
    band = PrizeGroup("under 1800", cash(400, 100), rating_band(None, 1799))
    result = allocate(PROMOTION_ROWS, [PrizeGroup("overall", cash(1000, 500, 300)), band])
    assert won(result)["C"] == ("under 1800", 1, D(400))
    assert won(result)["D"] == ("overall", 3, D(300))
    assert won(result)["E"] == ("under 1800", 2, D(100))


# A tie at the cut-off. Overall 300, 200, 100: A 5, B 4.5, then C, D, E 4, F 3.
CUT_ROWS = [Standing("A", 5), Standing("B", 4.5), Standing("C", 4), Standing("D", 4),
            Standing("E", 4), Standing("F", 3)]
OVERALL_3 = PrizeGroup("overall", cash(300, 200, 100))


def test_a_tie_at_the_cut_off_decided_by_tiebreaks() -> None:
    # C takes 3rd by tie-break; D and E, tied with C, are listed at the cut-off.
    result = allocate(CUT_ROWS, [OVERALL_3], method="tiebreak")
    assert won(result) == {"A": ("overall", 1, D(300)), "B": ("overall", 2, D(200)),
                           "C": ("overall", 3, D(100))}
    assert result.groups[0].tied_at_cut == ("D", "E")


def test_a_tie_at_the_cut_off_split() -> None:
    # C, D, E occupy places 3-5; only place 3 has cash: pool 100 / 3 = 33.33 each,
    # remainder 0.01. D and E share without a prize of their own (prize None).
    result = allocate(CUT_ROWS, [OVERALL_3], method="split")
    assert {p: won(result)[p] for p in "CDE"} == {"C": ("overall", 3, D("33.33")),
                                                  "D": ("overall", 4, D("33.33")),
                                                  "E": ("overall", 5, D("33.33"))}
    assert result.award_of("D").prize is None  # type: ignore[union-attr]
    (share,) = result.groups[0].shares
    assert (share.places, share.pool, share.remainder) == ((3, 5), D(100), D("0.01"))
    assert result.groups[0].tied_at_cut == ("D", "E")


def test_a_tie_at_the_cut_off_by_hort() -> None:
    # Pool 100: half (50) equally, 16.666 each; half by place: C 50, D 0, E 0.
    # C 66.666 -> 66.66; D, E 16.666 -> 16.66; paid 99.98, remainder 0.02.
    result = allocate(CUT_ROWS, [OVERALL_3], method="hort")
    assert [won(result)[p][2] for p in "CDE"] == [D("66.66"), D("16.66"), D("16.66")]
    assert result.groups[0].shares[0].remainder == D("0.02")


def test_a_player_tied_at_the_cut_off_keeps_another_groups_prize() -> None:
    # D is the only woman: women's prize 150. By value: 300 A, 200 B, 150 D, 100 C.
    # Split: overall places past B are C, E (D holds the women's prize): C and E share
    # 100 -> 50 each; D keeps 150 and is still listed as tied at the cut-off.
    rows = [row if row.player != "D" else Standing("D", 4, PlayerFacts(sex="F"))
            for row in CUT_ROWS]
    result = allocate(rows, [OVERALL_3, PrizeGroup("women", cash(150), women)],
                      method="split")
    assert won(result) == {"A": ("overall", 1, D(300)), "B": ("overall", 2, D(200)),
                           "C": ("overall", 3, D("50.00")), "D": ("women", 1, D(150)),
                           "E": ("overall", 4, D("50.00"))}
    assert result.groups[0].tied_at_cut == ("D", "E")


def test_a_non_cash_prize_in_a_tie_is_not_split() -> None:
    # 1st: 500 and a trophy; 2nd 300. A and B tied on 5 (tie-break order A, B).
    # Split: cash pool 800 / 2 = 400 each; the trophy goes to A by tie-break.
    # Hort: A 500/2 + 800/4 = 450, B 300/2 + 200 = 350; the trophy again to A.
    group = PrizeGroup("overall", (Prize(D(500), "trophy"), Prize(D(300))))
    rows = [Standing("A", 5), Standing("B", 5), Standing("C", 4)]
    split = allocate(rows, [group], method="split")
    assert [(a.player, a.cash, a.item) for a in split.awards] == [
        ("A", D(400), "trophy"), ("B", D(400), "")]
    hort = allocate(rows, [group], method="hort")
    assert [(a.player, a.cash, a.item) for a in hort.awards] == [
        ("A", D(450), "trophy"), ("B", D(350), "")]


def test_an_item_only_prize_goes_by_tiebreak() -> None:
    # Juniors: a chess clock (valued 80), then a book (valued 20); J1 and J2 tied.
    # Nothing to pool: J1 takes the clock, J2 the book, no share recorded.
    group = PrizeGroup("juniors", (Prize(item="chess clock", value=D(80)),
                                   Prize(item="book", value=D(20))), born_in_or_after(2010))
    rows = [Standing("S", 6, PlayerFacts(birth_year=1980)),
            Standing("J1", 4, PlayerFacts(birth_year=2011)),
            Standing("J2", 4, PlayerFacts(birth_year=2012))]
    result = allocate(rows, [group], method="split")
    assert [(a.player, a.item, a.cash) for a in result.awards] == [
        ("J1", "chess clock", D(0)), ("J2", "book", D(0))]
    assert result.groups[0].shares == ()


def test_categories_and_unawarded_places() -> None:
    rows = [Standing("R", 3, PlayerFacts(rating=1500, club="Nairobi")),
            Standing("U", 2, PlayerFacts(fields={"federation": "KEN"}))]
    groups = [PrizeGroup("unrated", cash(50, 30), unrated),
              PrizeGroup("club", cash(40), club_member("Nairobi")),
              PrizeGroup("Kenya", cash(20), field_is("federation", "KEN"))]
    result = allocate(rows, groups)
    assert won(result) == {"U": ("unrated", 1, D(50)), "R": ("club", 1, D(40))}
    assert result.groups[0].unawarded == (2,)
    assert result.groups[2].unawarded == (1,)


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="must not grow"):
        PrizeGroup("overall", cash(100, 200))
    with pytest.raises(ValueError, match="cash or an item"):
        Prize()
    with pytest.raises(ValueError, match="value cannot be negative"):
        Prize(item="book", value=D(-1))
    with pytest.raises(ValueError, match="unknown tie method"):
        allocate([], [], method="lottery")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="twice"):
        allocate([Standing("A", 1), Standing("A", 1)], [])


def test_a_player_tied_at_two_cut_offs_shares_in_one_group_only() -> None:
    # Overall 300, 200, 100; under-1800 band 50. A 5, B 4.5, then C, D, E on 4 (C 2000,
    # D 1700, E 1600). By value: A 300, B 200, C 100, band 50 -> D. E holds nothing and is
    # tied at both cut-offs. Split: E shares in the group listed first (overall): C and E
    # 100 / 2 = 50 each; in the band E no longer counts, so D keeps the 50 whole.
    rows = [Standing(name, points, PlayerFacts(rating=rating)) for name, points, rating in
            [("A", 5, 2000), ("B", 4.5, 2000), ("C", 4, 2000), ("D", 4, 1700), ("E", 4, 1600)]]
    band = PrizeGroup("under 1800", cash(50), rating_band(None, 1799))
    result = allocate(rows, [OVERALL_3, band], method="split")
    assert [(a.player, a.group, a.cash) for a in result.awards] == [
        ("A", "overall", D(300)), ("B", "overall", D(200)), ("C", "overall", D(50)),
        ("D", "under 1800", D(50)), ("E", "overall", D(50))]
    assert result.groups[1].tied_at_cut == ("E",)
