"""Head-to-head statistics for bot evaluation: Elo difference with a 95% interval,
likelihood of superiority, the pentanomial model over duplicate game pairs, and an SPRT
stop rule computed as fastchess computes it.

The SPRT's log-likelihood ratio is the generalised LLR of a multinomial distribution, solved
exactly (M. Van den Bergh, "Comparing the approximations for the generalized log likelihood
ratio of a multinomial distribution"; "Comments on normalized Elo"): for each hypothesis the
maximum-likelihood distribution over the observed outcome values with the hypothesis's
expected score (``"logistic"`` Elo) or normalized Elo t = (mean - 1/2) / sigma
(``"normalized"``, fastchess's default), and ``LLR = N * sum(p_hat * log(p1 / p0))``. As in
fastchess, an outcome never seen counts as 0.001 of a sample, so a clean sweep (zero
variance) still has a finite LLR that grows with every game and the test stops.
:func:`normal_llr` is the older normal approximation, kept for comparison.

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
    outcomes: tuple[tuple[float, int], ...] = ()  # (score per game, count), for the SPRT

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
                      elo_from_score(high), los, tuple(outcomes))


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


SPRT_MODELS = ("logistic", "normalized")
_NELO_PER_T = 800.0 / math.log(10.0)  # normalized Elo = t * 800 / ln 10
_UNSEEN = 1e-3  # fastchess counts an outcome never seen as this many samples
_ROOT_STEPS = 200


@dataclass(frozen=True)
class Sprt:
    """H0: A is ``elo0`` stronger; H1: ``elo1``; error rates ``alpha`` and ``beta``.

    ``model`` says what the Elo bounds mean: ``"logistic"`` Elo (the expected score
    ``1 / (1 + 10^(-elo/400))``, the classic bound of engine testers and this service's
    default) or fastchess's default ``"normalized"`` Elo (a t-value scaled by 800 / ln 10,
    independent of the draw rate). Statistics over game pairs (:func:`pentanomial`) use
    the pair's t, as fastchess does: sqrt(2) times the game's.
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise EvaluationError("alpha and beta lie strictly between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise EvaluationError("alpha and beta must add up to less than 1")
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise EvaluationError("elo0 and elo1 must be finite numbers")
        if self.elo1 <= self.elo0:
            raise EvaluationError("elo1 must be larger than elo0")
        if self.model not in SPRT_MODELS:
            raise EvaluationError(
                f"unknown SPRT model {self.model!r}; choose {' or '.join(SPRT_MODELS)}"
            )

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, result: HeadToHead) -> float:
        """Log-likelihood ratio of H1 against H0, solved exactly (see the module docstring)."""
        if not result.outcomes:
            raise EvaluationError("the SPRT needs the outcome counts of a series")
        scores = [value for value, _ in result.outcomes]
        counts = [count if count > 0 else _UNSEEN for _, count in result.outcomes]
        total = math.fsum(counts)
        observed = [count / total for count in counts]
        if self.model == "logistic":
            p0 = _mle_with_mean(scores, observed, score_from_elo(self.elo0))
            p1 = _mle_with_mean(scores, observed, score_from_elo(self.elo1))
        else:
            per_sample = math.sqrt(2.0) if len(scores) == 5 else 1.0  # a pair: two games
            p0 = _mle_with_t(scores, observed, per_sample * self.elo0 / _NELO_PER_T)
            p1 = _mle_with_t(scores, observed, per_sample * self.elo1 / _NELO_PER_T)
        return total * math.fsum(
            share * (math.log(new) - math.log(old))
            for share, new, old in zip(observed, p1, p0, strict=True)
        )

    def decision(self, result: HeadToHead) -> str | None:
        """``"H1"`` (A is stronger by elo1), ``"H0"``, or None: keep playing."""
        return self.decision_for(self.llr(result))

    def decision_for(self, llr: float) -> str | None:
        """The decision an LLR gives: past a bound, or None."""
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None


def normalized_elo(result: HeadToHead) -> tuple[float, float]:
    """Normalized Elo per game and its 95% margin, as fastchess prints them: the t-value
    ``(mean - 1/2) / sigma`` scaled by 800 / ln 10, a pair's t divided by sqrt(2). Without
    variance it is infinite (or 0 for an even score)."""
    per_game = math.sqrt(2.0) if len(result.outcomes) == 5 else 1.0  # a pair: two games
    margin = Z95 * _NELO_PER_T / (per_game * math.sqrt(result.samples))
    if result.variance <= 0:
        return (0.0 if result.score == 0.5 else math.copysign(math.inf, result.score - 0.5),
                margin)
    t = (result.score - 0.5) / math.sqrt(result.variance)
    return t * _NELO_PER_T / per_game, margin


def normal_llr(result: HeadToHead, *, elo0: float, elo1: float) -> float:
    """The normal approximation of the logistic LLR (what this module used to compute):
    ``N (s1 - s0) (2 s - s0 - s1) / (2 var)``. Undefined (0) without variance."""
    if result.variance <= 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return result.samples * (s1 - s0) * (2 * result.score - s0 - s1) / (2 * result.variance)


def _lagrange_root(terms: Sequence[float], weights: Sequence[float]) -> float:
    """The theta with ``sum(w * x / (1 + theta * x)) = 0`` and every ``1 + theta * x > 0``.

    The sum falls from +inf to -inf across ``(-1 / max x, -1 / min x)``, so bisection finds
    its one root; it runs until the interval stops shrinking in floating point.
    """
    low, high = -1.0 / max(terms), -1.0 / min(terms)

    def slope(theta: float) -> float:
        return math.fsum(w * x / (1.0 + theta * x) for w, x in zip(weights, terms, strict=True))

    for _ in range(_ROOT_STEPS):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _mle_with_mean(scores: Sequence[float], observed: Sequence[float],
                   mean: float) -> list[float]:
    """The distribution over ``scores`` nearest (maximum likelihood) to ``observed`` whose
    expectation is ``mean`` (Van den Bergh, Proposition 1.1)."""
    shifted = [score - mean for score in scores]
    theta = _lagrange_root(shifted, observed)
    return [p / (1.0 + theta * x) for p, x in zip(observed, shifted, strict=True)]


def _mle_with_t(scores: Sequence[float], observed: Sequence[float], t: float) -> list[float]:
    """The distribution over ``scores`` nearest to ``observed`` with ``(mean - 1/2) / sigma
    = t`` (Van den Bergh, "Comments on normalized Elo", section 4.1): a fixed-point
    iteration, each step solving for a Lagrange multiplier.

    Where it starts decides whether every step has a multiplier. The first start, the
    distribution with the target's expected score under the observed spread, carries a
    clean sweep; when one outcome holds almost every sample (all draws, say) the iteration
    from there can shrink the spread until no multiplier exists, and the uniform
    distribution, or the observed one, reaches the same maximum instead."""
    mean_hat = math.fsum(p * a for p, a in zip(observed, scores, strict=True))
    sigma_hat = math.sqrt(math.fsum(p * (a - mean_hat) ** 2
                                    for p, a in zip(observed, scores, strict=True)))
    low_score, high_score = min(scores), max(scores)
    target = min(max(0.5 + t * sigma_hat, low_score + 1e-9), high_score - 1e-9)
    starts = (
        lambda: _mle_with_mean(scores, observed, target),
        lambda: [1.0 / len(scores)] * len(scores),
        lambda: list(observed),
    )
    for start in starts:
        found = _iterate_to_t(scores, observed, t, start())
        if found is not None:
            return found
    raise EvaluationError("the normalized-Elo likelihood has no maximum for these counts")


def _iterate_to_t(scores: Sequence[float], observed: Sequence[float], t: float,
                  p: list[float]) -> list[float] | None:
    """The fixed point of :func:`_mle_with_t` from ``p``, or None when a step has no
    multiplier (every phi of one sign)."""
    for _ in range(_ROOT_STEPS):
        mean = math.fsum(q * a for q, a in zip(p, scores, strict=True))
        sigma = math.sqrt(math.fsum(q * (a - mean) ** 2 for q, a in zip(p, scores, strict=True)))
        if sigma == 0:
            return None
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma) ** 2) for a in scores]
        if min(phi) >= 0 or max(phi) <= 0:
            return None
        theta = _lagrange_root(phi, observed)
        new = [q / (1.0 + theta * x) for q, x in zip(observed, phi, strict=True)]
        change = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if change < 1e-13:
            break
    return p
