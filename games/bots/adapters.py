"""One search interface over the three engines' fast paths (used by MCTS and greedy).

A :class:`SearchGame` turns an observation into a state, makes moves in place on internal
move codes, plays fast random rollouts and names the winner. For Stolbiki the state built
from an observation is one *determinization*: the cards the seat cannot see are dealt at
random among the seats that may hold them (see :class:`StolbikiSearch`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.bots.base import BotError, HiddenInformationError
from games.bots.kazambi_placements import board_placements
from games.engines import EngineError, get_engine
from games.engines.kazambi.codes import kth_bit
from games.engines.kazambi.engine import KazambiEngine
from games.engines.kazambi.notation import KazambiMove
from games.engines.kazambi.rules import hand_tiles, moves_of
from games.engines.kazambi.rules import pop as kazambi_pop
from games.engines.kazambi.rules import push as kazambi_push
from games.engines.kazambi.state import KazambiState
from games.engines.kugamai.engine import KugamaiEngine
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import MOVE_TEXT, SUBSET_VALUES, TILE_MASK
from games.engines.stolbiki.cards import COLOUR, card_text, cards_of, deck_mask, parse_card
from games.engines.stolbiki.deal import colour_of_seat
from games.engines.stolbiki.engine import StolbikiEngine, score
from games.engines.stolbiki.playout import play_randomly
from games.engines.stolbiki.state import (
    CELL_BITS,
    PASS_CODE,
    StolbikiState,
    game_over,
    pass_turn,
    place,
    placements,
    take_back,
)


class SearchGame(ABC):
    """Search operations on the states of one engine; moves are internal codes."""

    perfect_information: ClassVar[bool] = True
    #: Exploration constant of UCB1 in MCTS over this game (rewards are 0, 1/2 or 1).
    exploration: ClassVar[float] = 0.7

    def __init__(self, name: str) -> None:
        self.name = name

    @abstractmethod
    def load(self, observation: Mapping[str, Any], rng: random.Random) -> Any:
        """A state consistent with ``observation`` (one determinization if hidden)."""

    def determinize(self, state: Any, rng: random.Random) -> Any:
        """A copy of ``state`` with the hidden cards re-dealt (a plain copy by default)."""
        return state.copy()

    def node_moves(self, state: Any, rng: random.Random) -> list[Any]:
        """The moves a tree node tries, in the order it tries them (all legal moves,
        shuffled, by default); empty when the game is over."""
        order = list(self.moves(state))
        rng.shuffle(order)
        return order

    @abstractmethod
    def to_move(self, state: Any) -> int: ...

    @abstractmethod
    def moves(self, state: Any) -> Sequence[Any]:
        """Legal move codes, in a fixed order; empty when the game is over (the sequence
        may be shared: copy it to change it)."""

    @abstractmethod
    def push(self, state: Any, move: Any) -> None: ...

    @abstractmethod
    def pop(self, state: Any) -> None: ...

    @abstractmethod
    def rollout(self, state: Any, rng: random.Random) -> int | None:
        """Play ``state`` to its end at random (in place); return the winning side."""

    @abstractmethod
    def winner(self, state: Any) -> int | None:
        """The winning side of a finished game, ``None`` for a draw."""

    @abstractmethod
    def text(self, state: Any, move: Any) -> str:
        """The canonical text of ``move`` in ``state``."""

    def rollout_value(self, state: Any, rng: random.Random) -> float:
        """Play ``state`` to its end (:meth:`rollout`); side 0's reward, 0..1 (1 a win,
        1/2 a draw, 0 a loss unless the game rewards margins)."""
        return side_zero_reward(self.rollout(state, rng))

    def final_value(self, state: Any) -> float:
        """Side 0's reward (0..1) in a finished game."""
        return side_zero_reward(self.winner(state))


def side_zero_reward(winner: int | None) -> float:
    """1 if side 0 won, 0 if side 1 did, 1/2 for a draw."""
    return 0.5 if winner is None else float(winner == 0)


def _load_document(name: str, observation: Mapping[str, Any]) -> Any:
    try:
        return get_engine(name).from_dict(observation)
    except EngineError as error:
        raise BotError(f"cannot read the {name} observation: {error}") from None


# -- Kazambi ---------------------------------------------------------------------------


class KazambiSearch(SearchGame):
    """Kazambi and its pairs and misère variants (perfect information)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        engine = get_engine(name)
        assert isinstance(engine, KazambiEngine)
        self.engine = engine
        self.misere = engine.misere

    def load(self, observation: Mapping[str, Any], rng: random.Random) -> KazambiState:
        state: KazambiState = _load_document(self.name, observation)
        return state

    def to_move(self, state: KazambiState) -> int:
        return state.to_move

    def moves(self, state: KazambiState) -> list[KazambiMove]:
        return moves_of(state, state.to_move)

    def push(self, state: KazambiState, move: KazambiMove) -> None:
        kazambi_push(state, move)

    def pop(self, state: KazambiState) -> None:
        kazambi_pop(state)

    def stuck_winner(self, stuck_seat: int) -> int:
        """The winning side when ``stuck_seat`` cannot move."""
        return stuck_seat % 2 if self.misere else 1 - stuck_seat % 2

    def winner(self, state: KazambiState) -> int:
        return self.stuck_winner(state.to_move)

    def rollout(self, state: KazambiState, rng: random.Random) -> int:
        """Uniformly random placements until a seat is stuck, on the tiles' packed
        placements (:mod:`games.bots.kazambi_placements`)."""
        board = state.geometry
        placements = board_placements(board.rows, board.cols)
        entries_of = placements.entries
        seats = state.seats
        hands = [hand_tiles(hand) for hand in state.hands]
        packs = {
            tile: placements.packed(state.allowed, tile, board.not_last_col)
            for hand in hands for tile in hand
        }
        seat = state.to_move
        randrange = rng.randrange
        while True:
            live = [tile for tile in hands[seat] if packs[tile]]
            hands[seat] = live
            counts = [packs[tile].bit_count() for tile in live]
            total = sum(counts)
            if not total:
                return self.stuck_winner(seat)
            index = randrange(total)
            position = 0
            while index >= counts[position]:
                index -= counts[position]
                position += 1
            tile = live.pop(position)
            _, keeps = entries_of(tile)[kth_bit(packs[tile], index)]
            packs = {other: packed & keeps[other] for other, packed in packs.items()}
            seat = (seat + 1) % seats

    def text(self, state: KazambiState, move: KazambiMove) -> str:
        return str(move)



# -- Kugamai ---------------------------------------------------------------------------

_SHIFT = tuple(7 * v for v in range(7))
_LAY = tuple(tuple(TILE_MASK[end * 7 + w] for w in range(7)) for end in range(7))


class KugamaiSearch(SearchGame):
    """Kugamai after the deal (perfect information)."""

    def __init__(self, name: str = "kugamai") -> None:
        super().__init__(name)
        engine = get_engine(name)
        assert isinstance(engine, KugamaiEngine)
        self.engine = engine

    def load(self, observation: Mapping[str, Any], rng: random.Random) -> KugamaiState:
        state: KugamaiState = _load_document(self.name, observation)
        return state

    def to_move(self, state: KugamaiState) -> int:
        return state.to_move

    def moves(self, state: KugamaiState) -> Sequence[int]:
        return self.engine.legal_codes(state)

    def push(self, state: KugamaiState, move: int) -> None:
        self.engine.push(state, move)

    def pop(self, state: KugamaiState) -> None:
        self.engine.pop(state)

    def winner(self, state: KugamaiState) -> int | None:
        return self.engine.winner(state)

    def rollout(self, state: KugamaiState, rng: random.Random) -> int | None:
        """Uniformly random moves from ``state`` on local copies of its masks."""
        if state.end < 0:
            self.push(state, 0)
        if 0 in state.doubles_left:
            return self.engine.winner(state)
        seat = state.to_move
        cur, oth = state.hands[seat], state.hands[1 - seat]
        cur_doubles, oth_doubles = state.doubles_left[seat], state.doubles_left[1 - seat]
        remaining = list(state.remaining)
        safe = state.safe
        end = state.end
        random_ = rng.random
        while True:
            playable = (cur >> _SHIFT[end]) & safe
            if playable:
                choices = SUBSET_VALUES[playable]
                new_end = choices[int(random_() * len(choices))]
                cur ^= _LAY[end][new_end]
                remaining[new_end] -= 1
                if remaining[new_end] < 2:
                    safe &= ~(1 << new_end)
                if new_end == end:
                    cur_doubles -= 1
                    if not cur_doubles:
                        return seat
                else:
                    remaining[end] -= 1
                    if remaining[end] < 2:
                        safe &= ~(1 << end)
                    end = new_end
            elif not (oth >> _SHIFT[end]) & safe:
                return None
            seat ^= 1
            cur, oth = oth, cur
            cur_doubles, oth_doubles = oth_doubles, cur_doubles

    def text(self, state: KugamaiState, move: int) -> str:
        return MOVE_TEXT[move]


# -- Stolbiki --------------------------------------------------------------------------


class StolbikiSearch(SearchGame):
    """Stolbiki: hidden hands. :meth:`load` builds a state from an observation by dealing
    every card the seat cannot see (not on the table, not in its hand, not shown by a seat
    that passed) at random to the other seats of the card's colour that have not passed,
    as many as each seat holds. A seat that passed shows its whole hand, so the pass
    constraint (it could place none of its cards) is met by construction."""

    perfect_information: ClassVar[bool] = False

    def __init__(self, name: str = "stolbiki") -> None:
        super().__init__(name)
        engine = get_engine(name)
        assert isinstance(engine, StolbikiEngine)
        self.engine = engine

    def load(self, observation: Mapping[str, Any], rng: random.Random) -> StolbikiState:
        if "hands" in observation:
            raise HiddenInformationError("a Stolbiki bot takes an observation, not a state")
        try:
            seat = observation["seat"]
            red_side = observation["red_side"]
            own = [parse_card(text) for text in observation["hand"]]
            shown = [[parse_card(t) for t in cards] for cards in observation["revealed_by_seat"]]
            counts = list(observation["hand_counts"])
            table = dict(observation["table"])
            options = dict(observation["options"])
        except (KeyError, TypeError, EngineError) as error:
            raise BotError(f"not a Stolbiki observation: {error!r}") from None
        seats = len(counts)
        known = [0] * seats
        known[seat] = _mask(own)
        for other, cards in enumerate(shown):
            if cards:
                known[other] = _mask(cards)
        on_table = _mask([parse_card(text) for text in table.values()])
        hidden = deck_mask(options.get("deck", 36)) & ~on_table
        for hand in known:
            hidden &= ~hand
        revealed = sum(1 << other for other, cards in enumerate(shown) if cards)
        hands = _deal_hidden(hidden, known, counts, red_side, seat, revealed, rng)
        doc = {
            "game": self.name,
            "options": options,
            "to_move": observation["to_move"],
            "hands": [[card_text(card) for card in cards_of(hand)] for hand in hands],
            "history": list(observation["history"]),
            "table": table,
            "revealed": list(observation["revealed"]),
            "red_side": red_side,
        }
        state: StolbikiState = _load_document(self.name, doc)
        return state

    def determinize(self, state: StolbikiState, rng: random.Random) -> StolbikiState:
        """A copy of ``state`` (a root: its seat to move is the observer) with the hands
        the observer cannot see dealt afresh."""
        observer = state.to_move
        known = [
            hand if other == observer or state.revealed >> other & 1 else 0
            for other, hand in enumerate(state.hands)
        ]
        hidden = 0
        for other, hand in enumerate(state.hands):
            if not known[other]:
                hidden |= hand
        counts = [hand.bit_count() for hand in state.hands]
        shown = state.revealed
        copy = state.copy()
        copy.hands = _deal_hidden(hidden, known, counts, state.red_side, observer, shown, rng)
        return copy

    def to_move(self, state: StolbikiState) -> int:
        return state.to_move

    def moves(self, state: StolbikiState) -> list[int]:
        found = placements(state, state.to_move)
        if found:
            return [card << CELL_BITS | cell for card, cell in found]
        return [] if game_over(state) else [PASS_CODE]

    def push(self, state: StolbikiState, move: int) -> None:
        if move == PASS_CODE:
            pass_turn(state)
        else:
            place(state, move >> CELL_BITS, move & ((1 << CELL_BITS) - 1))

    def pop(self, state: StolbikiState) -> None:
        take_back(state)

    def winner(self, state: StolbikiState) -> int | None:
        winner: int | None = score(state)["winner"]
        return winner

    def rollout(self, state: StolbikiState, rng: random.Random) -> int | None:
        play_randomly(state, rng)
        return self.winner(state)

    def text(self, state: StolbikiState, move: int) -> str:
        return self.engine.move_text(state, move)


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _deal_hidden(
    hidden: int,
    known: list[int],
    counts: list[int],
    red_side: int,
    observer: int,
    revealed: int,
    rng: random.Random,
) -> list[int]:
    """Hands: the known ones kept, the ``hidden`` cards dealt at random by colour to the
    seats whose hands are unknown, ``counts[seat]`` cards each."""
    hands = list(known)
    for colour in (0, 1):
        pool = [card for card in cards_of(hidden) if COLOUR[card] == colour]
        takers = [
            other
            for other in range(len(counts))
            if other != observer
            and colour_of_seat(other, red_side) == colour
            and not revealed >> other & 1
        ]
        wanted = sum(counts[other] for other in takers)
        if wanted != len(pool):
            raise BotError(
                f"the observation is inconsistent: {len(pool)} unseen "
                f"{'red' if colour == 0 else 'black'} cards for {wanted} places in hands"
            )
        rng.shuffle(pool)
        start = 0
        for other in takers:
            hands[other] = _mask(pool[start : start + counts[other]])
            start += counts[other]
    return hands


_SEARCH_CLASSES: dict[str, type[SearchGame]] = {
    "kazambi": KazambiSearch,
    "kazambi-pairs": KazambiSearch,
    "anti-kazambi": KazambiSearch,
    "anti-kazambi-pairs": KazambiSearch,
    "kugamai": KugamaiSearch,
    "stolbiki": StolbikiSearch,
}
_instances: dict[str, SearchGame] = {}


def search_game(name: str) -> SearchGame:
    """The (shared, stateless) search adapter of engine ``name``."""
    adapter = _instances.get(name)
    if adapter is None:
        try:
            adapter = _instances[name] = _SEARCH_CLASSES[name](name)
        except KeyError:
            raise BotError(f"no bot knows the game {name!r}") from None
    return adapter
