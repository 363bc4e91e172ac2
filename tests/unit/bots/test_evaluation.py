from __future__ import annotations

import math
import random

import pytest

from games.bots.evaluation import (
    EvaluationError,
    Sprt,
    elo_from_score,
    normal_llr,
    normalized_elo,
    pair_counts,
    pentanomial,
    score_from_elo,
    trinomial,
)


def test_elo_and_score_are_inverse() -> None:
    for elo in (-400, -100, 0, 35, 200):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)


def test_trinomial_interval_and_los() -> None:
    result = trinomial(wins=60, draws=20, losses=20)
    assert result.score == pytest.approx(0.7)
    assert result.elo_low < result.elo < result.elo_high
    assert result.los > 0.999
    even = trinomial(wins=10, draws=0, losses=10)
    assert even.elo == 0 and even.los == pytest.approx(0.5)


def test_pentanomial_narrower_when_deals_decide() -> None:
    """If each deal is won by whoever gets the good side, pairs are 1-1 and say 'equal'."""
    pairs = pentanomial([0, 0, 100, 0, 0])
    games = trinomial(wins=100, draws=0, losses=100)
    assert pairs.score == games.score == 0.5
    assert pairs.standard_error < games.standard_error


def test_pair_counts() -> None:
    assert pair_counts([0, 0.5, 1, 1.5, 2, 2]) == [1, 1, 1, 1, 2]
    with pytest.raises(EvaluationError):
        pair_counts([0.3])


def test_sprt_accepts_a_clearly_stronger_bot() -> None:
    rng = random.Random(1)
    sprt = Sprt(elo0=0, elo1=50)
    wins = draws = losses = 0
    decision = None
    while decision is None and wins + draws + losses < 5000:
        r = rng.random()
        if r < 0.6:
            wins += 1
        elif r < 0.7:
            draws += 1
        else:
            losses += 1
        if wins + draws + losses >= 10:
            decision = sprt.decision(trinomial(wins=wins, draws=draws, losses=losses))
    assert decision == "H1"
    assert sprt.lower_bound == pytest.approx(math.log(0.05 / 0.95))


def test_bad_input() -> None:
    with pytest.raises(EvaluationError):
        trinomial(wins=0, draws=0, losses=0)
    with pytest.raises(EvaluationError):
        Sprt(elo0=10, elo1=0)


# -- SPRT as fastchess computes it (Disservin/fastchess, app/src/matchmaking/sprt) ----------
#
# fastchess's own tests (app/tests/sprt_test.cpp) publish these LLRs to two decimals; their
# ``Stats(w, l, d)`` takes wins, losses, draws and ``Stats(ll, ld, wl, dd, wd, ww)`` pair
# counts, which become our pentanomial counts [LL, LD, WL + DD, WD, WW].
FASTCHESS_TRINOMIAL = [
    # (wins, draws, losses), model, (elo0, elo1), LLR
    ((36433, 68692, 36027), "normalized", (0, 2), 0.92),
    ((10871, 20431, 10650), "normalized", (-1.75, 0.25), 2.30),
    ((4250, 0, 0), "normalized", (0, 10), 120.56),
    ((21404, 40708, 21184), "logistic", (0.5, 2.5), -1.57),
    ((57433, 106593, 57030), "logistic", (0, 2), -2.59),
]
FASTCHESS_PENTANOMIAL = [
    ([365, 16618, 36229, 16974, 390], "normalized", (0, 2), 2.25),
    ([127, 4883, 10712, 5150, 104], "normalized", (-1.75, 0.25), 3.01),
    ([0, 0, 0, 0, 5550], "normalized", (0, 5), 111.82),
    ([223, 9863, 21279, 10037, 246], "logistic", (0.5, 2.5), -3.07),
    ([871, 26175, 55983, 26678, 821], "logistic", (0, 2), -4.98),
]


@pytest.mark.parametrize(("wdl", "model", "bounds", "expected"), FASTCHESS_TRINOMIAL)
def test_trinomial_llr_matches_fastchess(wdl: tuple[int, int, int], model: str,
                                         bounds: tuple[float, float], expected: float) -> None:
    wins, draws, losses = wdl
    sprt = Sprt(elo0=bounds[0], elo1=bounds[1], model=model)
    llr = sprt.llr(trinomial(wins=wins, draws=draws, losses=losses))
    assert llr == pytest.approx(expected, abs=0.005 + 0.0005 * abs(expected))


@pytest.mark.parametrize(("counts", "model", "bounds", "expected"), FASTCHESS_PENTANOMIAL)
def test_pentanomial_llr_matches_fastchess(counts: list[int], model: str,
                                           bounds: tuple[float, float], expected: float) -> None:
    sprt = Sprt(elo0=bounds[0], elo1=bounds[1], model=model)
    llr = sprt.llr(pentanomial(counts))
    assert llr == pytest.approx(expected, abs=0.005 + 0.0005 * abs(expected))


def test_the_343_game_example_is_solved_exactly() -> None:
    """fastchess's EloWDL 2 example (136 wins, 96 losses, 111 draws) with bounds [0, 5]: the
    normal approximation said 0.815, the exact generalised LLR is 0.799."""
    result = trinomial(wins=136, draws=111, losses=96)
    sprt = Sprt(elo0=0, elo1=5, model="logistic")
    assert round(sprt.llr(result), 3) == 0.799
    assert round(normal_llr(result, elo0=0, elo1=5), 3) == 0.815


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_a_clean_sweep_accepts_h1_instead_of_stalling(model: str) -> None:
    """Zero variance (every game or every pair won) used to give an LLR of 0 forever."""
    sprt = Sprt(elo0=0, elo1=10, model=model)
    sweep = pentanomial([0, 0, 0, 0, 200])
    assert sweep.variance == 0
    assert sprt.llr(sweep) > sprt.upper_bound
    assert sprt.decision(sweep) == "H1"
    assert Sprt(elo0=0, elo1=20, model=model).decision(trinomial(wins=100, draws=0,
                                                                 losses=0)) == "H1"
    assert Sprt(elo0=0, elo1=20, model=model).decision(trinomial(wins=0, draws=0,
                                                                 losses=100)) == "H0"
    # the ratio grows with every won game: [0, 10] needs a few more than 100 wins
    llrs = [sprt.llr(trinomial(wins=n, draws=0, losses=0)) for n in (10, 50, 100, 110)]
    assert 0 < llrs[0] < llrs[1] < llrs[2] < sprt.upper_bound < llrs[3]


def test_the_default_model_and_bad_models() -> None:
    assert Sprt().model == "logistic"
    with pytest.raises(EvaluationError, match="model"):
        Sprt(model="bayesian")
    with pytest.raises(EvaluationError, match="alpha"):
        Sprt(alpha=0.6, beta=0.5)


# -- degenerate counts: the normalized model on counts with one or two outcomes -------------


def _normalized_llr_by_search(wins: int, draws: int, losses: int, elo0: float,
                              elo1: float) -> float:
    """The trinomial normalized-Elo LLR by a one-dimensional search, independent of the
    module's fixed-point iteration: with w - l = d and w + l = s, t = (mean - 1/2) / sigma
    fixes d = t * sqrt(s / (1 + t^2)), so each hypothesis is a curve in s alone."""
    counts = [c if c > 0 else 1e-3 for c in (losses, draws, wins)]
    total = math.fsum(counts)
    shares = [c / total for c in counts]

    def best_log_likelihood(t: float) -> float:
        def log_likelihood(s: float) -> float:
            d = math.copysign(abs(t) * math.sqrt(s / (1 + t * t)), t)
            return (shares[0] * math.log((s - d) / 2) + shares[1] * math.log(1 - s)
                    + shares[2] * math.log((s + d) / 2))

        low, high = t * t / (1 + t * t) * (1 + 1e-12) + 1e-300, 1 - 1e-15
        for _ in range(300):  # ternary search: the log-likelihood is concave along s
            a, b = low + (high - low) / 3, high - (high - low) / 3
            if log_likelihood(a) < log_likelihood(b):
                low = a
            else:
                high = b
        return log_likelihood((low + high) / 2)

    per_t = 800 / math.log(10)
    return total * (best_log_likelihood(elo1 / per_t) - best_log_likelihood(elo0 / per_t))


DEGENERATE_TRINOMIALS = [
    # (wins, draws, losses), (elo0, elo1)
    ((0, 16700, 0), (0, 5)),  # all draws
    ((0, 40, 0), (0, 5)),
    ((0, 40, 0), (-5, 0)),
    ((3, 200, 0), (0, 10)),
    ((4250, 0, 0), (0, 10)),
    ((0, 0, 300), (-20, 0)),
    ((1, 3, 292), (-1500, -500)),  # fastchess issue 879: one side wins almost everything
    ((0, 10, 154), (-1000, -500)),
]


@pytest.mark.parametrize(("wdl", "bounds"), DEGENERATE_TRINOMIALS)
def test_degenerate_trinomials_have_the_exact_normalized_llr(
        wdl: tuple[int, int, int], bounds: tuple[float, float]) -> None:
    wins, draws, losses = wdl
    llr = Sprt(elo0=bounds[0], elo1=bounds[1], model="normalized").llr(
        trinomial(wins=wins, draws=draws, losses=losses))
    assert llr == pytest.approx(_normalized_llr_by_search(wins, draws, losses, *bounds),
                                abs=1e-3)


def test_an_all_draw_series_accepts_h0_under_the_normalized_model() -> None:
    """16,700 draws: the observed t is exactly H0's 0, so the LLR is negative (-3.45; fastchess
    stops its iteration at a 1e-4 change and prints -3.48) and the test accepts H0."""
    sprt = Sprt(elo0=0, elo1=5, model="normalized")
    draws = trinomial(wins=0, draws=16700, losses=0)
    assert sprt.llr(draws) == pytest.approx(-3.4505, abs=1e-3)
    assert sprt.decision(draws) == "H0"
    pairs = pentanomial([0, 0, 8350, 0, 0])
    assert sprt.llr(pairs) < sprt.lower_bound
    assert sprt.decision(pentanomial([0, 0, 20, 0, 0])) is None


@pytest.mark.parametrize(("counts", "bounds"), [
    ([0, 0, 0, 0, 104], (0, 5)), ([0, 0, 0, 0, 104], (-5, 0)), ([0, 0, 50, 0, 0], (0, 5)),
    ([0, 0, 50, 0, 0], (-5, 0)), ([0, 0, 0, 1, 60], (0, 5)), ([0, 5, 0, 5, 0], (0, 5)),
    ([144, 3, 1, 0, 0], (-1500, -500)), ([77, 1, 0, 0, 0], (-1000, -500)),  # fastchess 879
])
def test_degenerate_pentanomials_have_a_finite_normalized_llr(
        counts: list[int], bounds: tuple[float, float]) -> None:
    llr = Sprt(elo0=bounds[0], elo1=bounds[1], model="normalized").llr(pentanomial(counts))
    assert math.isfinite(llr)


def test_a_clean_sweep_of_pairs_stops_where_fastchess_stops() -> None:
    """104 pairs all won give 2.09 under [0, 5] normalized, as fastchess computes it today
    (its tests once said 2.94 for an older, approximate formula), so the sweep stops at 147."""
    sprt = Sprt(elo0=0, elo1=5, model="normalized")
    assert sprt.llr(pentanomial([0, 0, 0, 0, 104])) == pytest.approx(2.095, abs=0.001)
    first_stop = next(n for n in range(5, 400)
                      if sprt.decision(pentanomial([0, 0, 0, 0, n])) == "H1")
    assert first_stop == 147


def test_normalized_elo_as_fastchess_prints_it() -> None:
    """fastchess's ``--sprt`` example (pull request 783): pairs 379, 10170, 21828, 10640,
    343 under [0, 2] print ``Normalized Elo: 3.05 +/- 2.31`` and ``LLR: 2.94598``."""
    pairs = pentanomial([379, 10170, 21828, 10640, 343])
    elo, margin = normalized_elo(pairs)
    assert (round(elo, 2), round(margin, 2)) == (3.05, 2.31)
    assert Sprt(elo0=0, elo1=2, model="normalized").llr(pairs) == pytest.approx(2.946, abs=1e-3)
    games = trinomial(wins=30, draws=40, losses=30)
    assert normalized_elo(games)[0] == 0
    assert normalized_elo(trinomial(wins=5, draws=0, losses=0))[0] == math.inf
