"""The reference client: write a bot by subclassing :class:`ClientBot`, then ``serve`` it.

>>> import io
>>> class FirstTile(ClientBot):
...     name, author = "First tile", "Docs"
...     def choose(self, observation, go):
...         return "0-0"
>>> out = io.StringIO()
>>> serve(FirstTile(), io.StringIO("protocol 1\\ngame kugamai seat 1 seats 2 seed 5 options {}\\n"
...       'position {"to_move": 1}\\ngo movetime 1000\\nquit\\n'), out)
0
>>> print(out.getvalue(), end="")
name First tile
author Docs
protocol 1
ready
move 0-0

The client speaks the protocol (docs/bot-protocol.md); the bot only chooses moves from its
seat's observation. Standard library only: no Django, no engine.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, Protocol

from games.bots.protocol.messages import (
    VERSIONS,
    Author,
    BotMessage,
    GameResult,
    Go,
    Hello,
    Info,
    Move,
    Moves,
    Name,
    NewGame,
    Position,
    ProtocolError,
    Quit,
    Ready,
    Shown,
    Speaks,
    Updates,
    format_bot,
    parse_referee_line,
)


class Output(Protocol):
    """Where the client writes its lines (``sys.stdout`` or anything like it)."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


class ClientBot:
    """A bot behind the reference client. Override :meth:`choose`; the others are optional.

    With ``updates = "moves"`` the referee sends one ``position`` per game and then only
    the moves since the last update: override :meth:`on_moves` (and :meth:`on_shown` for
    Stolbiki) to keep your own position; ``choose`` then gets that first observation.
    """

    name: str = "Unnamed bot"
    author: str = "unknown"
    updates: str = "positions"

    def __init__(self) -> None:
        self._out: Output | None = None
        self.game: NewGame | None = None

    def new_game(self, game: NewGame) -> None:
        """A new game starts: ``game.game``, ``game.seat``, ``game.seed``, ``game.options``."""

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        """The move (canonical text) for the seat to move; ``go`` carries the clocks."""
        raise NotImplementedError

    def on_moves(self, moves: tuple[str, ...]) -> None:
        """Moves played since the last update (only with ``updates = "moves"``)."""
        raise NotImplementedError("a bot with updates = 'moves' must override on_moves")

    def on_shown(self, seat: int, cards: tuple[str, ...]) -> None:
        """All the cards Stolbiki seat ``seat`` has shown (only with ``updates = "moves"``)."""

    def game_over(self, result: GameResult) -> None:
        """The game ended: ``result.winner`` is 0, 1 or None (a draw)."""

    def info(self, text: str) -> None:
        """Send an info line (depth, score, nodes...); the referee stores it with the move."""
        self._send(Info(text))

    def _send(self, message: BotMessage) -> None:
        if self._out is None:
            raise RuntimeError("the bot is not being served")
        self._out.write(format_bot(message) + "\n")
        self._out.flush()


def serve(
    bot: ClientBot, stdin: Iterable[str] | None = None, stdout: Output | None = None
) -> int:
    """Answer the referee on ``stdin`` (any iterable of lines) and ``stdout`` until
    ``quit`` or the end of the input.

    Returns 0, for ``sys.exit``. A line from the referee that breaks the protocol raises
    :class:`ProtocolError`.
    """
    read = stdin if stdin is not None else sys.stdin
    bot._out = stdout if stdout is not None else sys.stdout
    observation: dict[str, Any] = {}
    for line in read:
        message = parse_referee_line(line)
        match message:
            case Go():
                bot._send(Move(bot.choose(observation, message)))
            case Position(observation_):
                observation = observation_
            case Moves(moves):
                bot.on_moves(moves)
            case Shown(seat, cards):
                bot.on_shown(seat, cards)
            case NewGame():
                bot.game, observation = message, {}
                bot.new_game(message)
                bot._send(Ready())
            case Hello(versions):
                if not set(versions) & set(VERSIONS):
                    raise ProtocolError(f"the referee speaks versions {versions}, this "
                                        f"client {VERSIONS}", line)
                bot._send(Name(bot.name))
                bot._send(Author(bot.author))
                if bot.updates != "positions":
                    bot._send(Updates(bot.updates))
                bot._send(Speaks(max(set(versions) & set(VERSIONS))))
            case GameResult():
                bot.game_over(message)
            case Quit():
                break
    return 0
