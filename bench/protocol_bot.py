"""The built-in random bot behind the protocol (as the launcher serves it), reporting its
process's CPU seconds after each move: ``info string cpu SECONDS`` (bench_protocol.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.process.launcher import BuiltinClient  # noqa: E402
from games.bots.protocol.client import serve  # noqa: E402
from games.bots.protocol.messages import Go  # noqa: E402


class Timed(BuiltinClient):
    def choose(self, observation: dict[str, Any], go: Go) -> str:
        move = super().choose(observation, go)
        self.info(f"string cpu {time.process_time():.6f}")
        return move


if __name__ == "__main__":
    sys.exit(serve(Timed("random", {})))
