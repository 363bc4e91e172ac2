from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games.engines import get_engine
from pages.svg.boards import (
    BoardDrawingError,
    board_svg,
    card_label,
    column_scores,
    kazambi_svg,
    kugamai_svg,
    stolbiki_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def finished(name: str, seed: int) -> tuple[Any, Any]:
    engine = get_engine(name)
    state = engine.new_game(seed=seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        state = engine.play(state, rng.choice(engine.legal_moves(state)))
    return engine, state


def classes(root: ET.Element, tag: str) -> list[list[str]]:
    return [e.attrib.get("class", "").split() for e in root.iter(f"{SVG}{tag}")]


@pytest.mark.parametrize("name", ["kazambi", "kazambi-pairs", "anti-kazambi"])
def test_kazambi_draws_every_tile_and_value(name: str) -> None:
    engine, state = finished(name, 4)
    doc = engine.to_dict(state)
    root = ET.fromstring(kazambi_svg(doc, movers=[i % 2 for i in range(len(doc["history"]))]))
    tiles = [c for c in classes(root, "rect") if "tile" in c]
    assert len(tiles) == len(doc["history"])
    assert sum("last" in c for c in tiles) == 1
    assert {c[1] for c in tiles} == {"side0", "side1"}
    values = [t.text or "" for t in root.iter(f"{SVG}text")
              if "value" in t.attrib.get("class", "")]
    assert sorted(values) == sorted(v for row in doc["board"] for v in row if v != ".")


def test_kazambi_without_history_still_shows_values() -> None:
    doc = {"game": "kazambi", "board": ["12", ".."], "history": []}
    root = ET.fromstring(kazambi_svg(doc))
    assert [t.text for t in root.iter(f"{SVG}text") if "value" in t.attrib.get("class", "")] \
        == ["1", "2"]


def test_kugamai_draws_the_chain_and_its_open_end() -> None:
    engine, state = finished("kugamai", 7)
    doc = engine.to_dict(state)
    root = ET.fromstring(kugamai_svg(doc))
    tiles = [c for c in classes(root, "rect") if "tile" in c]
    assert len(tiles) == len(doc["chain"])
    assert f"Open end: {doc['chain'][-1].split('-')[1]}" in ET.tostring(root, "unicode")
    assert sum("double" in c for c in tiles) == sum(
        1 for t in doc["chain"] if t.split("-")[0] == t.split("-")[1])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stolbiki_column_sums_agree_with_the_engine(seed: int) -> None:
    engine, state = finished("stolbiki", seed)
    doc = engine.to_dict(state)
    result = engine.result(state)
    scores = column_scores(doc)
    assert [[s.red, s.black] for s in scores] == result["column_sums"]
    red, black = sum(s.taker == "red" for s in scores), sum(s.taker == "black" for s in scores)
    assert (red, black) == (result["points"][result["red_side"]],
                            result["points"][1 - result["red_side"]])
    root = ET.fromstring(stolbiki_svg(doc))
    assert len([c for c in classes(root, "rect") if "card" in c]) == len(doc["table"])


def test_card_labels() -> None:
    assert [card_label(c) for c in ("TS", "AH", "2D", "QC")] == ["10♠", "A♥", "2♦", "Q♣"]


@pytest.mark.parametrize("doc", [
    {"game": "kazambi", "board": "123"},
    {"game": "kazambi", "board": ["12", "3"]},
    {"game": "kugamai", "chain": [1, 2]},
    {"game": "kugamai", "chain": ["12"]},
    {"game": "stolbiki", "table": {"a,b": "TS"}},
    {"game": "stolbiki", "table": {"0,0": "1X"}},
    {"game": "chess"},
])
def test_bad_documents_are_value_errors(doc: dict[str, Any]) -> None:
    with pytest.raises(BoardDrawingError):
        board_svg(doc)
