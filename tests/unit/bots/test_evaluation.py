from __future__ import annotations

import math
import random

import pytest

from games.bots.evaluation import (
    EvaluationError,
    Sprt,
    elo_from_score,
    normal_llr,
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
