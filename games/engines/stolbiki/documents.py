"""State documents (docs/rules/records.md) and per-seat observations.

A document has the keys ``game``, ``options``, ``to_move``, ``hands``, ``history``,
``table`` (``"x,y"`` -> card), ``revealed`` (the cards still in the hands of seats that
have passed: such a seat shows its whole hand) and ``red_side`` (which side holds the
red cards; inferred from the hands when absent).

Loading: a non-empty ``history`` must hold every move since the deal. The deal is then
rebuilt (the hands plus the cards each seat laid; the seat of move ``i`` is
``first + i``, with ``first = to_move - len(history)``) and the history is replayed
through the rules, so the position is certainly reachable. An empty history describes a
position without its past: it is checked statically (cards, colours, a connected table
inside the rectangle with a 2..10 at 0,0, no two same suits side by side, and every card
but the first higher than a neighbour or next to its own colour with all of its final
neighbours), which every reachable position passes; whether some order of play reaches
it is not searched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.engines.errors import DocumentError, EngineError, IllegalMoveError
from games.engines.stolbiki.board import GEOMETRIES, position_text
from games.engines.stolbiki.cards import (
    COLOUR,
    COLOUR_NAMES,
    HIGHEST_FIRST_RANK,
    RANK,
    SUIT,
    card_text,
    cards_of,
    deck_mask,
    parse_card,
)
from games.engines.stolbiki.deal import (
    deal_document,
    parse_hands,
    parse_red_side,
    seat_count,
)
from games.engines.stolbiki.notation import Placement, parse_move, parse_position
from games.engines.stolbiki.state import Deal, StolbikiState, lay_card
from games.i18n import N_, Message

if TYPE_CHECKING:
    from games.engines.stolbiki.engine import StolbikiEngine

DOCUMENT_KEYS = ("game", "options", "to_move", "hands", "history", "table", "revealed",
                 "red_side")


def table_of(state: StolbikiState) -> dict[str, str]:
    """``"x,y"`` -> card text, row by row from the top."""
    geometry = state.geometry
    table = {}
    for y in range(state.min_y, state.max_y + 1):
        for x in range(state.min_x, state.max_x + 1):
            card = state.grid[geometry.cell(x, y)] if state.placed else -1
            if card >= 0:
                table[position_text(x, y)] = card_text(card)
    return table


def revealed_by_seat(state: StolbikiState) -> list[list[str]]:
    """Per seat, the cards it shows (its whole hand once it has passed)."""
    return [
        [card_text(card) for card in cards_of(hand)] if state.revealed >> seat & 1 else []
        for seat, hand in enumerate(state.hands)
    ]


def state_document(engine: StolbikiEngine, state: StolbikiState) -> dict[str, Any]:
    """The full state document (every hand: for the service, not for players)."""
    return {
        "game": engine.name,
        "options": dict(state.options),
        "to_move": state.to_move,
        "hands": [[card_text(card) for card in cards_of(hand)] for hand in state.hands],
        "history": [engine.move_text(state, code) for code in state.history],
        "table": table_of(state),
        "revealed": [card for shown in revealed_by_seat(state) for card in shown],
        "red_side": state.red_side,
    }


def observation(engine: StolbikiEngine, state: StolbikiState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: its own hand, other hands only as sizes and shown cards."""
    shown = revealed_by_seat(state)
    return {
        "game": engine.name,
        "options": dict(state.options),
        "seat": seat,
        "side": seat % 2,
        "red_side": state.red_side,
        "to_move": state.to_move,
        "hand": [card_text(card) for card in cards_of(state.hands[seat])],
        "hand_counts": [hand.bit_count() for hand in state.hands],
        "table": table_of(state),
        "revealed": [card for cards in shown for card in cards],
        "revealed_by_seat": shown,
        "history": [engine.move_text(state, code) for code in state.history],
        "is_over": engine.is_over(state),
    }


# -- loading ------------------------------------------------------------------------


def load_state(engine: StolbikiEngine, doc: Mapping[str, Any]) -> StolbikiState:
    """Validate a state document and build its state (see the module docstring)."""
    if not isinstance(doc, Mapping):
        raise DocumentError(N_("a stolbiki state document must be a JSON object"))
    unknown = sorted(str(key) for key in doc if key not in DOCUMENT_KEYS)
    if unknown:
        raise DocumentError(
            N_("document: unknown key %(key)r (keys: %(keys)s)"),
            key=unknown[0], keys=', '.join(DOCUMENT_KEYS)
        )
    game = doc.get("game", engine.name)
    if game != engine.name:
        raise DocumentError(N_("document is for %(game)r, not %(engine)r"),
                            game=game, engine=engine.name)
    raw_options = doc.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise DocumentError(N_("document 'options' must be an object"))
    try:
        options = engine.options(**{str(key): value for key, value in raw_options.items()})
    except EngineError as error:
        raise DocumentError(N_("document options: %(error)s"), error=error) from None
    deck = options["deck"]
    seats = seat_count(options["team_size"])
    for key in ("to_move", "hands", "table"):
        if key not in doc:
            raise DocumentError(N_("document: %(key)r is missing"), key=key)
    hands = parse_hands(doc["hands"], deck, seats, N_("document"))
    table = _parse_table(doc["table"], deck)
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    on_table = 0
    for card in table.values():
        if in_hands >> card & 1:
            raise DocumentError(N_("document: %(card)s is both on the table and in a hand"),
                                card=card_text(card))
        on_table |= 1 << card
    missing = cards_of(deck_mask(deck) & ~(in_hands | on_table))
    if missing:
        names = ", ".join(card_text(card) for card in missing[:5])
        raise DocumentError(
            N_("document: %(count)s card(s) of the %(deck)s-card deck are neither in a hand nor on "
               "the table (%(names)s)"),
            count=len(missing), deck=deck, names=names
        )
    red_side = parse_red_side(doc, hands, N_("document"))
    to_move = doc["to_move"]
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < seats:
        raise DocumentError(N_("document 'to_move' must be a seat from 0 to %(last)s"),
                            last=seats - 1)
    history = _parse_history(doc.get("history", []))
    revealed = _parse_revealed(doc.get("revealed", []), hands)
    if history:
        return _replay(engine, options, hands, table, red_side, to_move, history, revealed)
    _check_table(table, options)
    _check_hand_sizes(hands, deck)
    start_deal: Deal | None = None
    if not table and not revealed:
        start_deal = (tuple(hands), to_move, red_side)
    state = StolbikiState(
        GEOMETRIES[deck], dict(options), seats, red_side, list(hands), to_move, start_deal
    )
    for (x, y), card in table.items():
        lay_card(state, card, state.geometry.cell(x, y))
    state.revealed = revealed
    return state


def _parse_table(value: object, deck: int) -> dict[tuple[int, int], int]:
    if not isinstance(value, Mapping):
        raise DocumentError(N_("document 'table' must be an object mapping 'x,y' to a card"))
    in_deck = deck_mask(deck)
    table: dict[tuple[int, int], int] = {}
    seen = 0
    for key, text in value.items():
        try:
            position = parse_position(key)
            card = parse_card(text)
        except EngineError as error:
            raise DocumentError(N_("document table: %(error)s"), error=error) from None
        if position in table:
            raise DocumentError(N_("document table: position %(key)r appears twice"), key=key)
        if not in_deck >> card & 1:
            raise DocumentError(
                N_("document table: %(card)s is not in the %(deck)s-card deck"),
                card=card_text(card), deck=deck
            )
        if seen >> card & 1:
            raise DocumentError(N_("document table: %(card)s appears twice"), card=card_text(card))
        seen |= 1 << card
        table[position] = card
    return table


def _parse_history(value: object) -> list[Placement | str]:
    if not isinstance(value, list):
        raise DocumentError(N_("document 'history' must be a list of move texts"))
    moves = []
    for number, text in enumerate(value, start=1):
        try:
            moves.append(parse_move(text))
        except EngineError as error:
            raise DocumentError(N_("document history, move %(number)s: %(error)s"),
                                number=number, error=error) from None
    return moves


def _parse_revealed(value: object, hands: list[int]) -> int:
    """The seats whose hands are shown, from the list of shown cards."""
    if not isinstance(value, list):
        raise DocumentError(N_("document 'revealed' must be a list of cards"))
    shown = 0
    for text in value:
        try:
            shown |= 1 << parse_card(text)
        except EngineError as error:
            raise DocumentError(N_("document revealed: %(error)s"), error=error) from None
    seats = 0
    for seat, hand in enumerate(hands):
        if hand & shown:
            if hand & ~shown:
                raise DocumentError(
                    N_("document revealed: seat %(seat)s has passed, so its whole hand is shown; "
                       "%(card)s is missing"),
                    seat=seat, card=card_text(cards_of(hand & ~shown)[0])
                )
            seats |= 1 << seat
        shown &= ~hand
    if shown:
        raise DocumentError(
            N_("document revealed: %(card)s is in no hand"), card=card_text(cards_of(shown)[0])
        )
    return seats


def _replay(
    engine: StolbikiEngine,
    options: dict[str, Any],
    hands: list[int],
    table: dict[tuple[int, int], int],
    red_side: int,
    to_move: int,
    history: list[Placement | str],
    revealed: int,
) -> StolbikiState:
    seats = len(hands)
    laid = [move for move in history if isinstance(move, Placement)]
    if len(laid) != len(table):
        raise DocumentError(
            N_("document history lays %(laid)s card(s) but the table holds %(held)s: give every "
               "move since the deal, or an empty history"),
            laid=len(laid), held=len(table)
        )
    first = (to_move - len(history)) % seats
    dealt = list(hands)
    for number, move in enumerate(history, start=1):
        if isinstance(move, Placement):
            card = table.get((move.x, move.y))
            if card is None or card_text(card) != move.card:
                raise DocumentError(
                    N_("document history, move %(number)s, %(move)s: the table does not hold "
                       "%(card)s at %(x)s,%(y)s"),
                    number=number, move=move, card=move.card, x=move.x, y=move.y
                )
            dealt[(first + number - 1) % seats] |= 1 << card
    deal = deal_document(dealt, first, red_side)
    try:
        state = engine.new_game(deal=deal, **options)
    except EngineError as error:
        raise DocumentError(N_("document history does not fit a deal: %(error)s"),
                            error=error) from None
    for number, move in enumerate(history, start=1):
        try:
            engine.push(state, move)
        except IllegalMoveError as error:
            raise DocumentError(N_("document history, move %(number)s, %(move)s: %(rule)s"),
                                number=number, move=move, rule=error.rule_message) from None
    if _shown_cards(state) != _shown_cards_of(hands, revealed):
        raise DocumentError(
            N_("document 'revealed' must list the hands of the seats that passed in the history")
        )
    return state


def _shown_cards(state: StolbikiState) -> int:
    return _shown_cards_of(state.hands, state.revealed)


def _shown_cards_of(hands: list[int], seats: int) -> int:
    shown = 0
    for seat, hand in enumerate(hands):
        if seats >> seat & 1:
            shown |= hand
    return shown


def _check_hand_sizes(hands: list[int], deck: int) -> None:
    seats = len(hands)
    per_side = deck // 2
    dealt_most = -(-per_side // (seats // 2))
    for seat, hand in enumerate(hands):
        if hand.bit_count() > dealt_most:
            raise DocumentError(
                N_("document: seat %(seat)s holds %(count)s cards; no seat is dealt more than "
                   "%(dealt_most)s"),
                seat=seat, count=hand.bit_count(), dealt_most=dealt_most
            )


def _check_table(table: dict[tuple[int, int], int], options: dict[str, Any]) -> None:
    """Static checks that every reachable table passes (see the module docstring)."""
    if not table:
        return
    geometry = GEOMETRIES[options["deck"]]
    first = table.get((0, 0))
    if first is None:
        raise DocumentError(N_("document table: the first card lies at 0,0, which is empty"))
    if RANK[first] > HIGHEST_FIRST_RANK:
        raise DocumentError(
            N_("document table: the first card %(first)s at 0,0 must rank 2 to 10"),
            first=card_text(first)
        )
    xs = [x for x, _ in table]
    ys = [y for _, y in table]
    width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if width > geometry.cols or height > geometry.rows:
        raise DocumentError(
            N_("document table: the layout is %(width)s x %(height)s; it must fit %(cols)s columns "
               "x %(rows)s rows"),
            width=width, height=height, cols=geometry.cols, rows=geometry.rows
        )
    reached = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        x, y = todo.pop()
        for near in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if near in table and near not in reached:
                reached.add(near)
                todo.append(near)
    if len(reached) != len(table):
        lost = min(set(table) - reached)
        raise DocumentError(
            N_("document table: the card at %(position)s is not connected to 0,0"),
            position=position_text(*lost)
        )
    for (x, y), card in table.items():
        near_cards = [
            table[spot]
            for spot in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
            if spot in table
        ]
        for other in near_cards:
            if SUIT[other] == SUIT[card]:
                raise DocumentError(
                    N_("document table: %(card)s at %(position)s touches %(other)s, of the same "
                       "suit"),
                    card=card_text(card), position=position_text(x, y), other=card_text(other)
                )
        if (x, y) == (0, 0) or any(COLOUR[other] == COLOUR[card] for other in near_cards):
            continue
        if RANK[card] <= min(RANK[other] for other in near_cards):
            raise DocumentError(
                N_("document table: %(card)s at %(position)s touches no %(colour)s card and is "
                   "higher than none of its neighbours"),
                card=card_text(card), position=position_text(x, y),
                colour=Message(COLOUR_NAMES[COLOUR[card]]),
            )
