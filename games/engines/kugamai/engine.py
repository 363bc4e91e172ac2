"""The Kugamai engine (docs/rules/kugamai.md).

>>> engine = KugamaiEngine()
>>> state = engine.new_game(seed=7)
>>> engine.legal_moves(state)
['0-0']
>>> state = engine.play(state, "0-0")
>>> engine.to_dict(state)["chain"]
['0-0']

Decisions taken where the rules are silent (docs/rules/kugamai.md):

- 0-0 is not one of anyone's doubles: it is dealt with the 22 shuffled tiles, so either
  the low- or the high-doubles player may hold it and open; the win needs the three own
  doubles (1-1, 2-2, 3-3 or 4-4, 5-5, 6-6) placed.
- The fish ban holds for every move, doubles and winning moves included. (By parity, in a
  real game only 0 can ever be fished: the chain starts at 0, and any other value with
  all its other tiles laid cannot be the open end. A double whose six partners are all on
  the table is stranded, so its owner can no longer win.)
- The game is over (a draw) as soon as neither seat can lay a tile on the open end; no
  passes are recorded for it. A single forced pass is recorded as ``pass``.
- A move must be written matched half first; ``5-4`` on open end 4 is refused with a
  message naming ``4-5`` rather than silently turned round.
- The seat with the low doubles is the option ``low_doubles_seat`` (``None``: by lot from
  the seed); :meth:`KugamaiEngine.low_doubles_seat` gives it for game ``k`` of a match.
"""

from __future__ import annotations

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
from games.engines.kugamai import documents, match
from games.engines.kugamai.dealing import draw_deal
from games.engines.kugamai.moves import (
    CLEAR,
    CODE_OF_TEXT,
    CODES,
    is_legal_code,
    push_code,
)
from games.engines.kugamai.playout import BLOCKED, DOUBLES_OUT
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import (
    MOVE_TEXT,
    OPENING,
    PASS,
    TILE_MASK,
    hand_texts,
    parse_move,
)
from games.i18n import N_, Message

Move = int | str

_OPENING_ONLY = (OPENING,)
_PASS_ONLY = (PASS,)


class KugamaiEngine(Engine[KugamaiState]):
    """Two-player chain game with one open end; see the module docstring."""

    name: ClassVar[str] = "kugamai"
    default_options: ClassVar[Mapping[str, Any]] = {"low_doubles_seat": None}

    # -- options ---------------------------------------------------------------------

    def validate_options(self, options: dict[str, Any]) -> None:
        seat = options["low_doubles_seat"]
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1)):
            raise OptionError(
                N_("kugamai: low_doubles_seat must be 0, 1 or null (by lot), not %(seat)r"),
                seat=seat
            )

    def seat_count(self, **options: Any) -> int:
        return 2

    def low_doubles_seat(self, game_index: int, first: int = 0) -> int:
        """The seat taking the low doubles in game ``game_index`` (0-based) of a match
        whose first game gave them to seat ``first`` (drawn by lot): it alternates."""
        return match.low_doubles_seat(game_index, first)

    # -- a game from start to end ----------------------------------------------------

    def new_game(
        self,
        seed: Seed = None,
        *,
        deal: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> KugamaiState:
        """Deal from ``seed`` or take an explicit ``deal`` (the seed is then unused)."""
        merged = self.options(**options) if options else {"low_doubles_seat": None}
        wanted = merged["low_doubles_seat"]
        if deal is None:
            low, hand0, hand1 = draw_deal(self.rng(seed), wanted)
            hands = (hand0, hand1)
        else:
            low, hands = documents.parse_deal(deal)
            if wanted is not None and wanted != low:
                raise DocumentError(
                    N_("option low_doubles_seat is %(wanted)s, but the deal gives the low doubles "
                       "to seat %(low)s"),
                    wanted=wanted, low=low
                )
        opener = 0 if hands[0] & 1 else 1
        return KugamaiState(merged, low, hands, opener, initial_hands=hands)

    def to_move(self, state: KugamaiState) -> int:
        return state.to_move

    def legal_codes(self, state: KugamaiState) -> tuple[int, ...]:
        """Legal moves as codes (``a * 7 + b``, or :data:`PASS`); empty when over. The
        tuple is shared: copy it to change it."""
        end = state.end
        if end < 0:
            return _OPENING_ONLY
        if 0 in state.doubles_left:
            return ()
        hands = state.hands
        mover = state.to_move
        playable = hands[mover] >> 7 * end & state.safe
        if playable:
            return CODES[end << 7 | playable]
        if hands[1 - mover] >> 7 * end & state.safe:
            return _PASS_ONLY
        return ()

    def legal_moves(self, state: KugamaiState) -> list[str]:
        return [MOVE_TEXT[code] for code in self.legal_codes(state)]

    def move_text(self, state: KugamaiState, code: int) -> str:
        return MOVE_TEXT[code]

    def move_object(self, state: KugamaiState, code: int) -> str:
        """Kugamai's move objects are their texts."""
        return MOVE_TEXT[code]

    def play(self, state: KugamaiState, move: Move) -> KugamaiState:
        code = self.move_code(state, move)
        after = state.copy()
        push_code(after, code)
        return after

    def push(self, state: KugamaiState, move: Move) -> None:
        """Make ``move`` (text or code) in place, after checking that it is legal."""
        if type(move) is int:
            # The fast path: push_tile inline (a call less per move), for a tile on the
            # open end, in hand, that makes no fish, in a game not won yet.
            end = state.end
            mover = state.to_move
            hands = state.hands
            safe = state.safe
            if (
                end == move // 7
                and move >= 0
                and hands[mover] >> move & 1
                and safe >> move % 7 & 1
                and 0 not in state.doubles_left
            ):
                state.history.append(move)
                state.to_move = 1 - mover
                hands[mover] ^= TILE_MASK[move]
                remaining = state.remaining
                new_end = move % 7
                remaining[new_end] -= 1
                if remaining[new_end] < 2:
                    safe &= CLEAR[new_end]
                if end != new_end:
                    remaining[end] -= 1
                    if remaining[end] < 2:
                        safe &= CLEAR[end]
                else:
                    state.doubles_left[mover] -= 1
                state.safe = safe
                state.end = new_end
                return
            if move == PASS and is_legal_code(state, move):
                push_code(state, move)
                return
        push_code(state, self.move_code(state, move))

    def pop(self, state: KugamaiState) -> int:
        """Take back the last move in place; return its code."""
        if not state.history:
            raise EngineError(N_("no move to take back: the history is empty"))
        code = state.history.pop()
        mover = state.to_move = 1 - state.to_move
        if code == PASS:
            return code
        end, new_end = divmod(code, 7)
        state.hands[mover] |= TILE_MASK[code]
        remaining = state.remaining
        remaining[new_end] += 1
        if remaining[new_end] >= 2:
            state.safe |= 1 << new_end
        if end != new_end:
            remaining[end] += 1
            if remaining[end] >= 2:
                state.safe |= 1 << end
        elif code != OPENING:
            state.doubles_left[mover] += 1
        state.end = -1 if code == OPENING else end
        return code

    def check_move(self, state: KugamaiState, move: Move) -> int:
        """The code of ``move`` if it is legal (see :meth:`move_code`)."""
        return self.move_code(state, move)

    def is_legal(self, state: KugamaiState, move: Any) -> bool:
        if type(move) is int:
            return is_legal_code(state, move)
        return super().is_legal(state, move)

    def move_code(self, state: KugamaiState, move: Move) -> int:
        """The code of ``move`` (a text or a code) if it is legal, checked without
        generating the other moves; :class:`IllegalMoveError` naming the rule otherwise
        (:class:`NotationError` if it cannot be read)."""
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move <= PASS:
                raise NotationError(N_("move code %(move)s is not 0..%(last)s"),
                                    move=move, last=PASS)
            code = move
        else:
            known = CODE_OF_TEXT.get(move) if isinstance(move, str) else None
            code = parse_move(move) if known is None else known
        if is_legal_code(state, code):
            return code
        raise self._illegal(state, code)

    def _illegal(self, state: KugamaiState, code: int) -> IllegalMoveError:
        """The error for an illegal move, naming the rule it breaks."""
        text = MOVE_TEXT[code]
        legal = self.legal_codes(state)
        mover = state.to_move
        if not legal:
            return IllegalMoveError(text, N_("the game is over (%(reason)s)"),
                                   reason=self._reason(state))
        if state.end < 0:
            return IllegalMoveError(text, N_("seat %(mover)s holds 0-0 and must open with it"),
                                   mover=mover)
        if code == PASS:
            return IllegalMoveError(
                text,
                N_("seat %(mover)s can lay %(tile)s; a seat may pass only when no tile fits"),
                mover=mover, tile=MOVE_TEXT[legal[0]]
            )
        end, new_end = divmod(code, 7)
        tile = f"{min(end, new_end)}-{max(end, new_end)}"
        if not state.hands[mover] & TILE_MASK[code]:
            holder = state.holder_of(code)
            if holder is None:
                return IllegalMoveError(text, N_("tile %(tile)s is not in seat %(mover)s's hand "
                                                "(it is on the table)"), tile=tile, mover=mover)
            return IllegalMoveError(text, N_("tile %(tile)s is not in seat %(mover)s's hand (it "
                                            "is in seat %(holder)s's hand)"),
                                   tile=tile, mover=mover, holder=holder)
        if end != state.end:
            if new_end == state.end:
                return IllegalMoveError(text, N_("%(text)s does not match the open end %(end)s; "
                                                "write the matched half first: %(turned)s"),
                                       text=text, end=state.end, turned=f"{new_end}-{end}")
            return IllegalMoveError(text, N_("%(text)s does not match the open end %(end)s"),
                                   text=text, end=state.end)
        if legal == _PASS_ONLY:
            return IllegalMoveError(
                text,
                N_("%(text)s would make a fish (every tile with a %(new_end)s on the table); seat "
                   "%(mover)s has no legal tile and must pass"),
                text=text, new_end=new_end, mover=mover
            )
        return IllegalMoveError(
            text, N_("%(text)s would make a fish: every tile with a %(new_end)s would be on the "
                     "table"),
            text=text, new_end=new_end
        )

    # -- the end ---------------------------------------------------------------------

    def is_over(self, state: KugamaiState) -> bool:
        return not self.legal_codes(state)

    def winner(self, state: KugamaiState) -> int | None:
        """The seat that has placed all its doubles, if any."""
        for seat, left in enumerate(state.doubles_left):
            if not left:
                return seat
        return None

    def _reason(self, state: KugamaiState) -> Message:
        winner = self.winner(state)
        if winner is not None:
            return Message(N_("seat %(seat)s has placed all its doubles"), seat=winner)
        return Message(N_("neither seat can lay a tile on the open end %(end)s"), end=state.end)

    def result(self, state: KugamaiState) -> Result:
        """``{"winner": seat or None, "reason": "doubles out" | "blocked", "moves": n}``
        where ``moves`` counts the history, passes included."""
        if not self.is_over(state):
            raise EngineError(N_("the game is not over: there is no result yet"))
        winner = self.winner(state)
        reason = DOUBLES_OUT if winner is not None else BLOCKED
        return {"winner": winner, "reason": reason, "moves": len(state.history)}

    # -- documents -------------------------------------------------------------------

    def to_dict(self, state: KugamaiState) -> Document:
        return {
            "game": self.name,
            "options": dict(state.options),
            "to_move": state.to_move,
            "hands": [hand_texts(hand) for hand in state.hands],
            "history": [MOVE_TEXT[code] for code in state.history],
            "chain": documents.chain_texts(state.chain),
            "low_doubles_seat": state.low_doubles_seat,
        }

    def from_dict(self, doc: Mapping[str, Any]) -> KugamaiState:
        """Load a state document. With a history, the game is replayed from the deal it
        implies (so every move is checked); without one, the position is checked for
        material, doubles, chain and turn."""
        if not isinstance(doc, Mapping):
            raise DocumentError(N_("a kugamai state document must be a JSON object"))
        if doc.get("game", self.name) != self.name:
            raise DocumentError(N_("document is for %(given)r, not %(game)r"),
                                given=doc.get("game"), game=self.name)
        for key in ("to_move", "hands", "chain", "low_doubles_seat"):
            if key not in doc:
                raise DocumentError(N_("a kugamai state document needs %(key)r"), key=key)
        options = self.options(**documents.options_document(doc.get("options")))
        to_move = documents.parse_seat(doc["to_move"], "to_move")
        low = documents.parse_seat(doc["low_doubles_seat"], "low_doubles_seat")
        if options["low_doubles_seat"] not in (None, low):
            raise DocumentError(
                N_("option low_doubles_seat is %(wanted)s, but 'low_doubles_seat' is %(low)s"),
                wanted=options["low_doubles_seat"], low=low
            )
        hands = documents.parse_hands(doc["hands"])
        chain = documents.parse_chain(doc["chain"])
        documents.check_position(hands, chain, low, to_move)
        history = documents.history_texts(doc.get("history", []))
        if history:
            return self._replay_history(options, hands, chain, low, to_move, history)
        return KugamaiState(
            options, low, hands, to_move, chain, initial_hands=None if chain else hands
        )

    def _replay_history(
        self,
        options: dict[str, Any],
        hands: tuple[int, int],
        chain: list[int],
        low: int,
        to_move: int,
        history: list[str],
    ) -> KugamaiState:
        codes = []
        for number, text in enumerate(history, start=1):
            try:
                codes.append(parse_move(text))
            except NotationError as error:
                raise DocumentError(N_("history move %(number)s: %(error)s"),
                                    number=number, error=error) from None
        if [code for code in codes if code != PASS] != chain:
            raise DocumentError(
                N_("'history' must hold every move from the opening 0-0, and its tiles must be the "
                   "chain, in order (or leave 'history' empty)")
            )
        dealt = list(hands)
        count = len(codes)
        for index, code in enumerate(codes):
            if code != PASS:
                dealt[(to_move - count + index) % 2] |= TILE_MASK[code]
        initial = (dealt[0], dealt[1])
        try:
            dealt_low = documents.check_deal_hands(initial)
        except DocumentError as error:
            raise DocumentError(N_("the deal implied by 'history' is impossible: %(error)s"),
                                error=error) from None
        if dealt_low != low:
            raise DocumentError(
                N_("'low_doubles_seat' is %(low)s, but the history shows seat %(dealt_low)s was "
                   "dealt the low doubles"),
                low=low, dealt_low=dealt_low
            )
        opener = 0 if initial[0] & 1 else 1
        state = KugamaiState(options, low, initial, opener, initial_hands=initial)
        for number, code in enumerate(codes, start=1):
            try:
                self.push(state, code)
            except IllegalMoveError as error:
                raise DocumentError(
                    N_("history move %(number)s, %(move)s: %(rule)s"),
                    number=number, move=history[number - 1], rule=error.rule_message
                ) from None
        if state.to_move != to_move:
            raise DocumentError(
                N_("'to_move' is seat %(to_move)s, but after the history seat %(after)s moves"),
                to_move=to_move, after=state.to_move
            )
        return state

    def initial_deal(self, state: KugamaiState) -> dict[str, Any]:
        """``{"hands", "first", "low_doubles_seat"}``; unknown for a position loaded
        without its history (a :class:`DocumentError`)."""
        if state.initial_hands is None:
            raise DocumentError(
                N_("this position was loaded without its history, so its deal is unknown")
            )
        hands = state.initial_hands
        return {
            "hands": [hand_texts(hand) for hand in hands],
            "first": 0 if hands[0] & 1 else 1,
            "low_doubles_seat": state.low_doubles_seat,
        }
