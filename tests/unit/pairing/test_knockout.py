"""Knockout brackets: seeding, byes, advancing, placement, double elimination."""

from __future__ import annotations

import json
import random

import pytest

from tournaments.pairing.knockout import BYE, Bracket, KnockoutError, seeding_order


def play_out(bracket: Bracket, pick=min) -> None:  # type: ignore[no-untyped-def]
    """Play every match, the winner chosen by ``pick`` over the two seeds."""
    while bracket.playable():
        for match in bracket.playable():
            bracket.report(match.id, pick(match.entrants))


def first_round_pairs(bracket: Bracket) -> list[tuple[int | None, int | None]]:
    return [
        (m.entrants[0], m.entrants[1])
        for m in bracket.matches.values()
        if m.bracket == "W" and m.round == 1
    ]


def test_standard_seeding_order_for_16() -> None:
    order = seeding_order(16)
    pairs = [tuple(order[i : i + 2]) for i in range(0, 16, 2)]
    assert pairs == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_favourites_meet_as_late_as_possible(size: int) -> None:
    order = seeding_order(size)
    assert sorted(order) == list(range(1, size + 1))
    block = size
    while block >= 2:
        top_seeds_per_block = size // block
        for start in range(0, size, block):
            part = order[start : start + block]
            # each block holds exactly one of the top size/block seeds
            assert sum(1 for s in part if s <= top_seeds_per_block) == 1
        block //= 2


def test_seeding_order_rejects_non_powers_of_two() -> None:
    with pytest.raises(KnockoutError):
        seeding_order(6)


def test_byes_go_to_top_seeds() -> None:
    bracket = Bracket.single(13)
    assert bracket.size == 16
    byes = [m for m in bracket.matches.values() if m.status == "bye"]
    assert sorted(m.winner for m in byes) == [1, 2, 3]  # type: ignore[type-var]
    assert all(m.loser == BYE for m in byes)
    assert {m.id for m in bracket.playable()} == {f"W1-{i}" for i in (2, 3, 4, 6, 7)}
    round_two = bracket.matches["W2-1"]
    assert round_two.entrants == [1, None]


def test_single_elimination_favourites_win_and_places() -> None:
    bracket = Bracket.single(8)
    assert first_round_pairs(bracket) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    play_out(bracket)
    assert bracket.finished and bracket.champion == 1
    final = bracket.matches["W3-1"]
    assert final.entrants == [1, 2]
    assert bracket.placement() == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}


def test_single_elimination_third_place_match() -> None:
    bracket = Bracket.single(8, third_place=True)
    for match_id, winner in [("W1-1", 1), ("W1-2", 5), ("W1-3", 3), ("W1-4", 2)]:
        bracket.report(match_id, winner)
    assert bracket.placement()[4] == 5
    bracket.report("W2-1", 5)
    bracket.report("W2-2", 3)
    assert [m.id for m in bracket.playable()] == ["W3-1", "3RD"]
    assert bracket.matches["3RD"].entrants == [1, 2]
    # semi-final losers are not placed until the third-place match is played
    assert bracket.placement()[1] is None
    bracket.report("3RD", 2)
    bracket.report("W3-1", 3)
    assert bracket.placement() == {1: 4, 2: 3, 3: 1, 4: 5, 5: 2, 6: 5, 7: 5, 8: 5}


def test_third_place_with_a_bye_semi_final() -> None:
    bracket = Bracket.single(3, third_place=True)
    assert bracket.matches["W1-1"].status == "bye"
    bracket.report("W1-2", 3)
    assert bracket.matches["3RD"].status == "bye"
    bracket.report("W2-1", 3)
    assert bracket.placement() == {1: 2, 2: 3, 3: 1}


def test_reporting_errors_are_value_errors() -> None:
    bracket = Bracket.single(4)
    with pytest.raises(KnockoutError, match="no match"):
        bracket.report("X9", 1)
    with pytest.raises(KnockoutError, match="does not play"):
        bracket.report("W1-1", 2)
    with pytest.raises(KnockoutError, match="pending"):
        bracket.report("W2-1", 1)
    bracket.report("W1-1", 1)
    with pytest.raises(KnockoutError, match="done"):
        bracket.report("W1-1", 4)


@pytest.mark.parametrize("bad", [1, 0, 5000, "8", 2.0])
def test_bad_sizes(bad: object) -> None:
    with pytest.raises(KnockoutError):
        Bracket.single(bad)  # type: ignore[arg-type]


def test_bad_format() -> None:
    with pytest.raises(KnockoutError, match="format"):
        Bracket(8, "triple")  # type: ignore[arg-type]
    with pytest.raises(KnockoutError, match="third-place"):
        Bracket(8, "double", third_place=True)


def test_undo_only_when_nothing_depends_on_it() -> None:
    bracket = Bracket.single(4)
    bracket.report("W1-1", 4)
    bracket.report("W1-2", 2)
    bracket.report("W2-1", 4)
    with pytest.raises(KnockoutError, match="W2-1"):
        bracket.undo("W1-1")
    bracket.undo("W2-1")
    bracket.undo("W1-1")
    assert bracket.matches["W1-1"].status == "ready"
    assert bracket.matches["W2-1"].entrants == [None, 2]


def test_double_elimination_structure_for_8() -> None:
    bracket = Bracket.double(8)
    by_bracket: dict[str, int] = {}
    for match in bracket.matches.values():
        by_bracket[match.bracket] = by_bracket.get(match.bracket, 0) + 1
    assert by_bracket == {"W": 7, "L": 6, "GF": 2}
    rounds = sorted({m.round for m in bracket.matches.values() if m.bracket == "L"})
    assert rounds == [1, 2, 3, 4]
    # losers' round 2: survivors of L1 meet the W2 losers in reversed order
    sources = [m.sources[1].match for m in bracket.matches.values() if m.id.startswith("L2-")]
    assert sources == ["W2-2", "W2-1"]


def test_double_elimination_favourites_and_no_reset() -> None:
    bracket = Bracket.double(8)
    play_out(bracket)
    assert bracket.matches["GF"].entrants == [1, 2]
    assert bracket.matches["GF2"].status == "void"
    assert bracket.finished and bracket.champion == 1
    assert bracket.placement() == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7, 8: 7}


def test_grand_final_reset_when_losers_champion_wins() -> None:
    bracket = Bracket.double(4)
    play_out(bracket, pick=min)
    # Everything done except nothing: rebuild and let the losers' champion win GF.
    bracket = Bracket.double(4)
    for match_id, winner in [("W1-1", 1), ("W1-2", 2), ("W2-1", 1), ("L1-1", 3), ("L2-1", 2)]:
        bracket.report(match_id, winner)
    assert bracket.matches["GF"].entrants == [1, 2]
    bracket.report("GF", 2)
    assert not bracket.finished
    assert bracket.placement()[1] is None
    assert bracket.matches["GF2"].entrants == [1, 2]
    bracket.report("GF2", 2)
    assert bracket.champion == 2
    assert bracket.placement() == {1: 2, 2: 1, 3: 3, 4: 4}


def test_grand_final_without_reset_ends_at_once() -> None:
    bracket = Bracket.double(4, grand_final_reset=False)
    for match_id, winner in [("W1-1", 1), ("W1-2", 2), ("W2-1", 1), ("L1-1", 3), ("L2-1", 2)]:
        bracket.report(match_id, winner)
    bracket.report("GF", 2)
    assert bracket.finished and bracket.champion == 2
    assert "GF2" not in bracket.matches


@pytest.mark.parametrize("entrants", [2, 3, 5, 6, 7, 9, 12, 13, 17, 31, 33])
@pytest.mark.parametrize("fmt", ["single", "double"])
def test_random_play_completes_with_consistent_places(entrants: int, fmt: str) -> None:
    rng = random.Random(entrants)
    bracket = Bracket(entrants, fmt)  # type: ignore[arg-type]
    losses = dict.fromkeys(range(1, entrants + 1), 0)
    while bracket.playable():
        match = rng.choice(bracket.playable())
        winner = rng.choice(match.entrants)
        bracket.report(match.id, winner)  # type: ignore[arg-type]
        losses[match.loser] += 1  # type: ignore[index]
    assert bracket.finished
    places = bracket.placement()
    assert None not in places.values()
    assert sorted(places.values()).count(1) == 1  # type: ignore[type-var]
    assert places[bracket.champion] == 1  # type: ignore[index]
    allowed = 1 if fmt == "single" else 2
    assert all(count <= allowed for count in losses.values())
    assert sum(1 for c in losses.values() if c < allowed) == 1  # only the champion survives
    # places are "1 + number of entrants finishing strictly above"
    ranks = [p for p in places.values() if p is not None]
    for place in ranks:
        assert place == 1 + sum(1 for other in ranks if other < place)


def test_double_elimination_with_byes_drops_byes_too() -> None:
    bracket = Bracket.double(5)
    assert bracket.matches["L1-2"].status == "bye"  # both its sources were bye matches
    assert bracket.matches["L1-2"].winner == BYE
    assert bracket.matches["L1-1"].status == "pending"
    play_out(bracket)
    assert bracket.champion == 1
    assert bracket.placement() == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}


def test_round_trip_through_plain_dicts() -> None:
    rng = random.Random(7)
    bracket = Bracket.double(11)
    for _ in range(12):
        match = rng.choice(bracket.playable())
        bracket.report(match.id, rng.choice(match.entrants))  # type: ignore[arg-type]
    document = json.loads(json.dumps(bracket.to_dict()))
    again = Bracket.from_dict(document)
    assert again.to_dict() == bracket.to_dict()
    match = document["matches"][0]
    assert set(match) >= {"id", "bracket", "round", "slots", "entrants", "winner", "status"}
    sources = {slot["from"] for m in document["matches"] for slot in m["slots"]}
    assert sources == {"seed", "winner", "loser"}


def test_from_dict_rejects_bad_documents() -> None:
    with pytest.raises(KnockoutError, match="lacks"):
        Bracket.from_dict({"format": "single"})
    document = Bracket.single(4).to_dict()
    document["matches"][0]["status"] = "done"
    document["matches"][0]["winner"] = 3
    with pytest.raises(KnockoutError, match="does not play"):
        Bracket.from_dict(document)
    with pytest.raises(KnockoutError):
        Bracket.from_dict([])  # type: ignore[arg-type]
