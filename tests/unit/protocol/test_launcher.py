"""The launcher serves a built-in bot through the protocol, with its settings' budget."""

from __future__ import annotations

import io
import json

import pytest

from games.bots.base import Budget
from games.bots.process.launcher import BuiltinClient, builtin_command, time_cap
from games.bots.protocol.client import serve
from games.bots.protocol.messages import Go, NewGame
from games.engines import get_engine


def test_time_cap() -> None:
    assert time_cap(Go(movetime_ms=5000), 0) == 4.0
    assert time_cap(Go((30_000, 60_000), "fischer", 1000), 1) == pytest.approx(4.8)
    assert time_cap(Go((30_000, 60_000), "fischer", 1000, 2000), 0) == pytest.approx(1.6)
    assert time_cap(Go((0, 0)), 0) == 0.001
    assert time_cap(Go(), 0) is None


def test_budgets_from_settings_and_clock() -> None:
    def budget(settings: dict[str, object], go: Go) -> Budget:
        client = BuiltinClient("mcts", settings)
        client.game = NewGame("kugamai", 0, 2, 1)
        return client.budget(go)

    assert budget({}, Go(movetime_ms=1000)) == Budget()  # the bot's own default
    assert budget({"iterations": 50}, Go(movetime_ms=1000)) == Budget(50, 0.8)
    assert budget({"seconds": 2}, Go(movetime_ms=1000)) == Budget(None, 0.8)
    assert budget({"seconds": 0.5}, Go(movetime_ms=1000)) == Budget(None, 0.5)


def test_the_launcher_serves_a_builtin_bot() -> None:
    engine = get_engine("kugamai")
    state = engine.new_game(seed=3)
    seat = engine.to_move(state)
    lines = ["protocol 1", f"game kugamai seat {seat} seats 2 seed 9 options {{}}",
             "position " + json.dumps(engine.observation(state, seat)), "go movetime 1000",
             "quit"]
    out = io.StringIO()
    serve(BuiltinClient("greedy", {}), io.StringIO("\n".join(lines) + "\n"), out)
    answer = out.getvalue().splitlines()
    assert answer[:4] == ["name built-in greedy", "author clubtourney built-in", "protocol 1",
                          "ready"]
    assert answer[4] == "move 0-0"


def test_the_command_runs_an_isolated_interpreter() -> None:
    command = builtin_command("mcts", {"iterations": 5}, python="/usr/bin/python3")
    assert command[:4] == ["/usr/bin/python3", "-I", "-S", "-c"]
    assert command[-2:] == ["mcts", '{"iterations":5}']


def test_the_cpu_limit_covers_the_clock() -> None:
    from games.bots.process.sandbox import Limits, Sandbox
    from games.clocks.setting import ClockSetting, IncrementKind
    from games.series.referee import game_sandbox

    sandbox = Sandbox(Limits(cpu_seconds=600))
    assert game_sandbox(sandbox, None, None) == sandbox
    assert game_sandbox(sandbox, None, 1.0).limits.cpu_seconds == 600
    assert game_sandbox(sandbox, None, 30.0).limits.cpu_seconds == 6000
    clock = ClockSetting(900, IncrementKind.FISCHER, 10)
    assert game_sandbox(sandbox, clock, None).limits.cpu_seconds == 2 * (900 + 1000)
