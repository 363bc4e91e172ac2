"""The interface every game engine implements (docs/rules/records.md).

An engine is stateless: it holds the rules, and every method takes the state it works
on. ``play`` returns a new state and leaves its argument unchanged; engines also offer
in-place ``push``/``pop`` (make/unmake) for search and playouts.

Besides the move objects of ``legal_moves`` (``str(move)`` is the notation), every engine
names moves by **codes**, small ints: ``legal_codes`` lists the same moves in the same
order (``move_object(state, codes[i]) == legal_moves(state)[i]``), cheaply (Kazambi's
list is lazy: its length is known at once and a placement is built only when asked
for); ``move_text`` gives a code's notation. A code belongs to the game of the state it
came from (Kazambi's and Stolbiki's name cells of its board). ``move_code`` checks one
move (a code, an object or a text) without generating the others, and ``push`` and
``play`` check that way, so a record replays at the cost of its moves.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engines.errors import (
    DocumentError,
    EngineError,
    IllegalMoveError,
    OptionError,
    RecordError,
)
from games.i18n import N_

Result = dict[str, Any]
Document = dict[str, Any]
#: What a deal is drawn from: a seed, a generator to draw from (so that many games dealt
#: from one generator cost no new generator each), or ``None`` for a fresh seed.
Seed = int | random.Random | None


class Engine[S](ABC):
    """Rules of one game, found by ``name`` through :func:`games.engines.get_engine`."""

    name: ClassVar[str]
    #: Option names and their defaults; ``new_game`` rejects any other keyword.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: True when every seat sees every hand (Kazambi, Kugamai after the deal).
    perfect_information: ClassVar[bool] = True

    # -- options ---------------------------------------------------------------------

    def options(self, **options: Any) -> dict[str, Any]:
        """Return the full option set, defaults filled in, after validation."""
        defaults = self.default_options
        if options:
            unknown = sorted(set(options) - set(defaults))
            if unknown:
                known = ", ".join(sorted(defaults)) or "none"
                raise OptionError(N_("%(game)s: unknown option %(key)r (options: %(known)s)"),
                                  game=self.name, key=unknown[0], known=known)
        merged = {**defaults, **options}
        self.validate_options(merged)
        return merged

    def validate_options(self, options: dict[str, Any]) -> None:  # noqa: B027
        """Raise :class:`OptionError` for an option value out of range."""

    @abstractmethod
    def seat_count(self, **options: Any) -> int:
        """How many seats a game with these options has."""

    # -- a game from start to end ----------------------------------------------------

    @abstractmethod
    def new_game(
        self,
        seed: Seed = None,
        *,
        deal: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> S:
        """A new game: dealt from ``seed`` (or drawn from it, if it is a ``random.Random``),
        or from an explicit ``deal`` document (``{"hands": [[...], ...], "first": seat}``,
        as in a game record)."""

    @abstractmethod
    def to_move(self, state: S) -> int:
        """The seat whose turn it is."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[Any]:
        """Legal moves; ``str(move)`` is the canonical text; ``["pass"]`` when forced."""

    @abstractmethod
    def play(self, state: S, move: Any) -> S:
        """The state after ``move`` (a code, an object from ``legal_moves`` or its text)."""

    # -- compact moves and make/unmake -----------------------------------------------

    @abstractmethod
    def legal_codes(self, state: S) -> Sequence[int]:
        """The moves of :meth:`legal_moves` as codes, in the same order; empty when the
        game is over. Treat it as read-only."""

    @abstractmethod
    def move_code(self, state: S, move: Any) -> int:
        """The code of ``move`` (a code, a move object or a text) if it is legal for the
        seat to move, found without generating the other moves; otherwise
        :class:`IllegalMoveError` naming the rule (or :class:`NotationError`)."""

    def is_legal(self, state: S, move: Any) -> bool:
        """Whether ``move`` (a code, a move object or a text) is legal in ``state``."""
        try:
            self.move_code(state, move)
        except EngineError:
            return False
        return True

    @abstractmethod
    def move_text(self, state: S, code: int) -> str:
        """The canonical text of the move ``code`` of ``state``."""

    @abstractmethod
    def move_object(self, state: S, code: int) -> Any:
        """The object :meth:`legal_moves` gives for the move ``code`` of ``state``."""

    @abstractmethod
    def push(self, state: S, move: Any) -> None:
        """Make ``move`` (a code, an object or a text) in place, checked as by
        :meth:`move_code`; :meth:`pop` takes it back, restoring the state exactly."""

    @abstractmethod
    def pop(self, state: S) -> Any:
        """Take back the last move pushed on ``state`` (in place) and return it."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """``{"winner": 0 | 1 | None, ...}``; raises :class:`EngineError` if not over."""

    # -- documents -------------------------------------------------------------------

    @abstractmethod
    def to_dict(self, state: S) -> Document:
        """The JSON-ready state document of section 6."""

    @abstractmethod
    def from_dict(self, doc: Mapping[str, Any]) -> S:
        """Load and validate a state document; a bad document raises :class:`DocumentError`."""

    def observation(self, state: S, seat: int) -> Document:
        """What ``seat`` may see; everything in a perfect-information game."""
        return self.to_dict(state)

    @abstractmethod
    def initial_deal(self, state: S) -> dict[str, Any]:
        """The deal document of the game ``state`` belongs to (for its record)."""

    # -- match helpers ---------------------------------------------------------------

    def starting_seat(self, game_index: int, first: int = 0, **options: Any) -> int:
        """The seat that starts game ``game_index`` (0-based) of a match whose first game
        seat ``first`` started: the start passes round the seats, so it alternates sides."""
        seats = self.seat_count(**options)
        if not 0 <= first < seats:
            raise OptionError(N_("%(game)s: seat %(first)s does not exist (0..%(last)s)"),
                              game=self.name, first=first, last=seats - 1)
        if game_index < 0:
            raise OptionError(N_("%(game)s: game index must be 0 or more, not %(game_index)s"),
                              game=self.name, game_index=game_index)
        return (first + game_index) % seats

    # -- records ---------------------------------------------------------------------

    def record(self, state: S, seats: Sequence[str] | None = None) -> Document:
        """The game record (docs/rules/records.md) of the game that led to ``state``."""
        doc = self.to_dict(state)
        record: Document = {
            "game": self.name,
            "options": doc["options"],
            "seats": list(seats) if seats is not None else [],
            "deal": self.initial_deal(state),
            "moves": list(doc["history"]),
        }
        if self.is_over(state):
            record["result"] = self.result(state)
        return record

    def replay(self, record: Mapping[str, Any]) -> tuple[S, Result | None]:
        """Replay a record; return the final state and its result (``None`` if the game
        is unfinished). A record whose stated result differs from the replayed one, or
        with an illegal move, is rejected naming the move number and the rule."""
        if not isinstance(record, Mapping):
            raise DocumentError(N_("a game record must be a JSON object"))
        game = record.get("game", self.name)
        if game != self.name:
            raise DocumentError(N_("record is for %(game)r, not %(engine)r"),
                                game=game, engine=self.name)
        options = record.get("options") or {}
        if not isinstance(options, Mapping):
            raise DocumentError(N_("record 'options' must be an object"))
        deal = record.get("deal")
        if not isinstance(deal, Mapping):
            raise DocumentError(N_("record 'deal' must be an object with the hands dealt"))
        moves = record.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise DocumentError(N_("record 'moves' must be a list of move texts"))
        state = self.new_game(deal=deal, **dict(options))
        push = self.push
        for number, move in enumerate(moves, start=1):
            try:
                push(state, move)
            except EngineError as error:
                if self.is_over(state):
                    raise RecordError(number, move, N_("the game is already over")) from error
                rule = error.rule_message if isinstance(error, IllegalMoveError) else error.message
                raise RecordError(number, move, rule) from error
        result = self.result(state) if self.is_over(state) else None
        stated = record.get("result")
        if stated is not None:
            if result is None:
                raise DocumentError(
                    N_("record states a result but the game is not over after %(count)s moves"),
                    count=len(moves)
                )
            if stated.get("winner") != result["winner"]:
                raise DocumentError(
                    N_("record states winner %(stated)r, the moves give %(replayed)r"),
                    stated=stated.get("winner"), replayed=result["winner"],
                )
        return state, result

    # -- helpers for engines ---------------------------------------------------------

    @staticmethod
    def rng(seed: Seed) -> random.Random:
        """The generator a deal is drawn from: ``seed`` itself if it is one; ``None``
        draws a fresh seed."""
        if isinstance(seed, random.Random):
            return seed
        return random.Random(seed)
