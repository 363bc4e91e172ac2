"""A deliberately naive Stolbiki rule book for cross-checks: it works on state documents
(card texts, ``"x,y"`` keys) and scans the whole rectangle for every candidate card."""

from __future__ import annotations

from typing import Any

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 2


def colour(card: str) -> str:
    return "red" if card[1] in "HD" else "black"


def columns(doc: dict[str, Any]) -> int:
    return 9 if doc["options"]["deck"] == 36 else 13


def table_cells(doc: dict[str, Any]) -> dict[tuple[int, int], str]:
    cells = {}
    for key, card in doc["table"].items():
        x, y = key.split(",")
        cells[int(x), int(y)] = card
    return cells


def fits(cells: dict[tuple[int, int], str], card: str, x: int, y: int, cols: int) -> bool:
    """Whether ``card`` may be laid at ``x,y`` on the table ``cells`` (all four rules)."""
    if not cells:
        return (x, y) == (0, 0) and rank(card) <= 10
    if (x, y) in cells:
        return False
    near = [cells[p] for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if p in cells]
    if not near:
        return False
    xs = [p[0] for p in cells] + [x]
    ys = [p[1] for p in cells] + [y]
    if max(xs) - min(xs) + 1 > cols or max(ys) - min(ys) + 1 > 4:
        return False
    if any(other[1] == card[1] for other in near):
        return False
    if any(colour(other) == colour(card) for other in near):
        return True
    return any(rank(card) > rank(other) for other in near)


def seat_moves(doc: dict[str, Any], seat: int) -> list[str]:
    cells = table_cells(doc)
    cols = columns(doc)
    moves = []
    for card in doc["hands"][seat]:
        for x in range(-cols - 1, cols + 2):
            for y in range(-5, 6):
                if fits(cells, card, x, y, cols):
                    moves.append(f"{card}@{x},{y}")
    return sorted(moves)


def legal_moves(doc: dict[str, Any]) -> list[str]:
    """Sorted legal move texts of the seat to move; ``["pass"]`` or ``[]`` when stuck."""
    moves = seat_moves(doc, doc["to_move"])
    if moves:
        return moves
    if any(seat_moves(doc, seat) for seat in range(len(doc["hands"]))):
        return ["pass"]
    return []


def score(doc: dict[str, Any]) -> dict[str, Any]:
    """Points per side and [red, black] per column, from the table only."""
    cells = table_cells(doc)
    xs = sorted({x for x, _ in cells})
    sums = []
    for x in range(xs[0], xs[-1] + 1):
        red = sum(rank(c) for (cx, _), c in cells.items() if cx == x and colour(c) == "red")
        black = sum(rank(c) for (cx, _), c in cells.items() if cx == x and colour(c) == "black")
        sums.append([red, black])
    red_points = sum(1 for red, black in sums if red > black)
    black_points = sum(1 for red, black in sums if black > red)
    points = [0, 0]
    points[doc["red_side"]] = red_points
    points[1 - doc["red_side"]] = black_points
    winner = None if points[0] == points[1] else points.index(max(points))
    return {"winner": winner, "points": points, "column_sums": sums}


def table_is_valid(doc: dict[str, Any]) -> bool:
    """Static checks every reachable table passes."""
    cells = table_cells(doc)
    if not cells:
        return True
    if (0, 0) not in cells or rank(cells[0, 0]) > 10:
        return False
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    if max(xs) - min(xs) + 1 > columns(doc) or max(ys) - min(ys) + 1 > 4:
        return False
    for (x, y), card in cells.items():
        for p in ((x + 1, y), (x, y + 1)):
            if p in cells and cells[p][1] == card[1]:
                return False
    return True
