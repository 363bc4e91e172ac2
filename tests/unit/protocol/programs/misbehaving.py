"""A bot for the tests that plays correctly (random legal moves) until it misbehaves as
its first argument says: crash, raise, hang, flood, flood_info, stderr_flood, garbage,
illegal, memory, cpu, network, fork, wrong_version, silent, unsolicited, slow
(sleeps ARG seconds on every move).

It misbehaves on its first move (``at_start`` variants before the handshake).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from games.bots.protocol.client import ClientBot, serve  # noqa: E402
from games.bots.protocol.messages import Go, NewGame  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
ARG = sys.argv[2] if len(sys.argv) > 2 else ""


class Misbehaving(ClientBot):
    name = f"misbehaving {MODE}"
    author = "tests"

    def new_game(self, game: NewGame) -> None:
        self.bot = get_bot("random", seed=game.seed)
        self.moves = 0

    def choose(self, observation: dict[str, Any], go: Go) -> str:
        assert self.game is not None
        self.moves += 1
        if MODE == "slow":
            time.sleep(float(ARG))
        if self.moves == 1:
            self.misbehave(observation)
        return self.bot.choose(self.game.game, observation)

    def misbehave(self, observation: dict[str, Any]) -> None:
        out = sys.stdout
        if MODE == "crash":
            sys.exit(3)
        if MODE == "raise":
            raise RuntimeError("the bot's own bug")
        if MODE == "hang":
            time.sleep(3600)
        if MODE == "flood":
            out.write("x" * (10 << 20))
            out.flush()
            time.sleep(3600)
        if MODE == "flood_info":
            while True:
                out.write("info depth 1 nodes 1 score 0\n")
        if MODE == "stderr_flood":
            while True:
                sys.stderr.write("e" * 65536)
        if MODE == "garbage":
            out.write("hello referee, how are you?\n")
            out.flush()
            time.sleep(3600)
        if MODE == "binary":
            out.buffer.write(b"\xff\xfe move \x00\n")
            out.flush()
            time.sleep(3600)
        if MODE == "illegal":
            legal = self.bot.choose(self.game.game, observation)  # type: ignore[union-attr]
            out.write("move " + ("0-0" if legal == "pass" else "pass") + "\n")
            out.flush()
            time.sleep(3600)
        if MODE == "memory":
            hoard = [bytearray(64 << 20) for _ in range(64)]  # 4 GiB
            out.write(f"info string kept {len(hoard)}\n")
        if MODE == "cpu":
            while True:
                pass
        if MODE == "network":
            for host, port in (("127.0.0.1", int(ARG or 5432)), ("1.1.1.1", 53)):
                try:
                    socket.create_connection((host, port), timeout=2).close()
                    self.info(f"string network reachable {host}:{port}")
                except OSError as error:
                    self.info(f"string network blocked {host}:{port} {error.errno}")
        if MODE == "fork":
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", ARG],
                             start_new_session=True, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.info("string forked")
        if MODE == "unsolicited":
            legal = self.bot.choose(self.game.game, observation)  # type: ignore[union-attr]
            out.write(f"move {legal}\nmove {legal}\n")


if __name__ == "__main__":
    if MODE == "crash_at_start":
        sys.exit(5)
    if MODE == "silent":
        time.sleep(3600)
    if MODE == "wrong_version":
        sys.stdin.readline()
        print("protocol 7", flush=True)
        time.sleep(3600)
    sys.exit(serve(Misbehaving()))
