"""The steps of a recorded game for the game viewer: one state document per move.

Replays a game record (docs/rules/records.md) through its engine, keeping the position
after every move with its drawing, the hands (Kazambi burnt tiles, Stolbiki revealed
cards) and who moved. Pure Python: engines and SVG only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engines import EngineError, game_facts, get_engine
from pages.svg.boards import board_svg, card_label
from pages.svg.markup import ENGLISH, Texts


class RecordViewError(ValueError):
    """A game record that cannot be stepped through (with the engine's reason)."""


@dataclass
class HandView:
    seat: int
    label: str
    side: int
    items: list[dict[str, Any]]
    to_move: bool = False


@dataclass
class Step:
    number: int
    """0 for the starting position, then the move number."""
    move: str
    mover: int | None
    svg: str
    hands: list[HandView]
    document: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    mover_label: str = ""
    #: The move as people read it: a pass in their language, a placement as written.
    move_label: str = ""


def move_label(move: str, texts: Texts = ENGLISH) -> str:
    """A recorded move as shown: ``pass`` in the reader's language, other moves (tile
    placements, cards) in their notation."""
    return texts.pgettext("a move", "pass") if move == "pass" else move


def seat_labels(seats: int, side_names: Sequence[str], texts: Texts = ENGLISH) -> list[str]:
    """A label per seat from the sides' names: ``Ann`` or ``Team A (seat 3)``."""
    per_side = max(1, seats // 2)
    labels = []
    for seat in range(seats):
        name = side_names[seat % 2] if seat % 2 < len(side_names) else \
            texts.gettext("Side %(number)d") % {"number": seat % 2}
        labels.append(name if per_side == 1 else
                      texts.gettext("%(name)s (seat %(number)d)") % {"name": name,
                                                                     "number": seat + 1})
    return labels


def _hand_items(game: str, hand: Sequence[str], burnt: set[str],
                revealed: set[str]) -> list[dict[str, Any]]:
    if game_facts(game).hand_kind == "cards":
        return [{"text": card, "label": card_label(card),
                 "colour": "red" if card[1] in "HD" else "black",
                 "revealed": card in revealed} for card in hand]
    return [{"text": tile, "label": tile, "burnt": tile in burnt} for tile in hand]


def game_steps(record: Mapping[str, Any], side_names: Sequence[str] = ("A", "B"), *,
               texts: Texts = ENGLISH) -> list[Step]:
    """Every position of the recorded game, the start first; ``texts`` translates the words.

    Raises :class:`RecordViewError` when the record is malformed or has an illegal move.
    """
    if not isinstance(record, Mapping) or not isinstance(record.get("game"), str):
        raise RecordViewError(texts.gettext("the game record names no game"))
    game = record["game"]
    try:
        engine = get_engine(game)
        options = dict(record.get("options") or {})
        deal = record.get("deal")
        if not isinstance(deal, Mapping):
            raise RecordViewError(texts.gettext("the game record has no deal"))
        state = engine.new_game(deal=deal, **options)
    except EngineError as error:
        raise RecordViewError(texts.gettext("the game cannot be set up: %(problem)s")
                              % {"problem": error}) from None
    moves = record.get("moves") or []
    if not isinstance(moves, list):
        raise RecordViewError(texts.gettext("the record's moves are not a list"))
    seats = len(engine.to_dict(state)["hands"])
    labels = seat_labels(seats, side_names, texts)
    movers: list[int] = []
    steps = [_step(engine, state, 0, "", None, movers, labels, side_names, texts)]
    for number, move in enumerate(moves, start=1):
        mover = engine.to_move(state)
        try:
            state = engine.play(state, move)
        except (EngineError, ValueError) as error:
            raise RecordViewError(
                texts.gettext("move %(number)d (%(move)s) cannot be replayed: %(problem)s")
                % {"number": number, "move": move, "problem": error}) from None
        movers.append(mover)
        steps.append(_step(engine, state, number, str(move), mover, movers, labels, side_names,
                           texts))
    return steps


def _step(engine: Any, state: Any, number: int, move: str, mover: int | None,
          movers: list[int], labels: list[str], side_names: Sequence[str],
          texts: Texts = ENGLISH) -> Step:
    doc = engine.to_dict(state)
    game = doc["game"]
    over = engine.is_over(state)
    burnt: list[set[str]] = [set() for _ in doc["hands"]]
    facts = game_facts(game)
    if facts.burnt_tiles:
        burnt = [set(engine.burnt(state, seat)) for seat in range(len(doc["hands"]))]
        doc["burnt"] = [sorted(b) for b in burnt]
    revealed = set(doc.get("revealed") or [])
    to_move = None if over else engine.to_move(state)
    hands = [
        HandView(seat, labels[seat], seat % 2, _hand_items(game, hand, burnt[seat], revealed),
                 to_move == seat)
        for seat, hand in enumerate(doc["hands"])
    ]
    notes = []
    if move == "pass" and mover is not None:
        notes.append((texts.gettext("%(name)s passes and shows their cards")
                      if facts.pass_shows_hand else texts.gettext("%(name)s passes"))
                     % {"name": labels[mover]})
    if over:
        result = engine.result(state)
        doc["result"] = result
        winner = result.get("winner")
        notes.append(texts.gettext("Game over: a draw") if winner is None else
                     texts.gettext("Game over: %(name)s wins") % {"name": side_names[winner]})
    svg = board_svg(doc, movers=movers, id_prefix=f"step{number}", texts=texts)
    return Step(number, move, mover, svg, hands, doc, notes,
                labels[mover] if mover is not None else "", move_label(move, texts))
