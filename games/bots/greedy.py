"""Greedy bots: one move of look-ahead scored by each game's own strategy advice.

- Kazambi: burn the opponent's tiles and keep one's own (the side whose live tiles run
  out first loses), play long suits and their doubles first; a move that leaves the
  next seat stuck wins at once (loses in misère, where every term is reversed).
- Kugamai: place one's own doubles, keep them playable (no fish-lock of their values),
  starve the opponent's (do not open an end where the opponent lays a double; prefer
  ends where only oneself can play).
- Stolbiki: win columns (a placement that makes one's colour lead its column), keep the
  high cards for contested columns, keep one's cards placeable.

Ties are broken at random (seeded).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.bots.adapters import KazambiSearch, KugamaiSearch, StolbikiSearch, search_game
from games.bots.base import Bot, Budget
from games.bots.kazambi_placements import board_placements
from games.engines.kazambi.notation import TILE_VALUES, KazambiMove
from games.engines.kazambi.rules import hand_tiles
from games.engines.kazambi.state import KazambiState
from games.engines.kugamai.state import KugamaiState
from games.engines.kugamai.tiles import own_doubles_mask
from games.engines.stolbiki.cards import COLOUR, RANK
from games.engines.stolbiki.deal import colour_of_seat
from games.engines.stolbiki.state import CELL_BITS, PASS_CODE, StolbikiState, placeable_cards

WIN = 1_000_000.0
#: Kazambi: at most this many placements are scored (a seeded sample of the rest).
KAZAMBI_SAMPLE = 160


def _best(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    top = max(score for score, _ in scored)
    best = [move for score, move in scored if score == top]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


# -- Kazambi ---------------------------------------------------------------------------


def kazambi_scores(game: KazambiSearch, state: KazambiState) -> Callable[[KazambiMove], float]:
    """The greedy score of each move of ``state``'s seat to move: the live tiles and
    placements each side keeps after it (counted on packed placements), then long suits."""
    board = state.geometry
    placements = board_placements(board.rows, board.cols)
    mover = state.to_move
    side = mover % 2
    seats = state.seats
    hands = [hand_tiles(hand) for hand in state.hands]
    packs = {
        tile: placements.packed(state.allowed, tile, board.not_last_col)
        for hand in hands for tile in hand
    }
    suit = [0] * 7
    for tile in hands[mover]:
        a, b = TILE_VALUES[tile]
        suit[a] += 1
        if a != b:
            suit[b] += 1
    misere = game.misere
    entry_of = placements.entry_of

    def score(move: KazambiMove) -> float:
        placement, keeps = entry_of(move)
        played = placement[4]
        mine = theirs = mobility = 0
        next_stuck = True
        for seat, hand in enumerate(hands):
            live = count = 0
            for tile in hand:
                if seat == mover and tile == played:
                    continue
                found = (packs[tile] & keeps[tile]).bit_count()
                if found:
                    live += 1
                    count += found
            if seat % 2 == side:
                mine += live
                mobility += count
            else:
                theirs += live
                mobility -= count
            if seat == (mover + 1) % seats and live:
                next_stuck = False
        if next_stuck:
            return -WIN if misere else WIN
        balance = 10.0 * (mine - theirs) + 0.02 * mobility
        if misere:
            return -balance
        a, b = move.value_x, move.value_y
        long_suit = suit[a] + (suit[b] if a != b else 0) + (2 if a == b else 0)
        return balance + 0.5 * long_suit

    return score


def kazambi_move(game: KazambiSearch, state: KazambiState, rng: random.Random) -> KazambiMove:
    moves = game.moves(state)
    if len(moves) > KAZAMBI_SAMPLE:
        moves = rng.sample(moves, KAZAMBI_SAMPLE)
    score = kazambi_scores(game, state)
    result: KazambiMove = _best([(score(move), move) for move in moves], rng)
    return result


# -- Kugamai ---------------------------------------------------------------------------


def kugamai_score(game: KugamaiSearch, state: KugamaiState, code: int) -> float:
    mover = state.to_move
    other = 1 - mover
    game.push(state, code)
    try:
        if game.engine.winner(state) == mover:
            return WIN
        if not game.moves(state):
            return -50.0  # a draw: nobody can move
        score = -10.0 * state.doubles_left[mover] + 6.0 * state.doubles_left[other]
        end, safe, hands = state.end, state.safe, state.hands
        low = state.low_doubles_seat
        for seat, weight in ((mover, -1.0), (other, 1.0)):
            doubles = hands[seat] & own_doubles_mask(seat, low)
            for value in range(1, 7):
                if doubles >> (value * 8) & 1:
                    left = state.remaining[value]
                    if left < 2:
                        score += 60.0 * weight  # fish-locked: never playable again
                    elif left == 2:
                        score += 3.0 * weight
        other_play = (hands[other] >> 7 * end) & 127 & safe
        my_play = (hands[mover] >> 7 * end) & 127 & safe
        if other_play >> end & 1 and own_doubles_mask(other, low) >> (end * 8) & 1:
            score -= 12.0  # the opponent lays a double on this end
        if not other_play:
            score += 4.0  # the opponent must pass
            if my_play >> end & 1 and own_doubles_mask(mover, low) >> (end * 8) & 1:
                score += 12.0  # and I lay my double next
        score += 0.5 * my_play.bit_count() - 0.5 * other_play.bit_count()
        return score
    finally:
        game.pop(state)


def kugamai_move(game: KugamaiSearch, state: KugamaiState, rng: random.Random) -> int:
    moves = game.moves(state)
    if len(moves) == 1:
        return moves[0]
    result: int = _best([(kugamai_score(game, state, code), code) for code in moves], rng)
    return result


# -- Stolbiki --------------------------------------------------------------------------


def _column_lead(red: int, black: int, colour: int) -> int:
    mine, theirs = (red, black) if colour == 0 else (black, red)
    return (mine > theirs) - (theirs > mine)


def stolbiki_score(game: StolbikiSearch, state: StolbikiState, code: int) -> float:
    seat = state.to_move
    colour = colour_of_seat(seat, state.red_side)
    card, cell = code >> CELL_BITS, code & ((1 << CELL_BITS) - 1)
    geometry = state.geometry
    x = geometry.x_of[cell]
    sums = [0, 0]
    for y in range(-geometry.rows + 1, geometry.rows):
        near = state.grid[geometry.cell(x, y)]
        if near >= 0:
            sums[COLOUR[near]] += RANK[near]
    before = _column_lead(sums[0], sums[1], colour)
    sums[COLOUR[card]] += RANK[card]
    after = _column_lead(sums[0], sums[1], colour)
    mine = sums[colour] - sums[1 - colour]
    game.push(state, code)
    try:
        hand = state.hands[seat]
        still = (placeable_cards(state) & hand).bit_count()
    finally:
        game.pop(state)
    score = 10.0 * (after - before) - 0.3 * RANK[card] + 0.5 * still
    if after <= 0 and mine > -6:
        score += 1.0  # a column still within reach
    return score


def stolbiki_move(game: StolbikiSearch, state: StolbikiState, rng: random.Random) -> int:
    moves = game.moves(state)
    if moves == [PASS_CODE] or len(moves) == 1:
        return moves[0]
    result: int = _best([(stolbiki_score(game, state, code), code) for code in moves], rng)
    return result


class GreedyBot(Bot):
    """One-ply heuristic play (see the module docstring); the budget is ignored. With
    ``endgame_solver`` a won Kazambi endgame is played out by the exact solver."""

    kind = "greedy"

    def __init__(self, seed: int | None = None, *, endgame_solver: bool = False) -> None:
        super().__init__(seed)
        self.endgame_solver = endgame_solver

    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        adapter = search_game(game)
        state = adapter.load(observation, self.rng)
        if self.endgame_solver:
            from games.bots.solvers import solved_move

            solved = solved_move(game, state, whole_kugamai=False)
            if solved is not None:
                return solved
        move: Any
        if isinstance(adapter, KazambiSearch):
            move = kazambi_move(adapter, state, self.rng)
        elif isinstance(adapter, KugamaiSearch):
            move = kugamai_move(adapter, state, self.rng)
        else:
            assert isinstance(adapter, StolbikiSearch)
            move = stolbiki_move(adapter, state, self.rng)
        return adapter.text(state, move)


__all__ = ["GreedyBot"]
