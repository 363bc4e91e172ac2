"""Game positions as SVG, drawn from engine state documents (docs/rules/records.md).

- Kazambi: the grid with each cell's value; tiles outlined from the move history,
  light for side 0 (the white set), dark for side 1, the last move ringed.
- Kugamai: the chain in the order laid, wrapping in rows, the open end marked.
- Stolbiki: the layout with each column's red and black sums and who takes its point.

``movers`` (optional) gives the seat that made each history entry, for colouring.
Pure Python: no engine import, only the documents.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.engines import EngineError, game_facts
from pages.svg.markup import ENGLISH, Texts, element, esc, svg_document, text

CELL = 34
MARGIN = 22
LETTERS = "abcdefghijkl"
_KAZAMBI_MOVE = re.compile(r"([0-6])-([0-6])@([a-l])(\d{1,2})([a-l])(\d{1,2})")
_STOLBIKI_MOVE = re.compile(r"([2-9TJQKA][HDCS])@(-?\d+),(-?\d+)")


class BoardDrawingError(ValueError):
    """A state document that cannot be drawn."""


def _rows(doc: Mapping[str, Any]) -> list[str]:
    board = doc.get("board")
    if not isinstance(board, list) or not board or not all(isinstance(r, str) for r in board):
        raise BoardDrawingError("a Kazambi document has a 'board': a list of row strings")
    if len({len(row) for row in board}) != 1:
        raise BoardDrawingError("every row of a Kazambi board has the same length")
    return board


def _history(doc: Mapping[str, Any]) -> list[str]:
    history = doc.get("history") or []
    if not isinstance(history, list):
        raise BoardDrawingError("'history' in a state document is a list of move texts")
    return [str(move) for move in history]


def _side_class(movers: Sequence[int] | None, index: int) -> str:
    if movers is None or index >= len(movers):
        return "side-unknown"
    return f"side{movers[index] % 2}"


def _cell(letter: str, number: str) -> tuple[int, int]:
    return int(number) - 1, LETTERS.index(letter)


def kazambi_svg(doc: Mapping[str, Any], *, movers: Sequence[int] | None = None,
                title: str = "", id_prefix: str = "board", texts: Texts = ENGLISH) -> str:
    title = title or texts.gettext("Kazambi board")
    board = _rows(doc)
    rows, cols = len(board), len(board[0])
    history = _history(doc)
    width, height = 2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL
    body: list[str] = []
    for col in range(cols):
        body.append(text(MARGIN + col * CELL + CELL / 2, MARGIN - 7, LETTERS[col],
                         text_anchor="middle", class_="coord"))
    for row in range(rows):
        body.append(text(MARGIN - 6, MARGIN + row * CELL + CELL / 2 + 4, row + 1,
                         text_anchor="end", class_="coord"))
    for row in range(rows):
        for col in range(cols):
            body.append(element("rect", x=MARGIN + col * CELL, y=MARGIN + row * CELL,
                                width=CELL, height=CELL, class_="cell"))
    side_of_cell: dict[tuple[int, int], str] = {}
    for index, move in enumerate(history):
        match = _KAZAMBI_MOVE.fullmatch(move)
        if match is None:
            continue
        first, second = _cell(match[3], match[4]), _cell(match[5], match[6])
        if not all(0 <= r < rows and 0 <= c < cols for r, c in (first, second)):
            continue
        top, left = min(first[0], second[0]), min(first[1], second[1])
        tall = first[1] == second[1]
        side = _side_class(movers, index)
        last = " last" if index == len(history) - 1 else ""
        body.append(element(
            "rect", x=MARGIN + left * CELL + 2, y=MARGIN + top * CELL + 2,
            width=CELL - 4 if tall else 2 * CELL - 4, height=2 * CELL - 4 if tall else CELL - 4,
            rx=5, class_=f"tile {side}{last}",
        ))
        if tall:
            y = MARGIN + (top + 1) * CELL
            body.append(element("line", x1=MARGIN + left * CELL + 7, y1=y,
                                x2=MARGIN + (left + 1) * CELL - 7, y2=y, class_=f"pip-line {side}"))
        else:
            x = MARGIN + (left + 1) * CELL
            body.append(element("line", x1=x, y1=MARGIN + top * CELL + 7, x2=x,
                                y2=MARGIN + (top + 1) * CELL - 7, class_=f"pip-line {side}"))
        side_of_cell[first] = side_of_cell[second] = side
    filled = 0
    for row, line in enumerate(board):
        for col, value in enumerate(line):
            if value == ".":
                continue
            filled += 1
            body.append(text(MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2 + 6,
                             value, text_anchor="middle",
                             class_=f"value {side_of_cell.get((row, col), 'side-unknown')}"))
    values = {"rows": rows, "cols": cols, "filled": filled,
              "move": history[-1] if history else ""}
    description = (texts.ngettext("%(rows)d by %(cols)d board, %(filled)d cell filled; last "
                                  "move %(move)s.", "%(rows)d by %(cols)d board, %(filled)d "
                                  "cells filled; last move %(move)s.", filled)
                   if history else
                   texts.ngettext("%(rows)d by %(cols)d board, %(filled)d cell filled.",
                                  "%(rows)d by %(cols)d board, %(filled)d cells filled.",
                                  filled)) % values
    return svg_document(width, height, "".join(body), title=title, description=description,
                        class_="board kazambi", id_prefix=id_prefix)


TILE_HALF = 26
TILE_HEIGHT = 30
TILES_PER_ROW = 8
TILE_GAP = 4


def kugamai_svg(doc: Mapping[str, Any], *, movers: Sequence[int] | None = None,
                title: str = "", id_prefix: str = "board", texts: Texts = ENGLISH) -> str:
    title = title or texts.gettext("Kugamai chain")
    chain = doc.get("chain")
    if not isinstance(chain, list) or not all(isinstance(t, str) for t in chain):
        raise BoardDrawingError("a Kugamai document has a 'chain': a list of oriented tiles")
    history = _history(doc)
    laid_by: list[str] = []
    for index, move in enumerate(history):
        if move != "pass":
            laid_by.append(_side_class(movers, index))
    rows = max(1, -(-len(chain) // TILES_PER_ROW))
    tile_width = 2 * TILE_HALF
    width = 2 * MARGIN + TILES_PER_ROW * (tile_width + TILE_GAP)
    height = 2 * MARGIN + rows * (TILE_HEIGHT + 14) + 18
    body: list[str] = []
    open_end = ""
    for index, tile in enumerate(chain):
        halves = tile.split("-")
        if len(halves) != 2:
            raise BoardDrawingError(f"{tile!r} in the chain is not a tile like '4-1'")
        row, col = divmod(index, TILES_PER_ROW)
        x = MARGIN + col * (tile_width + TILE_GAP)
        y = MARGIN + row * (TILE_HEIGHT + 14)
        side = laid_by[index] if index < len(laid_by) else "side-unknown"
        double = " double" if halves[0] == halves[1] else ""
        last = " last" if index == len(chain) - 1 else ""
        body.append(element("rect", x=x, y=y, width=tile_width, height=TILE_HEIGHT, rx=5,
                            class_=f"tile {side}{double}{last}"))
        body.append(element("line", x1=x + TILE_HALF, y1=y + 5, x2=x + TILE_HALF,
                            y2=y + TILE_HEIGHT - 5, class_=f"pip-line {side}"))
        for half, value in enumerate(halves):
            body.append(text(x + half * TILE_HALF + TILE_HALF / 2, y + TILE_HEIGHT / 2 + 6,
                             value, text_anchor="middle", class_=f"value {side}"))
        body.append(text(x + TILE_HALF, y + TILE_HEIGHT + 11, index + 1, text_anchor="middle",
                         class_="coord"))
        open_end = halves[1]
    note = (texts.gettext("Open end: %(value)s") % {"value": open_end} if open_end
            else texts.gettext("The chain is empty"))
    body.append(text(MARGIN, height - MARGIN + 8, note, class_="caption"))
    passes = sum(1 for move in history if move == "pass")
    tiles = texts.ngettext("%(count)d tile in the chain", "%(count)d tiles in the chain",
                           len(chain)) % {"count": len(chain)}
    passed = texts.ngettext("%(count)d pass", "%(count)d passes", passes) % {"count": passes}
    description = texts.gettext("%(tiles)s; %(note)s; %(passes)s.") % {
        "tiles": tiles, "note": note[:1].lower() + note[1:], "passes": passed}
    return svg_document(width, height, "".join(body), title=title, description=description,
                        class_="board kugamai", id_prefix=id_prefix)


CARD_WIDTH = 36
CARD_HEIGHT = 50
SUITS = {"H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black"), "S": ("♠", "black")}
RANK_VALUES = {**{str(v): v for v in range(2, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


class ColumnScore(NamedTuple):
    x: int
    red: int
    black: int

    @property
    def taker(self) -> str | None:
        """"red", "black" or None for a level column."""
        return "red" if self.red > self.black else "black" if self.black > self.red else None


def _table(doc: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    table = doc.get("table")
    if not isinstance(table, Mapping):
        raise BoardDrawingError("a Stolbiki document has a 'table' mapping 'x,y' to cards")
    cards: dict[tuple[int, int], str] = {}
    for key, card in table.items():
        try:
            x_text, y_text = str(key).split(",")
            position = int(x_text), int(y_text)
        except ValueError:
            raise BoardDrawingError(f"{key!r} is not a table position like '2,-1'") from None
        if not isinstance(card, str) or len(card) != 2 or card[0] not in RANK_VALUES \
                or card[1] not in SUITS:
            raise BoardDrawingError(f"{card!r} at {key} is not a card like 'TS'")
        cards[position] = card
    return cards


def column_scores(doc: Mapping[str, Any]) -> list[ColumnScore]:
    """Each column's red and black sums, left to right (docs/rules/stolbiki.md, Scoring).

    >>> column_scores({"table": {"0,0": "7H", "0,1": "AS", "1,0": "JS"}})
    [ColumnScore(x=0, red=7, black=14), ColumnScore(x=1, red=0, black=11)]
    """
    cards = _table(doc)
    if not cards:
        return []
    xs = [x for x, _ in cards]
    scores = []
    for x in range(min(xs), max(xs) + 1):
        sums = {"red": 0, "black": 0}
        for (cx, _), card in cards.items():
            if cx == x:
                sums[SUITS[card[1]][1]] += RANK_VALUES[card[0]]
        scores.append(ColumnScore(x, sums["red"], sums["black"]))
    return scores


def card_label(card: str) -> str:
    """``"TS"`` -> ``"10♠"``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS[card[1]][0]


def stolbiki_svg(doc: Mapping[str, Any], *, movers: Sequence[int] | None = None,
                 title: str = "", id_prefix: str = "board", texts: Texts = ENGLISH) -> str:
    title = title or texts.gettext("Stolbiki table")
    cards = _table(doc)
    history = _history(doc)
    last_position = None
    for move in reversed(history):
        match = _STOLBIKI_MOVE.fullmatch(move)
        if match:
            last_position = (int(match[2]), int(match[3]))
            break
    if cards:
        min_x, max_x = min(x for x, _ in cards), max(x for x, _ in cards)
        min_y, max_y = min(y for _, y in cards), max(y for _, y in cards)
    else:
        min_x = max_x = min_y = max_y = 0
    columns, rows = max_x - min_x + 1, max_y - min_y + 1
    width = 2 * MARGIN + columns * CARD_WIDTH
    grid_bottom = MARGIN + rows * CARD_HEIGHT
    height = grid_bottom + 58
    body: list[str] = []
    for (x, y), card in sorted(cards.items()):
        left, top = MARGIN + (x - min_x) * CARD_WIDTH, MARGIN + (y - min_y) * CARD_HEIGHT
        colour = SUITS[card[1]][1]
        last = " last" if (x, y) == last_position else ""
        body.append(element("rect", x=left + 2, y=top + 2, width=CARD_WIDTH - 4,
                            height=CARD_HEIGHT - 4, rx=4, class_=f"card {colour}-card{last}"))
        rank = "10" if card[0] == "T" else card[0]
        body.append(text(left + CARD_WIDTH / 2, top + 21, rank, text_anchor="middle",
                         class_=f"rank {colour}"))
        body.append(text(left + CARD_WIDTH / 2, top + 39, SUITS[card[1]][0],
                         text_anchor="middle", class_=f"suit {colour}"))
    scores = column_scores(doc)
    points = {"red": 0, "black": 0}
    for score in scores:
        centre = MARGIN + (score.x - min_x) * CARD_WIDTH + CARD_WIDTH / 2
        body.append(text(centre, grid_bottom + 16, score.red, text_anchor="middle",
                         class_="sum red"))
        body.append(text(centre, grid_bottom + 32, score.black, text_anchor="middle",
                         class_="sum black"))
        taker = score.taker
        if taker:
            points[taker] += 1
            body.append(element("circle", cx=centre, cy=grid_bottom + 44, r=4,
                                class_=f"point {taker}"))
    body.append(text(2, grid_bottom + 16, texts.pgettext("red, one letter", "R"),
                     class_="sum red"))
    body.append(text(2, grid_bottom + 32, texts.pgettext("black, one letter", "B"),
                     class_="sum black"))
    cards_text = texts.ngettext("%(count)d card on the table", "%(count)d cards on the table",
                                len(cards)) % {"count": len(cards)}
    description = texts.ngettext(
        "%(cards)s in %(columns)d column; column points: red %(red)s, black %(black)s; "
        "column sums %(sums)s.",
        "%(cards)s in %(columns)d columns; column points: red %(red)s, black %(black)s; "
        "column sums %(sums)s.", columns) % {
            "cards": cards_text, "columns": columns, "red": points["red"],
            "black": points["black"], "sums": ", ".join(f"{s.red}-{s.black}" for s in scores)}
    return svg_document(width, height, "".join(body), title=title, description=description,
                        class_="board stolbiki", id_prefix=id_prefix)


def board_svg(doc: Mapping[str, Any], *, movers: Sequence[int] | None = None,
              id_prefix: str = "board", texts: Texts = ENGLISH) -> str:
    """The drawing for any game's state document, chosen by its game's family."""
    game = str(doc.get("game", ""))
    try:
        draw = _DRAWINGS[game_facts(game).family]
    except (EngineError, KeyError):
        raise BoardDrawingError(f"no drawing for the game {game!r}") from None
    return draw(doc, movers=movers, id_prefix=id_prefix, texts=texts)


_DRAWINGS = {"kazambi": kazambi_svg, "kugamai": kugamai_svg, "stolbiki": stolbiki_svg}


__all__ = ["BoardDrawingError", "ColumnScore", "board_svg", "card_label", "column_scores",
           "esc", "kazambi_svg", "kugamai_svg", "stolbiki_svg"]
