"""Protocol overhead: Kugamai games between two random bots, in-process and through the
process boundary (each seat a launcher process speaking the protocol, in its sandbox).

A move through the boundary is timed in the referee from its turn to the move played: the
observation sent as JSON, the bot process reading it, choosing (the same random bot, which
answers at once) and answering, the referee reading and playing the move. In-process, the
same bot gets the same observation as a dict. The difference is the protocol's overhead
per move; the target (issue 17) is at most 1 ms on average over a Kugamai game. Starting
and stopping the two processes of a game is reported apart (it is paid once per game).

Usage: python bench/bench_protocol.py [games]
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.base import Budget  # noqa: E402
from games.bots.process.sandbox import isolation_available  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.engines import get_engine  # noqa: E402
from games.series import referee  # noqa: E402
from games.series.deals import deal_for_game  # noqa: E402
from games.series.referee import BotSpec, referee_game  # noqa: E402
from games.series.roles import game_roles  # noqa: E402
from games.series.seeds import bot_seeds, deal_seed  # noqa: E402

GAME = "kugamai"
SECRET = "bench"
TARGET_MS = 1.0


def deals(games: int) -> list[dict[str, Any]]:
    return [deal_for_game(GAME, {}, deal_seed(SECRET, n), game_roles(GAME, n))
            for n in range(games)]


def in_process(all_deals: list[dict[str, Any]]) -> tuple[int, float, float]:
    """Moves, wall seconds and CPU seconds of the move loop, bots called directly."""
    engine = get_engine(GAME)
    moves = 0
    wall = cpu = 0.0
    for n, deal in enumerate(all_deals):
        bots = [get_bot("random", seed=seed) for seed in bot_seeds(SECRET, 2, n)]
        state = engine.new_game(deal=deal)
        while not engine.is_over(state):
            started, started_cpu = time.perf_counter(), time.process_time()
            seat = engine.to_move(state)
            move = bots[seat].choose(GAME, engine.observation(state, seat), Budget())
            state = engine.play(state, move)
            wall += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
            moves += 1
    return moves, wall, cpu


def through_boundary(all_deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The same games through the referee; the move loop is timed around each move."""
    move_walls: list[float] = []
    move_cpu = [0.0]
    original = referee._Game._move

    def timed_move(self: Any) -> None:
        started, started_cpu = time.perf_counter(), time.process_time()
        original(self)
        move_walls.append(time.perf_counter() - started)
        move_cpu[0] += time.process_time() - started_cpu

    referee._Game._move = timed_move  # type: ignore[method-assign]
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started, started_cpu = time.perf_counter(), time.process_time()
    per_game_moves = []
    try:
        for n, deal in enumerate(all_deals):
            outcome = referee_game(GAME, {}, deal, (BotSpec("random"), BotSpec("random")),
                                   seeds=bot_seeds(SECRET, 2, n))
            assert outcome.termination == "normal", outcome.reason
            per_game_moves.append(len(outcome.record["moves"]))
    finally:
        referee._Game._move = original  # type: ignore[method-assign]
    wall = time.perf_counter() - started
    cpu = time.process_time() - started_cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    children_cpu = (children.ru_utime - children_before.ru_utime
                    + children.ru_stime - children_before.ru_stime)
    return {"moves": len(move_walls), "move_walls": move_walls, "move_cpu": move_cpu[0],
            "wall": wall, "cpu": cpu, "children_cpu": children_cpu,
            "per_game_moves": per_game_moves}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    all_deals = deals(games)
    load = os.getloadavg()[0]
    print(f"protocol overhead: {games} Kugamai games, random v random "
          f"(load average {load:.1f} on {os.cpu_count()} cores)")
    print(f"  {isolation_available()}")
    in_process(all_deals[:5])  # warm the caches
    moves, wall, cpu = in_process(all_deals)
    boundary = through_boundary(all_deals)
    assert boundary["moves"] == moves, (boundary["moves"], moves)
    walls = boundary["move_walls"]
    inproc_ms, boundary_ms = wall / moves * 1000, sum(walls) / moves * 1000
    overhead = boundary_ms - inproc_ms
    verdict = "ok" if overhead <= TARGET_MS else "MISSED"
    print(f"  moves: {moves} ({moves / games:.1f} a game)")
    print(f"  per move, in-process:          {inproc_ms:7.3f} ms wall, {cpu / moves * 1000:7.3f}"
          " ms CPU")
    print(f"  per move, through the boundary: {boundary_ms:7.3f} ms wall "
          f"(median {statistics.median(walls) * 1000:.3f}, 99th percentile "
          f"{sorted(walls)[int(len(walls) * 0.99)] * 1000:.3f}), "
          f"{boundary['move_cpu'] / moves * 1000:.3f} ms CPU in the referee")
    print(f"  protocol overhead per move:     {overhead:7.3f} ms wall "
          f"(target {TARGET_MS:g} ms: {verdict})")
    setup = (boundary["wall"] - sum(walls)) / games
    print(f"  per game, starting and stopping two bot processes: {setup * 1000:.0f} ms wall; "
          f"whole game {boundary['wall'] / games * 1000:.0f} ms wall, referee CPU "
          f"{boundary['cpu'] / games * 1000:.0f} ms, bot processes' CPU "
          f"{boundary['children_cpu'] / games * 1000:.0f} ms")


if __name__ == "__main__":
    main()
