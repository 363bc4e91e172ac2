from __future__ import annotations

import math
import random

import pytest

from games.bots.evaluation import (
    EvaluationError,
    Sprt,
    elo_from_score,
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
