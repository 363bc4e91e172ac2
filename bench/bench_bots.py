"""Bot strength: duplicate-deal matches between bot kinds, one table per game.

Every deal is played twice with the roles swapped (bot A on side 0, then on side 1), so
the luck of the deal cancels. For each pairing the table gives A's wins, draws and
losses, the share of decided games A won, and A's mean and longest CPU time per move
(:func:`time.process_time`: both bots play in this process, one at a time).

Usage (from the repository root)::

    python bench/bench_bots.py [--games N] [--iterations I | --cpu-seconds S]
                               [--game NAME ...] [--pairing A:B ...] [--first-deal D]

``--games`` counts games per pairing (two per deal). A bot is a kind or
``KIND{json settings}``, e.g. ``mcts{"version": 1}`` (the pairing separator is the
first ``:`` outside the settings). ``--cpu-seconds`` gives every search that CPU time per
move instead of an iteration count. ``--first-deal`` starts at another deal, so that two
runs side by side (one per core; CPU budgets do not slow each other) play different
deals. Defaults: 40 games, 300 MCTS iterations per move, Kugamai, Stolbiki and Kazambi
7x8, pairings mcts:greedy, mcts:mcts{"version": 1}, first deal 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections.abc import Mapping  # noqa: E402
from typing import Any  # noqa: E402

from games.bots.base import Bot, Budget  # noqa: E402
from games.bots.play import play_game, side_bots  # noqa: E402
from games.bots.registry import get_bot  # noqa: E402
from games.engines import ENGINE_NAMES, get_engine  # noqa: E402

TABLE_GAMES = ("kugamai", "stolbiki", "kazambi")
PAIRINGS = ("mcts:greedy", 'mcts:mcts{"version": 1}')


def bot_of(text: str, seed: int) -> Bot:
    """A bot from ``KIND`` or ``KIND{json settings}``."""
    kind, brace, rest = text.partition("{")
    settings = json.loads(brace + rest) if brace else {}
    return get_bot(kind, seed=seed, **settings)


def split_pairing(text: str) -> tuple[str, str]:
    """``A:B`` split at the first colon outside braces."""
    depth = 0
    for index, char in enumerate(text):
        depth += (char == "{") - (char == "}")
        if char == ":" and not depth:
            return text[:index], text[index + 1 :]
    raise SystemExit(f"a pairing is A:B, not {text!r}")


class TimedBot(Bot):
    """Plays like ``inner`` and adds each move's thinking time to ``times``."""

    kind = "timed"

    def __init__(self, inner: Bot, times: list[float]) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.times = times

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        started = time.process_time()
        move = self.inner.pick(game, observation, budget)
        self.times.append(time.process_time() - started)
        return move


def run_pairing(
    game: str, first: str, second: str, games: int, budget: Budget, first_deal: int = 0
) -> str:
    seats = get_engine(game).seat_count()
    wins = draws = losses = 0
    move_times: list[float] = []
    started = time.perf_counter()
    for deal in range(first_deal, first_deal + games // 2):
        for a_side in (0, 1):
            bot_a = TimedBot(bot_of(first, deal * 2 + a_side), move_times)
            bot_b = bot_of(second, 10_000 + deal * 2 + a_side)
            bots = side_bots(bot_a, bot_b, seats) if a_side == 0 else side_bots(
                bot_b, bot_a, seats
            )
            result, _ = play_game(game, bots, seed=deal, budget=budget)
            winner = result["winner"]
            if winner is None:
                draws += 1
            elif winner == a_side:
                wins += 1
            else:
                losses += 1
    decided = wins + losses
    share = f"{100 * wins / decided:5.1f}%" if decided else "   n/a"
    seconds = time.perf_counter() - started
    mean_move = sum(move_times) / len(move_times) if move_times else 0.0
    longest = max(move_times, default=0.0)
    return (
        f"{game:<19} {first + ' v ' + second:<30} {wins:>5} {draws:>5} {losses:>6} "
        f"{share:>8} {seconds:>7.0f}s {mean_move:>8.3f}s {longest:>7.3f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--cpu-seconds", type=float, default=None)
    parser.add_argument("--game", action="append", choices=ENGINE_NAMES)
    parser.add_argument("--pairing", action="append")
    parser.add_argument("--first-deal", type=int, default=0)
    args = parser.parse_args()
    if args.first_deal < 0:
        parser.error("--first-deal is a deal number, 0 or more")
    if args.cpu_seconds:
        budget = Budget(cpu_seconds=args.cpu_seconds)
        per_move = f"{args.cpu_seconds} s CPU"
    else:
        budget = Budget(iterations=args.iterations)
        per_move = f"{args.iterations} iterations"
    deals = f"deals {args.first_deal}-{args.first_deal + args.games // 2 - 1}"
    print(f"{args.games} games per pairing ({deals}, duplicate), MCTS {per_move} per move")
    print(f"{'game':<19} {'A v B':<30} {'wins':>5} {'draws':>5} {'losses':>6} {'A won':>8} "
          f"{'time':>8} {'A/move':>9} {'A max':>8}")
    for game in args.game or TABLE_GAMES:
        for pairing in args.pairing or PAIRINGS:
            first, second = split_pairing(pairing)
            line = run_pairing(game, first, second, args.games, budget, args.first_deal)
            print(line, flush=True)


if __name__ == "__main__":
    main()
