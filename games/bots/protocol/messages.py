"""Every line of the bot protocol as a typed message, parsed and formatted both ways.

A line is UTF-8 text ending in ``\\n`` (a ``\\r`` before it is ignored); its first word is
the command, single spaces separate the words. The referee writes to the bot's standard
input and reads its standard output (docs/bot-protocol.md has the whole story):

referee to bot::

    protocol 1                                  versions the referee speaks
    game kugamai seat 0 seats 2 seed 81 options {"low_doubles_seat":null}
    position {...}                              the seat's observation (JSON)
    moves 0-0 0-4                               moves played since the last update
    shown 3 TH 9D                               cards a passing Stolbiki seat shows
    go time 59800 60000 inc 2000 movetime 5000  think; times in milliseconds
    result 1 normal                             the game is over (winning side or draw)
    quit

bot to referee::

    name Random example       author Club examples       updates moves
    protocol 1                (ends the handshake)       ready (after game)
    info depth 3 score 0.5    (any number, stored with the move)
    move 4-1

Keys in ``game`` and ``go`` are words followed by their values; a reader skips keys it
does not know, so later versions can add keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

PROTOCOL_VERSION = 1
#: Versions this code speaks.
VERSIONS: tuple[int, ...] = (1,)
#: How the bot wants to hear about moves: a full ``position`` before every ``go`` (the
#: default) or, after the first one, only the ``moves`` since its last update.
UPDATE_MODES: tuple[str, ...] = ("positions", "moves")
#: ``go`` keys of the per-move clock bonus and the clock kinds they stand for
#: (games.clocks.IncrementKind values).
BONUS_KEYS: dict[str, str] = {"inc": "fischer", "delay": "simple_delay",
                              "bronstein": "bronstein"}
BONUS_WORDS: dict[str, str] = {kind: key for key, kind in BONUS_KEYS.items()}
TERMINATIONS: tuple[str, ...] = ("normal", "forfeit", "time_forfeit")


class ProtocolError(ValueError):
    """A line that breaks the protocol; ``line`` is the offending text (if any)."""

    def __init__(self, message: str, line: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return f"{self.message}: {_shorten(self.line)!r}"


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


# -- referee to bot ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """``protocol 1``: the referee opens the handshake with the versions it speaks."""

    versions: tuple[int, ...] = VERSIONS


@dataclass(frozen=True, slots=True)
class NewGame:
    """``game NAME seat S seats N seed X options {...}``: a new game; the bot plays seat S
    (of N seats; side ``S % 2``) and may seed its random numbers with X."""

    game: str
    seat: int
    seats: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Position:
    """``position {...}``: the observation of the bot's seat (engine.observation)."""

    observation: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Moves:
    """``moves M1 M2 ...``: every move played since the bot's last update, its own last
    move included, in order."""

    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """``shown SEAT C1 C2 ...``: in Stolbiki, all the cards a seat has shown by passing."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Go:
    """``go [time T0 T1 ...] [inc|delay|bronstein B] [movetime M]``: the bot's turn.

    ``times_ms`` is each seat's clock (milliseconds, by seat number), empty without a
    clock; ``bonus`` the clock's per-move bonus kind (``fischer``, ``simple_delay``,
    ``bronstein`` or ``none``) and ``bonus_ms`` its size; ``movetime_ms`` a limit for this
    one move. The referee always sends a clock, a move limit or both.
    """

    times_ms: tuple[int, ...] = ()
    bonus: str = "none"
    bonus_ms: int = 0
    movetime_ms: int | None = None

    def seconds_for(self, seat: int) -> float | None:
        """How long ``seat`` may think about this move (clock and move limit), seconds."""
        limits = []
        if self.times_ms:
            left = self.times_ms[seat]
            if self.bonus == "simple_delay":
                left += self.bonus_ms
            limits.append(left / 1000)
        if self.movetime_ms is not None:
            limits.append(self.movetime_ms / 1000)
        return min(limits) if limits else None


@dataclass(frozen=True, slots=True)
class GameResult:
    """``result 0|1|draw TERMINATION``: the game is over."""

    winner: int | None
    termination: str = "normal"


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit``: leave now (the referee ends the process soon after)."""


RefereeMessage = Hello | NewGame | Position | Moves | Shown | Go | GameResult | Quit


# -- bot to referee ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Name:
    text: str


@dataclass(frozen=True, slots=True)
class Author:
    text: str


@dataclass(frozen=True, slots=True)
class Updates:
    mode: str


@dataclass(frozen=True, slots=True)
class Speaks:
    """``protocol V``: the version the bot speaks; ends the handshake."""

    version: int


@dataclass(frozen=True, slots=True)
class Ready:
    """``ready``: the bot has set up the new game."""


@dataclass(frozen=True, slots=True)
class Info:
    """``info ...``: free text about the search (depth, score, nodes, pv...)."""

    text: str


@dataclass(frozen=True, slots=True)
class Move:
    text: str


BotMessage = Name | Author | Updates | Speaks | Ready | Info | Move


# -- formatting ----------------------------------------------------------------------------


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def format_go(go: Go) -> str:
    parts = ["go"]
    if go.times_ms:
        parts.append("time")
        parts.extend(str(ms) for ms in go.times_ms)
        if go.bonus != "none":
            parts += [BONUS_WORDS[go.bonus], str(go.bonus_ms)]
    if go.movetime_ms is not None:
        parts += ["movetime", str(go.movetime_ms)]
    return " ".join(parts)


def format_referee(message: RefereeMessage) -> str:
    """The line (without its newline) that carries ``message`` to the bot."""
    match message:
        case Hello(versions):
            return "protocol " + " ".join(str(v) for v in versions)
        case NewGame(game, seat, seats, seed, options):
            return f"game {game} seat {seat} seats {seats} seed {seed} options {_json(options)}"
        case Position(observation):
            return "position " + _json(observation)
        case Moves(moves):
            return " ".join(("moves", *moves))
        case Shown(seat, cards):
            return " ".join(("shown", str(seat), *cards))
        case Go():
            return format_go(message)
        case GameResult(winner, termination):
            return f"result {'draw' if winner is None else winner} {termination}"
        case Quit():
            return "quit"
    raise TypeError(f"not a referee message: {message!r}")


def format_bot(message: BotMessage) -> str:
    """The line (without its newline) that carries ``message`` to the referee."""
    match message:
        case Name(text):
            return "name " + text
        case Author(text):
            return "author " + text
        case Updates(mode):
            return "updates " + mode
        case Speaks(version):
            return f"protocol {version}"
        case Ready():
            return "ready"
        case Info(text):
            return "info " + text
        case Move(text):
            return "move " + text
    raise TypeError(f"not a bot message: {message!r}")


# -- parsing -------------------------------------------------------------------------------


def _integer(text: str, what: str, line: str) -> int:
    if not text or not (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        raise ProtocolError(f"{what} must be a whole number, not {text!r}", line)
    return int(text)


def _keyed(words: list[str], line: str) -> dict[str, list[str]]:
    """Split ``key v v key v ...``: a key is a word starting with a letter."""
    values: dict[str, list[str]] = {}
    key = None
    for word in words:
        if word[:1].isalpha():
            key = word
            values[key] = []
        elif key is None:
            raise ProtocolError(f"a value {word!r} before any key", line)
        else:
            values[key].append(word)
    return values


def _single(values: dict[str, list[str]], key: str, line: str) -> int | None:
    if key not in values:
        return None
    if len(values[key]) != 1:
        raise ProtocolError(f"{key!r} takes one whole number", line)
    return _integer(values[key][0], key, line)


def parse_go(line: str) -> Go:
    values = _keyed(line.split()[1:], line)
    times = tuple(_integer(v, "a clock time", line) for v in values.get("time", []))
    if "time" in values and not times:
        raise ProtocolError("'time' needs each seat's milliseconds", line)
    bonus, bonus_ms = "none", 0
    for key, kind in BONUS_KEYS.items():
        amount = _single(values, key, line)
        if amount is not None:
            bonus, bonus_ms = kind, amount
    movetime = _single(values, "movetime", line)
    if any(t < 0 for t in times) or bonus_ms < 0 or (movetime is not None and movetime < 0):
        raise ProtocolError("times cannot be negative", line)
    return Go(times, bonus, bonus_ms, movetime)


def _parse_json_object(text: str, what: str, line: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ProtocolError(f"{what} is not valid JSON ({error})", line) from None
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} must be a JSON object", line)
    return value


def parse_referee_line(line: str) -> RefereeMessage | None:
    """The referee's message on ``line``; ``None`` for a blank line or an unknown command
    (a bot ignores those, so that later versions can add commands)."""
    line = line.rstrip("\r\n")
    command, _, rest = line.partition(" ")
    if command == "go":
        return parse_go(line)
    if command == "moves":
        return Moves(tuple(rest.split()))
    if command == "position":
        return Position(_parse_json_object(rest, "the observation", line))
    if command == "shown":
        words = rest.split()
        if not words:
            raise ProtocolError("'shown' needs a seat", line)
        return Shown(_integer(words[0], "the seat", line), tuple(words[1:]))
    if command == "game":
        head, marker, options = rest.partition(" options ")
        words = head.split()
        if not words:
            raise ProtocolError("'game' needs the game's name", line)
        values = _keyed(words[1:], line)
        numbers = {key: _single(values, key, line) for key in ("seat", "seats", "seed")}
        missing = [key for key, value in numbers.items() if value is None]
        if missing:
            raise ProtocolError(f"'game' needs {missing[0]!r}", line)
        opts = _parse_json_object(options, "the options", line) if marker else {}
        seat, seats, seed = numbers["seat"], numbers["seats"], numbers["seed"]
        assert seat is not None and seats is not None and seed is not None
        return NewGame(words[0], seat, seats, seed, opts)
    if command == "protocol":
        versions = tuple(_integer(word, "a version", line) for word in rest.split())
        if not versions:
            raise ProtocolError("'protocol' needs at least one version", line)
        return Hello(versions)
    if command == "result":
        words = rest.split()
        if not words:
            raise ProtocolError("'result' needs the winning side or 'draw'", line)
        winner = None if words[0] == "draw" else _integer(words[0], "the winning side", line)
        return GameResult(winner, words[1] if len(words) > 1 else "normal")
    if command == "quit":
        return Quit()
    return None


def parse_bot_line(line: str) -> BotMessage | None:
    """The bot's message on ``line``; ``None`` for a blank line. Anything else that is not
    a command of the protocol raises :class:`ProtocolError` naming the line."""
    line = line.rstrip("\r\n")
    command, _, rest = line.partition(" ")
    if command == "move":
        words = rest.split()
        if len(words) != 1:
            raise ProtocolError("'move' takes exactly one move in the game's notation", line)
        return Move(words[0])
    if command == "info":
        return Info(rest.strip())
    if not command.strip():
        if line.strip():
            raise ProtocolError("a line may not start with a space", line)
        return None
    if command in ("name", "author"):
        text = rest.strip()
        if not text:
            raise ProtocolError(f"'{command}' needs a text", line)
        return Name(text) if command == "name" else Author(text)
    if command == "updates":
        if rest.strip() not in UPDATE_MODES:
            raise ProtocolError(f"'updates' takes one of {', '.join(UPDATE_MODES)}", line)
        return Updates(rest.strip())
    if command == "protocol":
        words = rest.split()
        if len(words) != 1:
            raise ProtocolError("'protocol' takes the one version the bot speaks", line)
        return Speaks(_integer(words[0], "the version", line))
    if command == "ready":
        if rest.strip():
            raise ProtocolError("'ready' takes nothing after it", line)
        return Ready()
    raise ProtocolError(
        f"unknown command {command!r} (a bot sends name, author, updates, protocol, "
        "ready, info or move)", line,
    )
