"""The Kazambi engines (docs/rules/kazambi.md): one core, variants as subclasses.

>>> engine = KazambiEngine()
>>> state = engine.new_game(seed=1, rows=3, cols=4)
>>> len(engine.legal_moves(state)) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from games.engines.base import Document, Engine, Result, Seed
from games.engines.errors import (
    DocumentError,
    EngineError,
    IllegalMoveError,
    NotationError,
    OptionError,
)
from games.engines.kazambi import rules
from games.engines.kazambi.board import geometry
from games.engines.kazambi.codes import (
    CODE_LIMIT,
    LegalCodes,
    code_of,
    is_legal_code,
    move_of,
    on_board,
    push_code,
)
from games.engines.kazambi.documents import (
    board_rows,
    check_position,
    check_seat,
    expect_mapping_keys,
    hand_texts,
    parse_board,
    parse_hands,
)
from games.engines.kazambi.notation import (
    MAX_SIDE,
    TILE_COUNT,
    TILE_TEXTS,
    KazambiMove,
    parse_move,
)
from games.engines.kazambi.state import EMPTY, KazambiState
from games.i18n import N_, Message

DEALT_TILES = 14
MIN_SIDE = 2


def draw_deal(rng: random.Random, seats: int) -> tuple[list[int], int]:
    """Hand masks and the first seat, drawn from ``rng``: 14 of the 28 tiles; two players
    both get them (one colour each); in pairs each team's copy is split 7/7 at random."""
    tiles = rng.sample(range(TILE_COUNT), DEALT_TILES)
    if seats == 2:
        hand = sum(1 << tile for tile in tiles)
        hands = [hand, hand]
    else:
        hands = [0] * seats
        for team in (0, 1):
            order = tiles.copy()
            rng.shuffle(order)
            half = DEALT_TILES // 2
            hands[team] = sum(1 << tile for tile in order[:half])
            hands[team + 2] = sum(1 << tile for tile in order[half:])
    return hands, rng.randrange(seats)


def _well_formed(move: KazambiMove) -> bool:
    """Whether a move object built by a caller names two values and two cells of some board."""
    fields = (move.value_x, move.value_y, move.row, move.col)
    if not all(type(field) is int for field in fields):
        return False
    row_y, col_y = move.cell_y
    return (
        0 <= move.value_x <= 6
        and 0 <= move.value_y <= 6
        and move.row >= 0
        and move.col >= 0
        and row_y < MAX_SIDE
        and col_y < MAX_SIDE
    )


class KazambiEngine(Engine[KazambiState]):
    """Two players, identical open hands; who cannot move on their turn loses."""

    name: ClassVar[str] = "kazambi"
    default_options: ClassVar[Mapping[str, Any]] = {"rows": 7, "cols": 8}
    perfect_information: ClassVar[bool] = True
    #: Seats at the table: 2, or 4 in pairs (partners opposite).
    seats: ClassVar[int] = 2
    #: Misère: the seat that cannot move wins instead of losing.
    misere: ClassVar[bool] = False

    @property
    def hand_size(self) -> int:
        return DEALT_TILES * 2 // self.seats

    # -- options -------------------------------------------------------------------

    def validate_options(self, options: dict[str, Any]) -> None:
        for key in ("rows", "cols"):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(N_("%(game)s: %(key)s must be a whole number, not %(value)r"),
                                  game=self.name, key=key, value=value)
            if not MIN_SIDE <= value <= MAX_SIDE:
                raise OptionError(N_("%(game)s: %(key)s must be %(low)s..%(high)s, not "
                                     "%(value)s"),
                                  game=self.name, key=key, low=MIN_SIDE, high=MAX_SIDE, value=value)

    def seat_count(self, **options: Any) -> int:
        self.options(**options)
        return self.seats

    # -- a game ----------------------------------------------------------------------

    def draw_deal(self, rng: random.Random) -> dict[str, Any]:
        """A deal document drawn from ``rng`` (what ``new_game(seed)`` deals)."""
        hands, first = draw_deal(rng, self.seats)
        return {"hands": [hand_texts(hand) for hand in hands], "first": first}

    def new_game(
        self,
        seed: Seed = None,
        *,
        deal: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> KazambiState:
        merged = self.options(**options)
        board = geometry(merged["rows"], merged["cols"])
        if deal is None:
            hands, first = draw_deal(self.rng(seed), self.seats)
            return KazambiState.start(board, hands, first)
        doc = expect_mapping_keys(deal, N_("the deal"), ("hands", "first"), ("board",))
        hands = parse_hands(doc["hands"], self.seats)
        first = check_seat(doc["first"], self.seats, N_("the deal's 'first'"))
        if "board" in doc:
            cells = parse_board(board, doc["board"])
        else:
            cells = [EMPTY] * board.size
            self._check_fresh_deal(hands)
        self._check_position(board.rows, board.cols, cells, hands, first)
        return KazambiState.start(board, hands, first, cells)

    def _check_fresh_deal(self, hands: list[int]) -> None:
        for seat, hand in enumerate(hands):
            if hand.bit_count() != self.hand_size:
                raise DocumentError(
                    N_("seat %(seat)s is dealt %(count)s tiles; %(game)s deals %(hand_size)s to "
                       "each seat"),
                    seat=seat, count=hand.bit_count(), game=self.name, hand_size=self.hand_size
                )
        team_a, team_b = hands[0] | hands[2 % self.seats], hands[1] | hands[3 % self.seats]
        if team_a != team_b:
            missing = hand_texts(team_a ^ team_b)[0]
            raise DocumentError(
                N_("both sides must hold the same %(dealt)s tiles, but only one has "
                   "%(missing)s"),
                dealt=DEALT_TILES, missing=missing
            )

    def _check_position(
        self, rows: int, cols: int, cells: list[int], hands: list[int], to_move: int
    ) -> None:
        check_position(geometry(rows, cols), cells, hands, to_move, self.hand_size)

    def to_move(self, state: KazambiState) -> int:
        return state.to_move

    def legal_moves(self, state: KazambiState) -> list[KazambiMove]:
        """Every placement of the seat to move, canonical order; empty once the game is over
        (Kazambi has no pass: a seat without a placement ends the game)."""
        return rules.moves_of(state, state.to_move)

    def legal_codes(self, state: KazambiState) -> LegalCodes:
        """The placements of :meth:`legal_moves` as codes (see :mod:`.codes`), in the same
        order, computed as they are asked for: its length costs nothing."""
        return LegalCodes(state)

    def move_count(self, state: KazambiState) -> int:
        """``len(legal_moves(state))`` without building the moves."""
        return rules.move_count(state, state.to_move)

    def move_text(self, state: KazambiState, code: int) -> str:
        text = str(move_of(state.geometry, code))
        state.geometry.codes[text] = code
        return text

    def move_object(self, state: KazambiState, code: int) -> KazambiMove:
        """The move object of a code (the one ``legal_moves`` gives for it)."""
        return move_of(state.geometry, code)

    def is_legal(self, state: KazambiState, move: Any) -> bool:
        if type(move) is int:
            return is_legal_code(state, move)
        return super().is_legal(state, move)

    def move_code(self, state: KazambiState, move: KazambiMove | str | int) -> int:
        """Check ``move`` (a code, a move object or a text) for the seat to move, without
        generating the other moves; return its code."""
        if type(move) is int:
            if is_legal_code(state, move):
                return move
            if not 0 <= move < CODE_LIMIT:
                raise NotationError(N_("move code %(code)s is not 0..%(last)s"), code=move,
                                    last=CODE_LIMIT - 1)
            geometry = state.geometry
            if not on_board(geometry, move):
                raise IllegalMoveError(
                    str(move), f"code {move} is off the {geometry.rows} x {geometry.cols} board"
                )
            parsed = move_of(geometry, move)
        else:
            known = state.geometry.codes.get(move) if isinstance(move, str) else None
            if known is not None and is_legal_code(state, known):
                return known
            parsed = self._read(move)
            code = code_of(state.geometry, parsed)
            if code is not None:
                if isinstance(move, str) and move == str(parsed):
                    state.geometry.codes[move] = code
                if is_legal_code(state, code):
                    return code
        label = move if isinstance(move, str) else str(parsed)
        raise IllegalMoveError(label, self._rule_broken(state, parsed))

    def _read(self, move: object) -> KazambiMove:
        """A move object from an object or a text (its legality unknown)."""
        if isinstance(move, KazambiMove):
            if not _well_formed(move):
                raise NotationError(N_("%(move)r is not a Kazambi placement"), move=tuple(move))
            return move
        if isinstance(move, str):
            if move.strip().lower() == "pass":
                raise IllegalMoveError(
                    move, N_("there is no pass in Kazambi: a seat that cannot move ends the game")
                )
            return parse_move(move)
        raise NotationError(N_("a move must be a text like '3-1@c2d2', not %(move)r"), move=move)

    def _rule_broken(self, state: KazambiState, move: KazambiMove) -> Message:
        """Why an illegal ``move`` is illegal, in words."""
        if not rules.has_move(state, state.to_move):
            return Message(N_("the game is over"))
        rule = rules.illegality(state, move, state.to_move)
        if rule is None:  # pragma: no cover - the codes and the rules disagree
            raise EngineError(N_("%(move)s: the engine's move checks disagree"), move=str(move))
        return rule

    def parse(self, state: KazambiState, move: KazambiMove | str) -> KazambiMove:
        """Check ``move`` for the seat to move; return it as a move object."""
        return move_of(state.geometry, self.move_code(state, move))

    def play(self, state: KazambiState, move: KazambiMove | str | int) -> KazambiState:
        code = self.move_code(state, move)
        after = state.copy()
        push_code(after, code)
        return after

    def push(self, state: KazambiState, move: KazambiMove | str | int) -> None:
        """Play ``move`` (a code, a move object or a text) in place, checked; :meth:`pop`
        takes it back."""
        if type(move) is int and is_legal_code(state, move):
            push_code(state, move)
        else:
            push_code(state, self.move_code(state, move))

    def pop(self, state: KazambiState) -> KazambiMove:
        """Take back the last move in place and return it."""
        if not state.history:
            raise EngineError(N_("no move to take back"))
        return rules.pop(state)

    def is_over(self, state: KazambiState) -> bool:
        return not rules.has_move(state, state.to_move)

    def result(self, state: KazambiState) -> Result:
        """``winner`` (a side), ``stuck_seat`` (the seat that could not move) and
        ``tiles_placed``."""
        if not self.is_over(state):
            raise EngineError(N_("%(game)s: the game is not over"), game=self.name)
        stuck = state.to_move
        winner = stuck % 2 if self.misere else 1 - stuck % 2
        return {"winner": winner, "stuck_seat": stuck, "tiles_placed": state.tiles_placed}

    def burnt(self, state: KazambiState, seat: int) -> list[str]:
        """Tiles of ``seat``'s hand that fit nowhere on the board: they never will again."""
        check_seat(seat, self.seats, N_("seat"))
        return [TILE_TEXTS[tile] for tile in rules.burnt_tiles(state, seat)]

    # -- documents -------------------------------------------------------------------

    def to_dict(self, state: KazambiState) -> Document:
        board = state.geometry
        return {
            "game": self.name,
            "options": {"rows": board.rows, "cols": board.cols},
            "to_move": state.to_move,
            "hands": [hand_texts(hand) for hand in state.hands],
            "history": [str(move) for move in state.history],
            "board": board_rows(board, state.cells),
        }

    def observation(self, state: KazambiState, seat: int) -> Document:
        """The whole position (hands are open) plus each seat's ``burnt`` tiles."""
        doc = self.to_dict(state)
        doc["burnt"] = [self.burnt(state, other) for other in range(self.seats)]
        return doc

    def from_dict(self, doc: Mapping[str, Any]) -> KazambiState:
        keys = ("game", "options", "to_move", "hands", "history", "board")
        doc = expect_mapping_keys(doc, N_("a kazambi state"), keys, ("burnt",))
        if doc["game"] != self.name:
            raise DocumentError(N_("document is for %(given)r, not %(game)r"),
                                given=doc['game'], game=self.name)
        raw_options = doc["options"]
        if not isinstance(raw_options, Mapping):
            raise DocumentError(N_("'options' must be an object like {\"rows\": 7, \"cols\": 8}"))
        try:
            options = self.options(**dict(raw_options))
        except OptionError as error:
            raise DocumentError(error.message) from None
        board = geometry(options["rows"], options["cols"])
        cells = parse_board(board, doc["board"])
        hands = parse_hands(doc["hands"], self.seats)
        to_move = check_seat(doc["to_move"], self.seats, N_("'to_move'"))
        history = doc["history"]
        if not isinstance(history, list):
            raise DocumentError(N_("'history' must be a list of move texts"))
        moves: list[KazambiMove] = []
        for number, text in enumerate(history, start=1):
            try:
                moves.append(parse_move(text))
            except NotationError as error:
                raise DocumentError(N_("history move %(number)s: %(error)s"),
                                    number=number, error=error) from None
        first = (to_move - len(moves)) % self.seats
        self._take_back(board.rows, board.cols, cells, hands, moves, first)
        self._check_position(board.rows, board.cols, cells, hands, first)
        state = KazambiState.start(board, hands, first, cells)
        for number, move in enumerate(moves, start=1):
            if not rules.has_move(state, state.to_move):
                raise DocumentError(N_("history move %(number)s, %(move)s: the game was already "
                                       "over"),
                                    number=number, move=move)
            rule = rules.illegality(state, move, state.to_move)
            if rule is not None:
                raise DocumentError(N_("history move %(number)s, %(move)s: %(rule)s"),
                                    number=number, move=move, rule=rule)
            rules.push(state, move)
        return state

    def _take_back(
        self,
        rows: int,
        cols: int,
        cells: list[int],
        hands: list[int],
        moves: list[KazambiMove],
        first: int,
    ) -> None:
        """Undo ``moves`` (the history) on ``cells`` and ``hands`` in place, last first."""
        for number in range(len(moves), 0, -1):
            move = moves[number - 1]
            seat = (first + number - 1) % self.seats
            row_y, col_y = move.cell_y
            if max(move.row, row_y) >= rows or max(move.col, col_y) >= cols:
                raise DocumentError(N_("history move %(number)s, %(move)s: off the %(rows)s x "
                                       "%(cols)s board"),
                                    number=number, move=move, rows=rows, cols=cols)
            cell_x = move.row * cols + move.col
            cell_y = row_y * cols + col_y
            if (cells[cell_x], cells[cell_y]) != (move.value_x, move.value_y):
                raise DocumentError(N_("history move %(number)s, %(move)s: the board does not show "
                                       "it"),
                                    number=number, move=move)
            if hands[seat] >> move.tile & 1:
                raise DocumentError(
                    N_("history move %(number)s, %(move)s: seat %(seat)s played %(tile)s but "
                       "still holds it"),
                    number=number, move=move, seat=seat, tile=TILE_TEXTS[move.tile]
                )
            cells[cell_x] = cells[cell_y] = EMPTY
            hands[seat] |= 1 << move.tile

    def initial_deal(self, state: KazambiState) -> dict[str, Any]:
        """Hands and first seat at the start; ``board`` too if the game started from a set
        position (a state loaded from a document without its full history)."""
        deal: dict[str, Any] = {
            "hands": [hand_texts(hand) for hand in state.start_hands],
            "first": state.start_first,
        }
        if any(value != EMPTY for value in state.start_cells):
            deal["board"] = board_rows(state.geometry, state.start_cells)
        return deal


class KazambiPairsEngine(KazambiEngine):
    """Four seats, partners opposite (team A = 0, 2; team B = 1, 3); the team of the seat
    that cannot move loses."""

    name: ClassVar[str] = "kazambi-pairs"
    seats: ClassVar[int] = 4


class AntiKazambiEngine(KazambiEngine):
    """Misère Kazambi: the player who cannot move on their turn wins."""

    name: ClassVar[str] = "anti-kazambi"
    misere: ClassVar[bool] = True


class AntiKazambiPairsEngine(KazambiPairsEngine):
    """Misère Kazambi pairs: the team of the seat that cannot move wins."""

    name: ClassVar[str] = "anti-kazambi-pairs"
    misere: ClassVar[bool] = True
