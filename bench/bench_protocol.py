"""Protocol overhead: Kugamai games between two random bots, in-process and through the
process boundary (each seat a process speaking the protocol, in its sandbox).

A move through the boundary is timed in the referee from its turn to the move played: the
observation sent as JSON, the bot process reading it, choosing (the same random bot, which
answers at once, served as the launcher serves it: bench/protocol_bot.py, which also
reports its CPU time) and answering, the referee reading and playing the move. In-process,
the same bot gets the same observation as a dict. The difference is the protocol's
overhead per move; the target (issue 17) is at most 1 ms on average over a Kugamai game.
On a loaded machine the wall time mostly measures waiting for a CPU, so the CPU time of
both processes per move is reported too. Starting and stopping the two processes of a
game is reported apart (it is paid once per game): built-in bots forked by the fork
server (jailed, and without a jail) against a fresh Python interpreter per bot.

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
from games.bots.process.driver import BotProcess  # noqa: E402
from games.bots.process.forkserver import fork_server  # noqa: E402
from games.bots.process.launcher import builtin_command  # noqa: E402
from games.bots.process.sandbox import (  # noqa: E402
    Program,
    Sandbox,
    isolation_available,
)
from games.bots.protocol.messages import NewGame  # noqa: E402
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


BOT = BotSpec.program([sys.executable, "-I", "-S",
                       str(Path(__file__).resolve().parent / "protocol_bot.py")])


def through_boundary(all_deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The same games through the referee; the move loop is timed around each move, and
    the bots report their CPU time after each of their moves."""
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
    bot_cpu = bot_moves = 0.0
    try:
        for n, deal in enumerate(all_deals):
            outcome = referee_game(GAME, {}, deal, (BOT, BOT), seeds=bot_seeds(SECRET, 2, n))
            assert outcome.termination == "normal", outcome.reason
            per_game_moves.append(len(outcome.record["moves"]))
            for seat in (0, 1):  # CPU between a seat's first and last move, per move
                times = [float(info[-1].split()[-1]) for info in outcome.info[seat::2]]
                if len(times) > 1:
                    bot_cpu += times[-1] - times[0]
                    bot_moves += len(times) - 1
    finally:
        referee._Game._move = original  # type: ignore[method-assign]
    wall = time.perf_counter() - started
    cpu = time.process_time() - started_cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    children_cpu = (children.ru_utime - children_before.ru_utime
                    + children.ru_stime - children_before.ru_stime)
    return {"moves": len(move_walls), "move_walls": move_walls, "move_cpu": move_cpu[0],
            "bot_cpu_per_move": bot_cpu / bot_moves,
            "wall": wall, "cpu": cpu, "children_cpu": children_cpu,
            "per_game_moves": per_game_moves}


def _server_cpu() -> float:
    """CPU seconds of the fork server and of every bot process it has reaped (the kernel
    sums the children's time exactly; a single process's own is counted in ticks)."""
    server = fork_server()
    with open(f"/proc/{server.process.pid}/stat", "rb") as stream:
        fields = stream.read().rsplit(b")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def start_stop(games: int, program: Program, isolation: str = "auto") -> tuple[float, float]:
    """Wall and CPU seconds per game of starting two bot processes, handshake and
    ``ready``, then stopping them, without a move. CPU: the referee's, the fork server's
    and the bot processes' (each with the jail's own processes); the kernel's work done
    later in its own threads (a network namespace is cleaned up that way) is in none."""
    sandbox = Sandbox(isolation=isolation)
    time.sleep(0.3)  # the fork server has reaped the bots of before
    server_before, referee_before = _server_cpu(), time.process_time()
    started = time.perf_counter()
    for n in range(games):
        bots = [BotProcess(program, sandbox=sandbox) for _ in range(2)]
        for seat, bot in enumerate(bots):
            bot.handshake(time.perf_counter() + 10)
            bot.new_game(NewGame(GAME, seat, 2, n), time.perf_counter() + 10)
        for bot in bots:
            bot.quit()
        for bot in bots:
            bot.close()
    wall = time.perf_counter() - started
    referee_cpu = time.process_time() - referee_before
    time.sleep(0.3)  # the fork server reaps the bots once their referee let them go
    cpu = _server_cpu() - server_before + referee_cpu
    return wall / games, cpu / games


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
    rounds = max(10, games // 5)
    start_stop(2, Program(builtin=("random", {})))  # the fork server up and warm
    forked = start_stop(rounds, Program(builtin=("random", {})))
    forked_bare = start_stop(rounds, Program(builtin=("random", {})), "none")
    fresh = start_stop(rounds, Program(argv=tuple(builtin_command("random", {}))))
    bots_cpu = boundary["bot_cpu_per_move"]
    cpu_overhead = (boundary["move_cpu"] / moves + bots_cpu - cpu / moves) * 1000
    print(f"  protocol overhead per move, CPU: {cpu_overhead:7.3f} ms (the referee's CPU per "
          f"move and the bot process's ({bots_cpu * 1000:.3f} ms), less the in-process CPU)")
    print("  per game, starting and stopping two built-in bots (CPU: referee, fork server "
          "and bots):")
    for label, (wall_s, cpu_s) in (("forked by the fork server, jailed", forked),
                                   ("forked by the fork server, no jail", forked_bare),
                                   ("a fresh Python each, jailed", fresh)):
        print(f"    {label:36} {wall_s * 1000:6.1f} ms wall, {cpu_s * 1000:6.1f} ms CPU")
    print(f"  whole game (external program bots, fresh Python each): "
          f"{boundary['wall'] / games * 1000:.0f} ms wall")


if __name__ == "__main__":
    main()
