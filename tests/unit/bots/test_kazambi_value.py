"""The learned Kazambi leaf value: its inline form against its readable definition."""

from __future__ import annotations

import math

import pytest

from games.bots.kazambi_value import (
    BINS,
    LATE_TILES,
    WEIGHTS,
    features,
    leaf_value,
    placement_bin,
)
from games.engines import get_engine
from games.engines.kazambi.notation import TILE_VALUES
from games.engines.kazambi.rules import hand_tiles, tile_move_count
from games.engines.kazambi.state import KazambiState
from tests.unit.bots.helpers import random_position


def _logistic_of_features(
    state: KazambiState, mover_tiles: list[int], next_tiles: list[int]
) -> float:
    values = features(state.geometry, state.allowed, mover_tiles, next_tiles)
    return 1.0 / (1.0 + math.exp(-sum(w * x for w, x in zip(WEIGHTS, values, strict=True))))


@pytest.mark.parametrize("game", ["kazambi", "kazambi-pairs"])
def test_the_inline_value_is_the_logistic_of_the_features(game: str) -> None:
    for seed in range(25):
        state = random_position(game, seed)
        mover = state.to_move
        mover_tiles = hand_tiles(state.hands[mover])
        next_tiles = hand_tiles(state.hands[(mover + 1) % state.seats])
        expected = _logistic_of_features(state, mover_tiles, next_tiles)
        found = leaf_value(state.geometry, state.allowed, mover_tiles, next_tiles)
        assert found == pytest.approx(expected, abs=1e-12)


def test_placement_bins_cover_every_count_once() -> None:
    assert [placement_bin(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 500)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    ]
    assert len(WEIGHTS) == 1 + 2 * BINS + 3 + 3


def test_features_count_live_tiles_shared_tiles_overdemand_and_tempo() -> None:
    for seed in range(10):
        state = random_position("kazambi", seed)
        mover = state.to_move
        mine, theirs = (hand_tiles(state.hands[seat]) for seat in (mover, 1 - mover))
        values = features(state.geometry, state.allowed, mine, theirs)
        live_mine = [t for t in mine if tile_move_count(state, t)]
        live_theirs = [t for t in theirs if tile_move_count(state, t)]
        assert sum(values[1 : 1 + BINS]) == len(live_mine)
        assert sum(values[1 + BINS : 1 + 2 * BINS]) == len(live_theirs)
        assert values[1 + 2 * BINS] == len(set(live_mine) & set(live_theirs))
        over_mine, over_theirs, ahead, ahead_late, margin_late = values[2 + 2 * BINS :]
        for tiles, over in ((live_mine, over_mine), (live_theirs, over_theirs)):
            halves = [value for tile in tiles for value in TILE_VALUES[tile]]
            expected = sum(
                max(0, halves.count(v) - state.allowed[v].bit_count()) for v in range(7)
            )
            assert over == expected
        margin = len(live_mine) - len(live_theirs)
        late = max(0, LATE_TILES - len(live_mine) - len(live_theirs)) / LATE_TILES
        assert ahead == (1.0 if margin > 0 else 0.0)
        assert ahead_late == pytest.approx(ahead * late)
        assert margin_late == pytest.approx(margin * late)


def test_late_in_the_game_the_seat_ahead_in_live_tiles_is_favoured() -> None:
    state = random_position("kazambi", 4)
    tiles = hand_tiles(state.hands[state.to_move])
    live = [t for t in tiles if tile_move_count(state, t)]
    geometry, allowed = state.geometry, state.allowed
    assert leaf_value(geometry, allowed, live[:2], live[:1]) > leaf_value(
        geometry, allowed, live[:1], live[:2]
    )


def test_the_value_favours_the_seat_with_more_live_tiles() -> None:
    state = get_engine("kazambi").new_game(seed=3)
    tiles = hand_tiles(state.hands[0])
    geometry, allowed = state.geometry, state.allowed
    even = leaf_value(geometry, allowed, tiles, tiles)
    assert leaf_value(geometry, allowed, tiles, tiles[:-2]) > even
    assert leaf_value(geometry, allowed, tiles[:-2], tiles) < even
    assert leaf_value(geometry, allowed, tiles, []) > 0.95
