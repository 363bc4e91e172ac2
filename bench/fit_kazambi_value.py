"""Fit the weights of games.bots.kazambi_value on greedy self-play (Kazambi 7x8).

Each game starts from a deal seeded by its number; both seats play the greedy bot's
move, except a random legal move with probability 0.5 in the first four plies and 0.08
after (so the positions vary). Every position from the third ply on where a seat can
move becomes a sample: :func:`~games.bots.kazambi_value.features` from the seat to
move's side, labelled 1 when that seat's side won. A logistic regression (Newton's
method, a light L2 penalty) is fitted on four fifths of the samples and its log loss
reported on the rest, next to a constant guess and the current weights.

Usage (from the repository root)::

    python bench/fit_kazambi_value.py [--games 14000] [--first-seed 0] [--workers 2]

It prints the weights to paste into ``WEIGHTS`` (the committed ones come from the
defaults: 223,862 positions); 14,000 games take about 6 minutes on two cores.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.adapters import KazambiSearch  # noqa: E402
from games.bots.greedy import kazambi_move  # noqa: E402
from games.bots.kazambi_value import WEIGHTS, features  # noqa: E402
from games.engines import get_engine  # noqa: E402
from games.engines.kazambi.rules import hand_tiles  # noqa: E402

Sample = tuple[list[float], int]


def play(seed: int) -> list[Sample]:
    """The samples of one greedy self-play game from deal ``seed``."""
    engine = get_engine("kazambi")
    adapter = KazambiSearch("kazambi")
    rng = random.Random(seed * 7 + 1)
    state = engine.new_game(seed=seed)
    positions: list[tuple[list[float], int]] = []
    ply = 0
    while True:
        moves = adapter.moves(state)
        if not moves:
            loser_side = state.to_move % 2
            break
        mover = state.to_move
        if ply >= 2:
            positions.append((
                features(
                    state.geometry,
                    state.allowed,
                    hand_tiles(state.hands[mover]),
                    hand_tiles(state.hands[(mover + 1) % state.seats]),
                ),
                mover % 2,
            ))
        explore = rng.random() < (0.5 if ply < 4 else 0.08)
        move = rng.choice(moves) if explore else kazambi_move(adapter, state, rng)
        adapter.push(state, move)
        ply += 1
    return [(values, int(side != loser_side)) for values, side in positions]


def _chance(weights: list[float] | tuple[float, ...], values: list[float]) -> float:
    z = sum(w * x for w, x in zip(weights, values, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def log_loss(weights: list[float] | tuple[float, ...], samples: list[Sample]) -> float:
    total = 0.0
    for values, label in samples:
        chance = min(max(_chance(weights, values), 1e-9), 1 - 1e-9)
        total -= math.log(chance if label else 1.0 - chance)
    return total / len(samples)


def fit(samples: list[Sample], penalty: float = 1e-3, steps: int = 12) -> list[float]:
    """Logistic regression by Newton's method."""
    size = len(samples[0][0])
    weights = [0.0] * size
    for _ in range(steps):
        gradient = [penalty * w for w in weights]
        hessian = [[penalty if i == j else 0.0 for j in range(size)] for i in range(size)]
        for values, label in samples:
            chance = _chance(weights, values)
            error, curvature = chance - label, chance * (1.0 - chance)
            nonzero = [(i, x) for i, x in enumerate(values) if x]
            for position, (i, x_i) in enumerate(nonzero):
                gradient[i] += error * x_i
                row, scaled = hessian[i], curvature * x_i
                for j, x_j in nonzero[position:]:
                    row[j] += scaled * x_j
        for i in range(size):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [matrix[i][:] + [vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=14_000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(play, seeds, chunksize=50))
    samples = [sample for game in games for sample in game]
    random.Random(1).shuffle(samples)
    cut = len(samples) * 4 // 5
    train, test = samples[:cut], samples[cut:]
    weights = fit(train)
    rate = sum(label for _, label in train) / len(train)
    constant = [math.log(rate / (1 - rate))] + [0.0] * (len(weights) - 1)
    print(f"{len(samples)} positions from {args.games} games")
    print(f"test log loss: fitted {log_loss(weights, test):.4f}, "
          f"current WEIGHTS {log_loss(WEIGHTS, test):.4f}, constant {log_loss(constant, test):.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")


if __name__ == "__main__":
    main()
