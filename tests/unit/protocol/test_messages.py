"""Protocol lines: every message formats to a line that parses back to it; bad lines are
refused with the line named; the reference client answers the referee."""

from __future__ import annotations

import io

import pytest

from games.bots.protocol.client import ClientBot, serve
from games.bots.protocol.messages import (
    Author,
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
    format_referee,
    parse_bot_line,
    parse_go,
    parse_referee_line,
)

REFEREE = [
    Hello((1,)), Hello((1, 2)),
    NewGame("kugamai", 1, 2, 1234567890123, {"low_doubles_seat": None}),
    NewGame("stolbiki", 3, 4, 0, {"deck": 52, "team_size": 2}),
    Position({"game": "kazambi", "board": ["...."], "hands": [["0-1"]]}),
    Moves(("0-0", "0-4")), Moves(()), Shown(3, ("TH", "9D")), Shown(1, ()),
    Go((59800, 60000), "fischer", 2000), Go((1000, 2000, 3000, 4000), "simple_delay", 5000, 700),
    Go((5, 6), "bronstein", 1), Go(movetime_ms=5000), Go((60000, 60000)),
    GameResult(0), GameResult(None, "forfeit"), GameResult(1, "time_forfeit"), Quit(),
]
BOT = [Name("Mighty bot 2.1"), Author("A. Author <a@example.org>"), Updates("moves"),
       Speaks(1), Ready(), Info("depth 3 score 0.61 pv 4-1 1-3"), Info(""), Move("QS@2,-1")]


@pytest.mark.parametrize("message", REFEREE, ids=repr)
def test_referee_lines_round_trip(message: object) -> None:
    line = format_referee(message)  # type: ignore[arg-type]
    assert "\n" not in line
    assert parse_referee_line(line + "\r\n") == message


@pytest.mark.parametrize("message", BOT, ids=repr)
def test_bot_lines_round_trip(message: object) -> None:
    assert parse_bot_line(format_bot(message) + "\n") == message  # type: ignore[arg-type]


def test_go_says_how_long_a_seat_may_think() -> None:
    assert parse_go("go time 3000 9000 delay 2000").seconds_for(0) == 5.0
    assert parse_go("go time 3000 9000 inc 2000 movetime 1000").seconds_for(1) == 1.0
    assert Go().seconds_for(0) is None


def test_readers_skip_what_they_do_not_know() -> None:
    assert parse_referee_line("ponder 4-1") is None
    assert parse_referee_line("") is None
    assert parse_go("go nodes 100 time 5 6 hurry") == Go((5, 6))
    game = parse_referee_line("game kugamai seat 0 seats 2 seed 9 variant x options {}")
    assert game == NewGame("kugamai", 0, 2, 9, {})


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("hello referee", "unknown command 'hello'"),
        ("move", "exactly one move"),
        ("move 4-1 1-3", "exactly one move"),
        ("protocol one", "whole number"),
        ("protocol 1 2", "the one version"),
        ("updates sometimes", "positions, moves"),
        ("ready now", "nothing after it"),
        ("name", "needs a text"),
        (" move 4-1", "may not start with a space"),
    ],
)
def test_a_bad_bot_line_is_refused_with_the_line(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as caught:
        parse_bot_line(line)
    assert caught.value.line == line
    assert repr(line) in str(caught.value)


@pytest.mark.parametrize(
    "line",
    ["go time", "go movetime -5", "go time 5 -x", "game kugamai seat 0 seats 2",
     "game kugamai seat 0 seats 2 seed 1 options [1]", "position {bad json",
     "shown", "result", "protocol"],
)
def test_a_bad_referee_line_is_refused(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_referee_line(line)


class Echo(ClientBot):
    name, author, updates = "Echo", "tests", "moves"

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[object] = []

    def on_moves(self, moves: tuple[str, ...]) -> None:
        self.heard.append(moves)

    def on_shown(self, seat: int, cards: tuple[str, ...]) -> None:
        self.heard.append((seat, cards))

    def choose(self, observation: dict[str, object], go: Go) -> str:
        self.info(f"seen {len(self.heard)}")
        return "pass"

    def game_over(self, result: GameResult) -> None:
        self.heard.append(result)


def test_the_reference_client_answers_the_referee() -> None:
    bot = Echo()
    referee = io.StringIO(
        "protocol 1 2\ngame stolbiki seat 2 seats 4 seed 7 options {}\n"
        'position {"hand": []}\ngo movetime 100\nmoves pass TH@1,0\nshown 1 2C\n'
        "go movetime 100\nresult draw normal\nquit\ngo movetime 100\n"
    )
    out = io.StringIO()
    assert serve(bot, referee, out) == 0
    assert out.getvalue().splitlines() == [
        "name Echo", "author tests", "updates moves", "protocol 1", "ready",
        "info seen 0", "move pass", "info seen 2", "move pass",
    ]
    assert bot.game == NewGame("stolbiki", 2, 4, 7, {})
    assert bot.heard[-1] == GameResult(None)


def test_the_client_refuses_a_referee_without_its_version() -> None:
    with pytest.raises(ProtocolError, match="versions"):
        serve(Echo(), io.StringIO("protocol 9\n"), io.StringIO())


def test_the_client_needs_nothing_but_the_standard_library() -> None:
    import subprocess
    import sys

    code = ("import sys, games.bots.protocol.client; "
            "print(sorted(m for m in sys.modules if m.startswith(('games.', 'django'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == ("['games.bots', 'games.bots.protocol', 'games.bots.protocol.client', "
                           "'games.bots.protocol.messages']")


def test_docstring_examples() -> None:
    import doctest

    import games.bots.process.installed
    import games.bots.protocol.client
    import games.series.seeds

    for module in (games.bots.protocol.client, games.series.seeds,
                   games.bots.process.installed):
        assert doctest.testmod(module).failed == 0
