from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pages.svg.bracket import BracketDrawingError, bracket_svg
from tournaments.pairing.knockout import Bracket

SVG = "{http://www.w3.org/2000/svg}"


def play_out(bracket: Bracket, better_wins: bool = True) -> Bracket:
    while bracket.playable():
        match = bracket.playable()[0]
        seeds = [s for s in match.entrants if s]
        bracket.report(match.id, min(seeds) if better_wins else max(seeds))
    return bracket


def names(count: int) -> dict[int, str]:
    return {seed: f"Player {seed}" for seed in range(1, count + 1)}


def boxes(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["data-match"]: g for g in root.iter(f"{SVG}g") if "data-match" in g.attrib}


def champion_boxes(svg: str) -> list[str]:
    return [match_id for match_id, g in boxes(svg).items()
            if any("champion" in r.attrib.get("class", "").split()
                   for r in g.iter(f"{SVG}rect"))]


def test_single_elimination_with_third_place_draws_every_match_and_the_champion() -> None:
    bracket = play_out(Bracket.single(4, third_place=True))
    svg = bracket_svg(bracket.to_dict(), names(4))
    assert set(boxes(svg)) == {"W1-1", "W1-2", "W2-1", "3RD"}
    assert "Champion: Player 1" in svg
    assert champion_boxes(svg) == ["W2-1"]
    assert "3rd place" in svg


def test_double_elimination_with_a_reset_crowns_the_reset_winner() -> None:
    bracket = Bracket.double(6)
    while bracket.playable():
        match = bracket.playable()[0]
        if match.id == "GF":  # the losers' champion forces the reset
            bracket.report("GF", match.entrants[1] or 0)
        else:
            bracket.report(match.id, min(s for s in match.entrants if s))
    document = bracket.to_dict()
    assert {m["id"]: m["status"] for m in document["matches"]}["GF2"] == "done"
    svg = bracket_svg(document, names(6))
    drawn = boxes(svg)
    assert {"GF", "GF2"} <= set(drawn) and any(i.startswith("L") for i in drawn)
    assert champion_boxes(svg) == ["GF2"]
    assert f"Champion: Player {document['champion']}" in svg
    assert "Losers&#x27; bracket" in svg and "Reset" in svg


def test_reset_not_needed_when_the_winners_champion_takes_the_grand_final() -> None:
    bracket = play_out(Bracket.double(4), better_wins=True)
    svg = bracket_svg(bracket.to_dict(), names(4))
    assert champion_boxes(svg) == ["GF"]
    assert "match-box void" in svg


def test_an_unplayed_bracket_names_where_entrants_come_from() -> None:
    svg = bracket_svg(Bracket.single(8).to_dict(), names(8))
    assert "Winner of W1-1" in svg and "No champion yet" in svg
    assert "Champion:" not in svg and champion_boxes(svg) == []


def test_matches_are_named_in_words_when_their_names_are_given() -> None:
    bracket = Bracket.double(4)
    bracket.report("W1-1", 1)
    labels = {match_id: bracket.label(match_id) for match_id in bracket.matches}
    svg = bracket_svg(bracket.to_dict(), names(4), labels=labels, notes={"W1-2": "game 2"})
    shown = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")
             if t.attrib.get("class") == "match-id"]
    assert shown == ["Winners' semi-final 1", "Winners' semi-final 2 · game 2",
                     "Winners' final", "Losers' round 1, match 1", "Losers' final",
                     "Grand final", "Grand final (reset)"]
    assert "Winner of Winners&#x27; semi-final 2" in svg  # an open slot, by name
    assert not re.search(r">(W\d-\d|L\d-\d|GF2?)[<· ]", svg)


def test_byes_and_scores_are_shown() -> None:
    bracket = Bracket.single(3)
    bracket.report("W1-2", 3)
    svg = bracket_svg(bracket.to_dict(), names(3), {"W1-2": ("0", "2")})
    assert ">bye<" in svg
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "2" in texts and "0" in texts


def test_names_are_escaped_and_shortened() -> None:
    svg = bracket_svg(Bracket.single(2).to_dict(),
                      {1: "<script>alert(1)</script>", 2: "A very long name indeed for a box"})
    assert "<script>" not in svg
    ET.fromstring(svg)  # still well-formed
    assert "A very long name i…" in svg


@pytest.mark.parametrize("document", [None, {}, {"matches": "x"}, {"matches": [{"id": "W1-1"}]}])
def test_a_malformed_document_is_a_value_error(document: object) -> None:
    with pytest.raises(BracketDrawingError):
        bracket_svg(document, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("entrants", [2, 5, 9, 16])
def test_every_size_is_well_formed_and_accessible(entrants: int) -> None:
    for bracket in (play_out(Bracket.single(entrants)), play_out(Bracket.double(entrants))):
        root = ET.fromstring(bracket_svg(bracket.to_dict(), names(entrants)))
        assert root.attrib["role"] == "img"
        assert root.find(f"{SVG}title") is not None
        width = float(root.attrib["width"])
        for rect in root.iter(f"{SVG}rect"):
            assert float(rect.attrib.get("x", 0)) + float(rect.attrib.get("width", 0)) <= width
