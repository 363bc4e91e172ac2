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
from games.i18n import N_, Message

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
    shape = Message(N_("%(rows)s rows of %(cols)s characters"), rows=geometry.rows,
                    cols=geometry.cols)
    if not isinstance(raw, list) or len(raw) != geometry.rows:
        raise DocumentError(N_("'board' must be a list of %(shape)s (digits 0..6 or '.')"),
                            shape=shape)
    cells: list[int] = []
    for number, row in enumerate(raw, start=1):
        if not isinstance(row, str) or len(row) != geometry.cols:
            raise DocumentError(
                N_("board row %(number)s must be a string of %(cols)s characters"),
                number=number, cols=geometry.cols
            )
        bad = set(row) - _CELL_CHARS
        if bad:
            raise DocumentError(
                N_("board row %(number)s has %(bad)r: use digits 0..6 or '.' for empty"),
                number=number, bad=sorted(bad)[0]
            )
        cells.extend(EMPTY if char == "." else int(char) for char in row)
    return cells


def parse_hands(raw: object, seats: int) -> list[int]:
    """Hand masks from a list (one per seat) of lists of tile texts."""
    if not isinstance(raw, list) or len(raw) != seats:
        raise DocumentError(N_("'hands' must be a list of %(seats)s lists of tiles, one per seat"),
                            seats=seats)
    hands: list[int] = []
    for seat, texts in enumerate(raw):
        if not isinstance(texts, list):
            raise DocumentError(N_("seat %(seat)s's hand must be a list of tiles like '2-5'"),
                                seat=seat)
        hand = 0
        for text in texts:
            try:
                tile = parse_tile(text)
            except NotationError as error:
                raise DocumentError(N_("seat %(seat)s's hand: %(error)s"),
                                    seat=seat, error=error) from None
            if hand >> tile & 1:
                raise DocumentError(N_("seat %(seat)s's hand has %(tile)s twice"),
                                    seat=seat, tile=TILE_TEXTS[tile])
            hand |= 1 << tile
        hands.append(hand)
    return hands


def hand_texts(hand: int) -> list[str]:
    return [TILE_TEXTS[tile] for tile in hand_tiles(hand)]


def check_seat(raw: object, seats: int, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < seats:
        raise DocumentError(N_("%(what)s must be a seat number 0..%(last)s, not %(raw)r"),
                            what=Message(what), last=seats - 1, raw=raw)
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
            raise DocumentError(N_("seat %(seat)s holds %(size)s tiles; a seat is dealt "
                                   "%(hand_size)s"),
                                seat=seat, size=size, hand_size=hand_size)
    played = [hand_size - size for size in sizes]
    on_board = sum(1 for value in cells if value != EMPTY) // 2
    if sum(played) != on_board:
        raise DocumentError(
            N_("the board holds %(on_board)s tiles but the hands have played %(played)s (each seat "
               "is dealt %(hand_size)s)"),
            on_board=on_board, played=sum(played), hand_size=hand_size
        )
    first = (to_move - on_board) % seats
    for turn in range(seats):
        seat = (first + turn) % seats
        expected = on_board // seats + (1 if turn < on_board % seats else 0)
        if played[seat] != expected:
            raise DocumentError(
                N_("tiles played per seat %(played)s do not fit seat %(to_move)s to move: seats "
                   "move in turn, so seat %(seat)s should have played %(expected)s"),
                played=played, to_move=to_move, seat=seat, expected=expected
            )
    _check_material(hands, hand_size)


def _check_material(hands: list[int], hand_size: int) -> None:
    union = 0
    for hand in hands:
        union |= hand
    if union.bit_count() > 14:
        raise DocumentError(
            N_("the hands show %(count)s different tiles, but every seat's tiles come from the "
               "same 14"),
            count=union.bit_count()
        )
    if len(hands) == 4:
        for seat in (0, 1):
            common = hands[seat] & hands[seat + 2]
            if common:
                raise DocumentError(
                    N_("partners %(seat)s and %(partner)s both hold %(tile)s: a team's 14 tiles "
                       "are split between the partners"),
                    seat=seat, partner=seat + 2, tile=hand_texts(common)[0]
                )


def _lines(geometry: Geometry) -> Iterable[tuple[Message, list[int]]]:
    rows, cols = geometry.rows, geometry.cols
    for row in range(rows):
        yield (Message(N_("row %(row)s"), row=row + 1),
               [row * cols + col for col in range(cols)])
    for col in range(cols):
        yield (Message(N_("column %(column)s"), column=chr(ord("a") + col)),
               [row * cols + col for row in range(rows)])


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
                    N_("%(name)s holds %(count)s halves of value %(value)s (%(where)s): only the "
                       "two halves of one double may share a line"),
                    name=name, count=len(places), value=value, where=where
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
                        N_("cell %(cell)s would be half of two doubles"),
                        cell=geometry.cell_names[cell]
                    )
                paired.update((cell, other))
    free = [cell for cell in occupied if cell not in paired]
    if len(free) % 2:
        raise DocumentError(N_("the board has an odd number of tile halves"))
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
                N_("the halves on the board cannot be split into dominoes (cell %(cell)s has no "
                   "partner)"),
                cell=geometry.cell_names[cell]
            )
    if 2 * len(partner) != len(free):
        raise DocumentError(N_("the halves on the board cannot be split into dominoes"))


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
        raise DocumentError(N_("%(what)s must be a JSON object"), what=Message(what))
    required = list(required)
    missing = [key for key in required if key not in doc]
    if missing:
        raise DocumentError(N_("%(what)s lacks %(missing)r"), what=Message(what),
                            missing=missing[0])
    unknown = sorted(set(doc) - set(required) - set(optional))
    if unknown:
        raise DocumentError(N_("%(what)s has an unknown key %(key)r"), what=Message(what),
                            key=unknown[0])
    return doc
