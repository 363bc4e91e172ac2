"""Seeds from a secret: reproducible with it, unrelated across seats, deals and secrets."""

from __future__ import annotations

import pytest

from games.series.seeds import bot_seed, bot_seeds, deal_seed


def test_seeds_are_reproducible_and_distinct() -> None:
    assert bot_seeds("s", 4, 0, 1, 2, 3) == bot_seeds("s", 4, 0, 1, 2, 3)
    seeds = bot_seeds("s", 4, 0, 1, 2, 3)
    assert len(set(seeds)) == 4 and all(0 <= seed < 2**63 for seed in seeds)
    assert deal_seed("s", 0, 1, 2, 3) not in seeds
    assert bot_seed("s", 0, 1, 2, 3, 0) != bot_seed("t", 0, 1, 2, 3, 0)
    assert bot_seed(b"s", 5) == bot_seed("s", 5)
    assert bot_seed("s", 1, 23) != bot_seed("s", 12, 3)  # parts are separated


def test_an_empty_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        deal_seed("", 1)
