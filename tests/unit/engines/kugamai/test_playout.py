"""The fast random playout agrees with the public API."""

from __future__ import annotations

import random

import pytest

from games.engines.errors import OptionError
from games.engines.kugamai.dealing import draw_deal
from games.engines.kugamai.playout import random_playout
from games.engines.kugamai.tiles import hand_texts

from .helpers import ENGINE


def public_playout(rng: random.Random, low_doubles_seat: int | None = None) -> dict:
    """The same game through new_game/legal_moves/play, drawing from ``rng`` as
    random_playout documents."""
    low, hand0, hand1 = draw_deal(rng, low_doubles_seat)
    deal = {"hands": [hand_texts(hand0), hand_texts(hand1)], "low_doubles_seat": low}
    state = ENGINE.new_game(deal=deal)
    while not ENGINE.is_over(state):
        moves = ENGINE.legal_moves(state)
        move = moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0]
        state = ENGINE.play(state, move)
    return ENGINE.result(state)


@pytest.mark.parametrize("low", [None, 0, 1])
def test_playout_matches_the_public_api(low):
    for seed in range(150):
        fast = random_playout(random.Random(seed), low_doubles_seat=low)
        assert fast == public_playout(random.Random(seed), low), seed


def test_playout_sees_every_outcome():
    rng = random.Random(0)
    outcomes = {random_playout(rng)["winner"] for _ in range(300)}
    assert outcomes == {0, 1, None}


def test_seeded_new_game_deals_like_draw_deal():
    for seed in range(20):
        low, hand0, hand1 = draw_deal(random.Random(seed))
        state = ENGINE.new_game(seed=seed)
        assert (state.low_doubles_seat, state.hands) == (low, [hand0, hand1])


@pytest.mark.parametrize("options", [{"low_doubles_seat": 3}, {"colour": "red"}])
def test_playout_rejects_bad_options(options):
    with pytest.raises(OptionError):
        random_playout(random.Random(0), **options)
