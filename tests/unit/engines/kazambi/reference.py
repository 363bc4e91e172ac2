"""A deliberately naive Kazambi move generator over state documents, for cross-checks.

It knows nothing of the engine's masks: for every tile, orientation and pair of cells it
scans the rows and columns of the board as printed in the document.
"""

from __future__ import annotations

from typing import Any

LETTERS = "abcdefghijkl"


def cell(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def naive_moves(doc: dict[str, Any]) -> set[str]:
    """Every legal move text of the seat to move (empty set when it cannot move)."""
    board = doc["board"]
    rows, cols = len(board), len(board[0])
    hand = doc["hands"][doc["to_move"]]

    def free_of(value: int, row: int, col: int) -> bool:
        digit = str(value)
        column = "".join(board[r][col] for r in range(rows))
        return digit not in board[row] and digit not in column

    moves = set()
    for text in hand:
        low, high = int(text[0]), int(text[2])
        for first, second in {(low, high), (high, low)}:
            for row in range(rows):
                for col in range(cols):
                    for row2, col2 in ((row, col + 1), (row + 1, col)):
                        if row2 >= rows or col2 >= cols:
                            continue
                        if board[row][col] != "." or board[row2][col2] != ".":
                            continue
                        if free_of(first, row, col) and free_of(second, row2, col2):
                            moves.add(f"{first}-{second}@{cell(row, col)}{cell(row2, col2)}")
    return moves
