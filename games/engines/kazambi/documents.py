"""Reading and checking Kazambi documents: boards, hands and whole positions.

Every function raises :class:`DocumentError` with a message a director can act on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.errors import DocumentError, NotationError
from games.engines.kazambi.board import Geometry
from games.engines.kazambi.notation import TILE_TEXTS, parse_tile
from games.engines.kazambi.rules import hand_tiles
from games.engines.kazambi.state import EMPTY

_CELL_CHARS = frozenset("0123456.")


def board_rows(geometry: Geometry, cells: list[int] | tuple[int, ...]) -> list[str]:
    """The ``board`` key: one string per row, a digit per tile half, ``.`` per empty cell."""
    cols = geometry.cols
    return [
        "".join(
            "." if value == EMPTY else str(value) for value in cells[row * cols : row * cols + cols]
        )
        for row in range(geometry.rows)
    ]


def parse_board(geometry: Geometry, raw: object) -> list[int]:
    """Cells from a ``board`` list of row strings."""
    shape = f"{geometry.rows} rows of {geometry.cols} characters"
    if not isinstance(raw, list) or len(raw) != geometry.rows:
        raise DocumentError(f"'board' must be a list of {shape} (digits 0..6 or '.')")
    cells: list[int] = []
    for number, row in enumerate(raw, start=1):
        if not isinstance(row, str) or len(row) != geometry.cols:
            raise DocumentError(
                f"board row {number} must be a string of {geometry.cols} characters"
            )
        bad = set(row) - _CELL_CHARS
        if bad:
            raise DocumentError(
                f"board row {number} has {sorted(bad)[0]!r}: use digits 0..6 or '.' for empty"
            )
        cells.extend(EMPTY if char == "." else int(char) for char in row)
    return cells


def parse_hands(raw: object, seats: int) -> list[int]:
    """Hand masks from a list (one per seat) of lists of tile texts."""
    if not isinstance(raw, list) or len(raw) != seats:
        raise DocumentError(f"'hands' must be a list of {seats} lists of tiles, one per seat")
    hands: list[int] = []
    for seat, texts in enumerate(raw):
        if not isinstance(texts, list):
            raise DocumentError(f"seat {seat}'s hand must be a list of tiles like '2-5'")
        hand = 0
        for text in texts:
            try:
                tile = parse_tile(text)
            except NotationError as error:
                raise DocumentError(f"seat {seat}'s hand: {error}") from None
            if hand >> tile & 1:
                raise DocumentError(f"seat {seat}'s hand has {TILE_TEXTS[tile]} twice")
            hand |= 1 << tile
        hands.append(hand)
    return hands


def hand_texts(hand: int) -> list[str]:
    return [TILE_TEXTS[tile] for tile in hand_tiles(hand)]


def check_seat(raw: object, seats: int, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < seats:
        raise DocumentError(f"{what} must be a seat number 0..{seats - 1}, not {raw!r}")
    return raw


def check_position(
    geometry: Geometry, cells: list[int], hands: list[int], to_move: int, hand_size: int
) -> None:
    """Reject a position that no game could reach: the line rule broken, halves that no
    set of dominoes covers, hands that do not fit the tiles on the board or the turn."""
    _check_lines(geometry, cells)
    _check_tiling(geometry, cells)
    seats = len(hands)
    sizes = [hand.bit_count() for hand in hands]
    for seat, size in enumerate(sizes):
        if size > hand_size:
            raise DocumentError(f"seat {seat} holds {size} tiles; a seat is dealt {hand_size}")
    played = [hand_size - size for size in sizes]
    on_board = sum(1 for value in cells if value != EMPTY) // 2
    if sum(played) != on_board:
        raise DocumentError(
            f"the board holds {on_board} tiles but the hands have played {sum(played)} "
            f"(each seat is dealt {hand_size})"
        )
    first = (to_move - on_board) % seats
    for turn in range(seats):
        seat = (first + turn) % seats
        expected = on_board // seats + (1 if turn < on_board % seats else 0)
        if played[seat] != expected:
            raise DocumentError(
                f"tiles played per seat {played} do not fit seat {to_move} to move: seats "
                f"move in turn, so seat {seat} should have played {expected}"
            )
    _check_material(hands, hand_size)


def _check_material(hands: list[int], hand_size: int) -> None:
    union = 0
    for hand in hands:
        union |= hand
    if union.bit_count() > 14:
        raise DocumentError(
            f"the hands show {union.bit_count()} different tiles, but every seat's tiles "
            "come from the same 14"
        )
    if len(hands) == 4:
        for seat in (0, 1):
            common = hands[seat] & hands[seat + 2]
            if common:
                raise DocumentError(
                    f"partners {seat} and {seat + 2} both hold {hand_texts(common)[0]}: "
                    "a team's 14 tiles are split between the partners"
                )


def _lines(geometry: Geometry) -> Iterable[tuple[str, list[int]]]:
    rows, cols = geometry.rows, geometry.cols
    for row in range(rows):
        yield f"row {row + 1}", [row * cols + col for col in range(cols)]
    for col in range(cols):
        yield f"column {chr(ord('a') + col)}", [row * cols + col for row in range(rows)]


def _check_lines(geometry: Geometry, cells: list[int]) -> None:
    for name, line in _lines(geometry):
        seen: dict[int, list[int]] = {}
        for index, cell in enumerate(line):
            if cells[cell] != EMPTY:
                seen.setdefault(cells[cell], []).append(index)
        for value, places in seen.items():
            if len(places) > 2 or (len(places) == 2 and places[1] != places[0] + 1):
                where = ", ".join(geometry.cell_names[line[index]] for index in places)
                raise DocumentError(
                    f"{name} holds {len(places)} halves of value {value} ({where}): only the two "
                    "halves of one double may share a line"
                )


def _check_tiling(geometry: Geometry, cells: list[int]) -> None:
    """Equal neighbours must be one double; the other halves must pair up into dominoes."""
    cols = geometry.cols
    occupied = [cell for cell, value in enumerate(cells) if value != EMPTY]
    paired: set[int] = set()
    for cell in occupied:
        for other in _neighbours(geometry, cell):
            if other > cell and cells[other] == cells[cell]:
                if cell in paired or other in paired:
                    raise DocumentError(
                        f"cell {geometry.cell_names[cell]} would be half of two doubles"
                    )
                paired.update((cell, other))
    free = [cell for cell in occupied if cell not in paired]
    if len(free) % 2:
        raise DocumentError("the board has an odd number of tile halves")
    free_set = set(free)
    partner: dict[int, int] = {}

    def augment(cell: int, visited: set[int]) -> bool:
        for other in _neighbours(geometry, cell):
            if other in free_set and other not in visited:
                visited.add(other)
                if other not in partner or augment(partner[other], visited):
                    partner[other] = cell
                    return True
        return False

    for cell in free:
        row, col = divmod(cell, cols)
        if (row + col) % 2 == 0 and not augment(cell, set()):
            raise DocumentError(
                f"the halves on the board cannot be split into dominoes "
                f"(cell {geometry.cell_names[cell]} has no partner)"
            )
    if 2 * len(partner) != len(free):
        raise DocumentError("the halves on the board cannot be split into dominoes")


def _neighbours(geometry: Geometry, cell: int) -> list[int]:
    row, col = divmod(cell, geometry.cols)
    result = []
    if col > 0:
        result.append(cell - 1)
    if col + 1 < geometry.cols:
        result.append(cell + 1)
    if row > 0:
        result.append(cell - geometry.cols)
    if row + 1 < geometry.rows:
        result.append(cell + geometry.cols)
    return result


def expect_mapping_keys(
    doc: object, what: str, required: Iterable[str], optional: Iterable[str] = ()
) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise DocumentError(f"{what} must be a JSON object")
    required = list(required)
    missing = [key for key in required if key not in doc]
    if missing:
        raise DocumentError(f"{what} lacks {missing[0]!r}")
    unknown = sorted(set(doc) - set(required) - set(optional))
    if unknown:
        raise DocumentError(f"{what} has an unknown key {unknown[0]!r}")
    return doc
