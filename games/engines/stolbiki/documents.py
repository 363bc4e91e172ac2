"""State documents (GAMES.md section 6) and per-seat observations.

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
        raise DocumentError("a stolbiki state document must be a JSON object")
    unknown = sorted(str(key) for key in doc if key not in DOCUMENT_KEYS)
    if unknown:
        raise DocumentError(
            f"document: unknown key {unknown[0]!r} (keys: {', '.join(DOCUMENT_KEYS)})"
        )
    game = doc.get("game", engine.name)
    if game != engine.name:
        raise DocumentError(f"document is for {game!r}, not {engine.name!r}")
    raw_options = doc.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise DocumentError("document 'options' must be an object")
    try:
        options = engine.options(**{str(key): value for key, value in raw_options.items()})
    except EngineError as error:
        raise DocumentError(f"document options: {error}") from None
    deck = options["deck"]
    seats = seat_count(options["team_size"])
    for key in ("to_move", "hands", "table"):
        if key not in doc:
            raise DocumentError(f"document: {key!r} is missing")
    hands = parse_hands(doc["hands"], deck, seats, "document")
    table = _parse_table(doc["table"], deck)
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    on_table = 0
    for card in table.values():
        if in_hands >> card & 1:
            raise DocumentError(f"document: {card_text(card)} is both on the table and in a hand")
        on_table |= 1 << card
    missing = cards_of(deck_mask(deck) & ~(in_hands | on_table))
    if missing:
        names = ", ".join(card_text(card) for card in missing[:5])
        raise DocumentError(
            f"document: {len(missing)} card(s) of the {deck}-card deck are neither in a hand "
            f"nor on the table ({names})"
        )
    red_side = parse_red_side(doc, hands, "document")
    to_move = doc["to_move"]
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < seats:
        raise DocumentError(f"document 'to_move' must be a seat from 0 to {seats - 1}")
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
        raise DocumentError("document 'table' must be an object mapping 'x,y' to a card")
    in_deck = deck_mask(deck)
    table: dict[tuple[int, int], int] = {}
    seen = 0
    for key, text in value.items():
        try:
            position = parse_position(key)
            card = parse_card(text)
        except EngineError as error:
            raise DocumentError(f"document table: {error}") from None
        if position in table:
            raise DocumentError(f"document table: position {key!r} appears twice")
        if not in_deck >> card & 1:
            raise DocumentError(
                f"document table: {card_text(card)} is not in the {deck}-card deck"
            )
        if seen >> card & 1:
            raise DocumentError(f"document table: {card_text(card)} appears twice")
        seen |= 1 << card
        table[position] = card
    return table


def _parse_history(value: object) -> list[Placement | str]:
    if not isinstance(value, list):
        raise DocumentError("document 'history' must be a list of move texts")
    moves = []
    for number, text in enumerate(value, start=1):
        try:
            moves.append(parse_move(text))
        except EngineError as error:
            raise DocumentError(f"document history, move {number}: {error}") from None
    return moves


def _parse_revealed(value: object, hands: list[int]) -> int:
    """The seats whose hands are shown, from the list of shown cards."""
    if not isinstance(value, list):
        raise DocumentError("document 'revealed' must be a list of cards")
    shown = 0
    for text in value:
        try:
            shown |= 1 << parse_card(text)
        except EngineError as error:
            raise DocumentError(f"document revealed: {error}") from None
    seats = 0
    for seat, hand in enumerate(hands):
        if hand & shown:
            if hand & ~shown:
                raise DocumentError(
                    f"document revealed: seat {seat} has passed, so its whole hand is shown; "
                    f"{card_text(cards_of(hand & ~shown)[0])} is missing"
                )
            seats |= 1 << seat
        shown &= ~hand
    if shown:
        raise DocumentError(
            f"document revealed: {card_text(cards_of(shown)[0])} is in no hand"
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
            f"document history lays {len(laid)} card(s) but the table holds {len(table)}: "
            "give every move since the deal, or an empty history"
        )
    first = (to_move - len(history)) % seats
    dealt = list(hands)
    for number, move in enumerate(history, start=1):
        if isinstance(move, Placement):
            card = table.get((move.x, move.y))
            if card is None or card_text(card) != move.card:
                raise DocumentError(
                    f"document history, move {number}, {move}: the table does not hold "
                    f"{move.card} at {move.x},{move.y}"
                )
            dealt[(first + number - 1) % seats] |= 1 << card
    deal = deal_document(dealt, first, red_side)
    try:
        state = engine.new_game(deal=deal, **options)
    except EngineError as error:
        raise DocumentError(f"document history does not fit a deal: {error}") from None
    for number, move in enumerate(history, start=1):
        try:
            engine.push(state, move)
        except IllegalMoveError as error:
            raise DocumentError(f"document history, move {number}, {move}: {error.rule}") from None
    if _shown_cards(state) != _shown_cards_of(hands, revealed):
        raise DocumentError(
            "document 'revealed' must list the hands of the seats that passed in the history"
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
                f"document: seat {seat} holds {hand.bit_count()} cards; no seat is dealt "
                f"more than {dealt_most}"
            )


def _check_table(table: dict[tuple[int, int], int], options: dict[str, Any]) -> None:
    """Static checks that every reachable table passes (see the module docstring)."""
    if not table:
        return
    geometry = GEOMETRIES[options["deck"]]
    first = table.get((0, 0))
    if first is None:
        raise DocumentError("document table: the first card lies at 0,0, which is empty")
    if RANK[first] > HIGHEST_FIRST_RANK:
        raise DocumentError(
            f"document table: the first card {card_text(first)} at 0,0 must rank 2 to 10"
        )
    xs = [x for x, _ in table]
    ys = [y for _, y in table]
    width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if width > geometry.cols or height > geometry.rows:
        raise DocumentError(
            f"document table: the layout is {width} x {height}; it must fit "
            f"{geometry.cols} columns x {geometry.rows} rows"
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
            f"document table: the card at {position_text(*lost)} is not connected to 0,0"
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
                    f"document table: {card_text(card)} at {position_text(x, y)} touches "
                    f"{card_text(other)}, of the same suit"
                )
        if (x, y) == (0, 0) or any(COLOUR[other] == COLOUR[card] for other in near_cards):
            continue
        if RANK[card] <= min(RANK[other] for other in near_cards):
            raise DocumentError(
                f"document table: {card_text(card)} at {position_text(x, y)} touches no "
                f"{COLOUR_NAMES[COLOUR[card]]} card and is higher than none of its neighbours"
            )
