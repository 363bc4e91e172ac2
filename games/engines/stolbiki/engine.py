"""The Stolbiki engine (docs/rules/stolbiki.md): rules, moves and results.

Decisions taken where the rules leave room (tested in tests/unit/engines/stolbiki):

- Sides: ``side = seat % 2``; the deal key ``red_side`` (drawn by lot) says which side
  is Red. ``team_size=1`` is the 1 v 1 game played as 2 v 2: seats 0 and 2 are player
  A's two piles, seats 1 and 3 player B's; the rules are exactly those of 2 v 2.
- A seat that cannot lay any card (an empty hand included) plays ``pass`` on its turn
  and from then on shows its hand (``revealed``). If the table later changes so that one
  of its cards fits, it must play it again (moving is compulsory); shown cards stay shown.
- The game is over as soon as no seat can lay a card: the engine checks every hand, so
  no run of passes is needed to detect it, and no pass is recorded then.
- Scoring: the columns of the final layout are those of its bounding box, left to right
  (the table is connected, so none of them is empty). A narrower box than the rectangle
  changes nothing: a missing column would be 0 against 0, no point. The Red colour's
  column points go to side ``red_side``, the Black ones to the other side.
- ``result`` also gives ``column_sums`` ([red, black] per column), ``red_side`` and
  ``margin``: per side, its card total on the table minus the other side's (the
  tie-break the rules suggest).
- Deals: ``{"hands", "first", "red_side"}`` (see :mod:`.deal`); ``new_game(seed)``
  draws all three by lot, ``deal(seed, first=...)`` fixes the first seat of a match
  game (``starting_seat`` passes it round, so it alternates sides) with the same hands.
  An explicit deal may leave out ``red_side``: the hands tell it.
- Documents add ``table`` (``"x,y"`` -> card), ``revealed`` and ``red_side`` to the
  common keys; see :mod:`.documents` for what loading checks.

>>> engine = StolbikiEngine()
>>> state = engine.new_game(deal=engine.deal(5, first=1, red_side=0))
>>> engine.to_move(state), [str(move) for move in engine.legal_moves(state)][:2]
(1, ['9C@0,0', 'TC@0,0'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.base import Document, Engine, Result, Seed
from games.engines.errors import (
    DocumentError,
    EngineError,
    IllegalMoveError,
    NotationError,
    OptionError,
)
from games.engines.stolbiki import documents
from games.engines.stolbiki.board import GEOMETRIES, position_text
from games.engines.stolbiki.cards import (
    CARD_TEXT,
    COLOUR,
    COLOUR_NAMES,
    DECK_SIZES,
    HIGHEST_FIRST_RANK,
    RANK,
    SUIT,
    card_text,
    deck_mask,
    parse_card,
)
from games.engines.stolbiki.deal import (
    deal_document,
    draw_deal,
    draw_hands,
    parse_deal,
    seat_count,
)
from games.engines.stolbiki.notation import PASS, Placement, parse_move
from games.engines.stolbiki.state import (
    CELL_BITS,
    CELL_MASK,
    PASS_CODE,
    StolbikiState,
    game_over,
    is_legal_code,
    legal_codes,
    place,
    placeable_cards,
    push_code,
    take_back,
)
from games.i18n import N_, Message

TEAM_SIZES = (1, 2, 3)


class StolbikiEngine(Engine[StolbikiState]):
    """Stolbiki for 2 v 2 or 3 v 3 seats (1 v 1 played as 2 v 2), 36 or 52 cards."""

    name = "stolbiki"
    default_options = {"deck": 36, "team_size": 2}
    perfect_information = False

    # -- options and deals ------------------------------------------------------------

    def validate_options(self, options: dict[str, Any]) -> None:
        deck = options["deck"]
        if isinstance(deck, bool) or deck not in DECK_SIZES:
            raise OptionError(N_("stolbiki: deck must be 36 or 52 cards, not %(deck)r"), deck=deck)
        team_size = options["team_size"]
        if isinstance(team_size, bool) or team_size not in TEAM_SIZES:
            raise OptionError(
                N_("stolbiki: team_size must be 1 (1 v 1 as two piles each), 2 or 3, not "
                   "%(team_size)r"),
                team_size=team_size
            )

    def seat_count(self, **options: Any) -> int:
        return seat_count(self.options(**options)["team_size"])

    def deal(
        self,
        seed: Seed = None,
        *,
        first: int | None = None,
        red_side: int | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """A deal document drawn from ``seed``; ``first`` and ``red_side`` may be fixed
        (a match passes the first move round, see ``starting_seat``) without changing
        the hands."""
        opts = self.options(**options)
        seats = seat_count(opts["team_size"])
        if first is not None and (isinstance(first, bool) or first not in range(seats)):
            raise OptionError(N_("stolbiki: seat %(first)r does not exist (0..%(last)s)"),
                              first=first, last=seats - 1)
        if red_side is not None and (isinstance(red_side, bool) or red_side not in (0, 1)):
            raise OptionError(N_("stolbiki: red_side must be 0 or 1, not %(red_side)r"),
                              red_side=red_side)
        return draw_deal(self.rng(seed), opts["deck"], seats, first, red_side)

    def new_game(
        self,
        seed: Seed = None,
        *,
        deal: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> StolbikiState:
        opts = self.options(**options)
        if deal is None:
            return self.deal_from(self.rng(seed), opts)
        seats = seat_count(opts["team_size"])
        hands, first, red_side = parse_deal(deal, opts["deck"], seats)
        return self.start(opts, hands, first, red_side)

    def deal_from(self, rng: random.Random, options: dict[str, Any]) -> StolbikiState:
        """A new game dealt from ``rng`` (options already validated)."""
        hands, first, red_side = draw_hands(
            rng, options["deck"], seat_count(options["team_size"])
        )
        return self.start(options, hands, first, red_side)

    def start(
        self, options: dict[str, Any], hands: list[int], first: int, red_side: int
    ) -> StolbikiState:
        """The starting position of a checked deal."""
        return StolbikiState(
            GEOMETRIES[options["deck"]],
            dict(options),
            seat_count(options["team_size"]),
            red_side,
            list(hands),
            first,
            (tuple(hands), first, red_side),
        )

    def initial_deal(self, state: StolbikiState) -> dict[str, Any]:
        if state.deal is None:
            raise DocumentError(
                N_("this position was loaded without its history, so its deal is unknown")
            )
        hands, first, red_side = state.deal
        return deal_document(list(hands), first, red_side)

    # -- moves ------------------------------------------------------------------------

    def to_move(self, state: StolbikiState) -> int:
        return state.to_move

    def legal_moves(self, state: StolbikiState) -> list[Any]:
        """Placements sorted by card (id order) then cell; ``["pass"]`` when the seat to
        move cannot lay a card but another seat can; ``[]`` when the game is over."""
        codes = self.legal_codes(state)
        if codes == [PASS_CODE]:
            return [PASS]
        x_of, y_of = state.geometry.x_of, state.geometry.y_of
        return [
            Placement(CARD_TEXT[code >> CELL_BITS], x_of[code & CELL_MASK], y_of[code & CELL_MASK])
            for code in codes
        ]

    def legal_codes(self, state: StolbikiState) -> list[int]:
        """The moves of :meth:`legal_moves` as codes, in the same order: ``card << 9 |
        cell`` for a placement (see :mod:`.state`), :data:`PASS_CODE` for a pass."""
        return legal_codes(state)

    def play(self, state: StolbikiState, move: Any) -> StolbikiState:
        code = self.move_code(state, move)
        child = state.copy()
        push_code(child, code)
        return child

    def push(self, state: StolbikiState, move: Any) -> None:
        """Play ``move`` (a code, a :class:`Placement`, ``"pass"`` or a move text) in place,
        checked."""
        if type(move) is int and move >= 0:
            cell = move & CELL_MASK
            if cell in state.frontier and (
                (state.masks[cell] & state.hands[state.to_move]) >> (move >> CELL_BITS) & 1
            ):
                place(state, move >> CELL_BITS, cell)
                return
        push_code(state, self.move_code(state, move))

    def pop(self, state: StolbikiState) -> str:
        """Take back the last move pushed on ``state``; return its text."""
        if not state.undo:
            raise EngineError(N_("there is no move to take back in this position"))
        text = self.move_text(state, state.history[-1])
        take_back(state)
        return text

    def move_text(self, state: StolbikiState, code: int) -> str:
        """The canonical text of an internal move code."""
        if code == PASS_CODE:
            return PASS
        cell = code & CELL_MASK
        geometry = state.geometry
        return f"{CARD_TEXT[code >> CELL_BITS]}@{geometry.x_of[cell]},{geometry.y_of[cell]}"

    def is_legal(self, state: StolbikiState, move: Any) -> bool:
        if type(move) is int:
            return is_legal_code(state, move)
        return super().is_legal(state, move)

    def move_code(self, state: StolbikiState, move: Any) -> int:
        """Check ``move`` (a code, a :class:`Placement`, ``"pass"`` or a text) in ``state``
        without generating the other moves, and return its code; or raise
        :class:`IllegalMoveError` naming the broken rule."""
        if type(move) is int:
            if is_legal_code(state, move):
                return move
            parsed = self._move_of_code(state, move)
        else:
            parsed = parse_move(move) if isinstance(move, str) else move
            if not (parsed == PASS or isinstance(parsed, Placement)):
                raise IllegalMoveError(
                    repr(move), N_("a move must be a placement like 'QS@2,-1' or 'pass'")
                )
            code = self._code_of(state, parsed)
            if code is not None and is_legal_code(state, code):
                return code
        self._explain(state, parsed)
        raise EngineError(N_("%(move)s: the engine's move checks disagree"),  # pragma: no cover
                          move=str(parsed))

    def move_object(self, state: StolbikiState, code: int) -> Placement | str:
        """The :class:`Placement` of a code, or ``"pass"``."""
        return self._move_of_code(state, code)

    def _move_of_code(self, state: StolbikiState, code: int) -> Placement | str:
        if code == PASS_CODE:
            return PASS
        cell = code & CELL_MASK
        card = code >> CELL_BITS
        geometry = state.geometry
        if code < 0 or card >= len(CARD_TEXT) or CARD_TEXT[card] == "?" or cell >= geometry.size:
            raise NotationError(N_("move code %(code)s is not a Stolbiki move"), code=code)
        return Placement(CARD_TEXT[card], geometry.x_of[cell], geometry.y_of[cell])

    def _code_of(self, state: StolbikiState, parsed: Placement | str) -> int | None:
        """The code of a pass or a placement; ``None`` for a place no card can ever take
        or a placement that is not well formed (explained by :meth:`_explain`)."""
        if not isinstance(parsed, Placement):
            return PASS_CODE
        x, y = parsed.x, parsed.y
        if type(x) is not int or type(y) is not int:
            return None
        geometry = state.geometry
        if not geometry.is_inside(x, y):
            return None
        return parse_card(parsed.card) << CELL_BITS | geometry.cell(x, y)

    def _explain(self, state: StolbikiState, parsed: Placement | str) -> None:
        """Raise the error that says which rule an illegal move breaks."""
        text = str(parsed)
        if game_over(state):
            raise IllegalMoveError(text, N_("the game is over"))
        seat = state.to_move
        if not isinstance(parsed, Placement):
            if placeable_cards(state) & state.hands[seat]:
                raise IllegalMoveError(
                    text, N_("moving is compulsory: seat %(seat)s can lay a card"), seat=seat
                )
            return
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (parsed.x, parsed.y)):
            raise NotationError(N_("%(text)r: a position needs integer x and y"), text=text)
        card = parse_card(parsed.card)
        self._check_placement(state, text, seat, card, parsed.x, parsed.y)

    def _check_placement(
        self, state: StolbikiState, text: str, seat: int, card: int, x: int, y: int
    ) -> None:
        deck = state.options["deck"]
        name = card_text(card)
        if not deck_mask(deck) >> card & 1:
            raise IllegalMoveError(text, N_("there is no %(card)s in the %(deck)s-card deck"),
                                   card=name, deck=deck)
        if not state.hands[seat] >> card & 1:
            raise IllegalMoveError(text, N_("%(card)s is not in seat %(seat)s's hand"),
                                   card=name, seat=seat)
        if state.placed == 0:
            if (x, y) != (0, 0):
                raise IllegalMoveError(text, N_("the first card is laid at 0,0"))
            if RANK[card] > HIGHEST_FIRST_RANK:
                raise IllegalMoveError(
                    text, N_("the first card must rank 2 to 10 (no court card or ace)")
                )
            return
        geometry = state.geometry
        if geometry.is_inside(x, y) and state.grid[geometry.cell(x, y)] >= 0:
            held = card_text(state.grid[geometry.cell(x, y)])
            raise IllegalMoveError(text, N_("%(x)s,%(y)s already holds %(held)s"),
                                   x=x, y=y, held=held)
        neighbours = []
        for near_x, near_y in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if geometry.is_inside(near_x, near_y):
                near = state.grid[geometry.cell(near_x, near_y)]
                if near >= 0:
                    neighbours.append((near, position_text(near_x, near_y)))
        if not neighbours:
            raise IllegalMoveError(text, N_("%(x)s,%(y)s touches no card on the table "
                                            "(continuity)"),
                                   x=x, y=y)
        width = max(state.max_x, x) - min(state.min_x, x) + 1
        if width > geometry.cols:
            raise IllegalMoveError(
                text, N_("the table would be %(width)s columns wide, more than %(cols)s "
                         "(rectangle)"),
width=width, cols=geometry.cols
            )
        height = max(state.max_y, y) - min(state.min_y, y) + 1
        if height > geometry.rows:
            raise IllegalMoveError(
                text, N_("the table would be %(height)s rows tall, more than %(rows)s (rectangle)"),
height=height, rows=geometry.rows
            )
        for near, where in neighbours:
            if SUIT[near] == SUIT[card]:
                raise IllegalMoveError(
                    text, N_("%(card)s would touch %(near)s at %(where)s, a card of the same suit "
                             "(diversity)"),
card=name, near=card_text(near), where=where
                )
        if all(COLOUR[near] != COLOUR[card] for near, _ in neighbours):
            lowest, where = min(neighbours, key=lambda item: RANK[item[0]])
            if RANK[card] <= RANK[lowest]:
                raise IllegalMoveError(
                    text, N_("%(card)s touches no %(colour)s card, so it must be higher than "
                             "a neighbour, and the lowest is %(lowest)s at %(where)s (seniority)"),
card=name, colour=Message(COLOUR_NAMES[COLOUR[card]]), lowest=card_text(lowest),
                    where=where,
                )

    # -- end and result ---------------------------------------------------------------

    def is_over(self, state: StolbikiState) -> bool:
        return game_over(state)

    def result(self, state: StolbikiState) -> Result:
        if not game_over(state):
            raise EngineError(N_("the game is not over: some seat can still lay a card"))
        return score(state)

    # -- documents --------------------------------------------------------------------

    def to_dict(self, state: StolbikiState) -> Document:
        return documents.state_document(self, state)

    def from_dict(self, doc: Mapping[str, Any]) -> StolbikiState:
        return documents.load_state(self, doc)

    def observation(self, state: StolbikiState, seat: int) -> Document:
        """What ``seat`` may see: its hand, the table, the other hands' sizes, the
        shown hands and the history; never another seat's hidden cards."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise OptionError(N_("stolbiki: seat %(seat)r does not exist (0..%(last)s)"),
                              seat=seat, last=state.seats - 1)
        return documents.observation(self, state, seat)


def score(state: StolbikiState) -> Result:
    """Column points of the layout on the table (see the module docstring)."""
    geometry = state.geometry
    grid = state.grid
    column_sums = []
    red_points = black_points = 0
    for x in range(state.min_x, state.max_x + 1):
        sums = [0, 0]
        for y in range(state.min_y, state.max_y + 1):
            card = grid[geometry.cell(x, y)]
            if card >= 0:
                sums[COLOUR[card]] += RANK[card]
        red, black = sums
        red_points += red > black
        black_points += black > red
        column_sums.append(sums)
    red_side = state.red_side
    points = [0, 0]
    points[red_side] = red_points
    points[1 - red_side] = black_points
    red_total = sum(sums[0] for sums in column_sums)
    black_total = sum(sums[1] for sums in column_sums)
    margin = [0, 0]
    margin[red_side] = red_total - black_total
    margin[1 - red_side] = black_total - red_total
    winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
    return {
        "winner": winner,
        "points": points,
        "column_sums": column_sums,
        "red_side": red_side,
        "margin": margin,
    }
