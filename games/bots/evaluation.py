"""Head-to-head statistics for bot evaluation: Elo difference with a 95% interval,
likelihood of superiority, the pentanomial model over duplicate game pairs, and an SPRT
stop rule (a generalised SPRT with the normal approximation, as engine testers use).

Scores are from the first bot's point of view: 1 a win, 0.5 a draw, 0 a loss.

>>> r = trinomial(wins=60, draws=20, losses=20)
>>> round(r.elo, 1), round(r.los, 4)
(147.2, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


class EvaluationError(ValueError):
    """Counts that no statistic can be drawn from."""


def elo_from_score(score: float) -> float:
    """The Elo difference whose logistic expected score is ``score`` (0 < score < 1)."""
    if not 0.0 < score < 1.0:
        return math.copysign(math.inf, score - 0.5) if score != 0.5 else 0.0
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class HeadToHead:
    """What a series of games says about bot A against bot B."""

    samples: int  # games (trinomial) or game pairs (pentanomial)
    score: float  # mean score per game, 0..1
    variance: float  # per-sample variance of the score
    elo: float
    elo_low: float
    elo_high: float
    los: float  # likelihood that A is stronger

    @property
    def standard_error(self) -> float:
        return math.sqrt(self.variance / self.samples) if self.samples else math.inf


def _from_distribution(outcomes: Sequence[tuple[float, int]]) -> HeadToHead:
    n = sum(count for _, count in outcomes)
    if n == 0:
        raise EvaluationError("no games to evaluate")
    mean = sum(value * count for value, count in outcomes) / n
    variance = sum(count * (value - mean) ** 2 for value, count in outcomes) / n
    se = math.sqrt(variance / n)
    low = min(max(mean - Z95 * se, 0.0), 1.0)
    high = min(max(mean + Z95 * se, 0.0), 1.0)
    los = 0.5 if se == 0 and mean == 0.5 else (_phi((mean - 0.5) / se) if se > 0 else
                                                float(mean > 0.5))
    return HeadToHead(n, mean, variance, elo_from_score(mean), elo_from_score(low),
                      elo_from_score(high), los)


def trinomial(*, wins: int, draws: int, losses: int) -> HeadToHead:
    """Statistics over single games (wins, draws, losses of bot A)."""
    if min(wins, draws, losses) < 0:
        raise EvaluationError("counts cannot be negative")
    return _from_distribution([(1.0, wins), (0.5, draws), (0.0, losses)])


def pentanomial(counts: Sequence[int]) -> HeadToHead:
    """Statistics over duplicate game pairs: ``counts[k]`` pairs in which bot A scored
    ``k / 2`` points out of 2 (k = 0..4). Pairs cancel the luck of the deal, so the
    interval is narrower than the trinomial one over the same games when deals matter."""
    if len(counts) != 5 or min(counts) < 0:
        raise EvaluationError("the pentanomial model needs five non-negative pair counts")
    return _from_distribution([(k / 4.0, c) for k, c in enumerate(counts)])


def pair_counts(pair_scores: Iterable[float]) -> list[int]:
    """Pentanomial counts from the points bot A scored in each game pair (0, 0.5, ..., 2)."""
    counts = [0] * 5
    for points in pair_scores:
        k = round(points * 2)
        if not 0 <= k <= 4 or abs(points * 2 - k) > 1e-9:
            raise EvaluationError(f"a game pair scores 0, 0.5, 1, 1.5 or 2 points, not {points}")
        counts[k] += 1
    return counts


@dataclass(frozen=True)
class Sprt:
    """H0: A is ``elo0`` stronger; H1: ``elo1``; error rates ``alpha`` and ``beta``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise EvaluationError("alpha and beta lie strictly between 0 and 1")
        if self.elo1 <= self.elo0:
            raise EvaluationError("elo1 must be larger than elo0")

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, result: HeadToHead) -> float:
        """Log-likelihood ratio of H1 against H0 (normal approximation)."""
        if result.variance <= 0:
            return 0.0
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return result.samples * (s1 - s0) * (2 * result.score - s0 - s1) / (2 * result.variance)

    def decision(self, result: HeadToHead) -> str | None:
        """``"H1"`` (A is stronger by elo1), ``"H0"``, or None: keep playing."""
        llr = self.llr(result)
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None
