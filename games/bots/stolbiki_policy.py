"""Stolbiki knowledge for MCTS: playouts that fight for columns, a reward that counts them.

:func:`policy_playout` plays a determinized game to its end like the engine's uniform
playout, but most of its moves are the best of a few sampled placements by a cheap form
of the greedy bot's score (:func:`games.bots.greedy.stolbiki_score` without its look-ahead):
win a column, keep high cards, stay within reach of a column still lost. Each seat holds
cards of its own colour only, so a placement can only raise its colour's column sum; the
playout keeps the column sums as it goes. :func:`column_value` rewards the column margin,
not only the win: a big win is worth more than a narrow one, a narrow loss less than a
big one. Playouts only ever run on determinizations (:meth:`StolbikiSearch.determinize`),
so they never see a hidden card.
"""

from __future__ import annotations

import random
from typing import ClassVar

from games.bots.adapters import StolbikiSearch
from games.engines.stolbiki.cards import COLOUR, RANK
from games.engines.stolbiki.deal import colour_of_seat
from games.engines.stolbiki.state import StolbikiState, pass_turn, place, placeable_cards

#: Share of playout moves chosen uniformly at random (the rest by the column score).
EPSILON = 0.15
#: Placements sampled per playout move; the best of them is played.
SAMPLES = 4
#: Share of the reward given by the column margin (the rest: win 1, draw 1/2, loss 0).
MARGIN_WEIGHT = 0.3
#: Weight of a column won (or levelled) against the rank of the card spent on it.
COLUMN_GAIN = 10.0
RANK_COST = 0.3
#: A column lost by less than this after the placement is still worth a small bonus.
REACH = 6


def column_sums(state: StolbikiState) -> tuple[list[int], list[int]]:
    """Per column (``x + cols``), the red and the black sums on the table."""
    geometry = state.geometry
    width = 2 * geometry.cols + 1
    red, black = [0] * width, [0] * width
    x_of, grid, cols = geometry.x_of, state.grid, geometry.cols
    for cell, card in enumerate(grid):
        if card >= 0:
            (red if COLOUR[card] == 0 else black)[x_of[cell] + cols] += RANK[card]
    return red, black


def column_value(state: StolbikiState, red: list[int], black: list[int]) -> float:
    """Side 0's reward, 0..1: the result, blended with the column-point margin."""
    red_points = black_points = 0
    for red_sum, black_sum in zip(red, black, strict=True):
        if red_sum > black_sum:
            red_points += 1
        elif black_sum > red_sum:
            black_points += 1
    margin = red_points - black_points
    if state.red_side != 0:
        margin = -margin
    result = 0.5 if not margin else float(margin > 0)
    share = 0.5 + margin / (2 * state.geometry.cols)
    return (1.0 - MARGIN_WEIGHT) * result + MARGIN_WEIGHT * share


def placement_score(mine: int, theirs: int, rank: int) -> float:
    """The playout score of laying a card of ``rank`` on a column where the mover's colour
    has ``mine`` and the other ``theirs``."""
    after = mine + rank - theirs
    gain = (after > 0) - (after < 0) - ((mine > theirs) - (mine < theirs))
    score = COLUMN_GAIN * gain - RANK_COST * rank
    if after <= 0 and after > -REACH:
        score += 1.0
    return score


def policy_playout(state: StolbikiState, rng: random.Random) -> float:
    """Play ``state`` to its end in place (see the module docstring); return side 0's
    :func:`column_value`."""
    red, black = column_sums(state)
    sums = (red, black)
    geometry = state.geometry
    cols, x_of = geometry.cols, geometry.x_of
    masks, frontier, hands = state.masks, state.frontier, state.hands
    random_ = rng.random
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    while in_hands:
        seat = state.to_move
        hand = hands[seat]
        choices = []
        total = 0
        for cell in frontier:
            mask = masks[cell] & hand
            if mask:
                count = mask.bit_count()
                total += count
                choices.append((cell, mask, count))
        if not total:
            if not placeable_cards(state) & in_hands:
                break
            pass_turn(state)
            continue
        colour = colour_of_seat(seat, state.red_side)
        mine_sums, their_sums = sums[colour], sums[1 - colour]
        best_card = best_cell = -1
        best_score = 0.0
        for _ in range(1 if random_() < EPSILON else SAMPLES):
            pick = int(random_() * total)
            index = 0
            while pick >= choices[index][2]:
                pick -= choices[index][2]
                index += 1
            cell, mask, _ = choices[index]
            while pick:
                mask &= mask - 1
                pick -= 1
            card = (mask & -mask).bit_length() - 1
            column = x_of[cell] + cols
            score = placement_score(mine_sums[column], their_sums[column], RANK[card])
            if best_card < 0 or score > best_score:
                best_card, best_cell, best_score = card, cell, score
        place(state, best_card, best_cell)
        mine_sums[x_of[best_cell] + cols] += RANK[best_card]
        in_hands ^= 1 << best_card
    return column_value(state, red, black)


class StolbikiPolicySearch(StolbikiSearch):
    """:class:`StolbikiSearch` with column-fighting playouts and the margin reward."""

    exploration: ClassVar[float] = 0.5

    def rollout_value(self, state: StolbikiState, rng: random.Random) -> float:
        return policy_playout(state, rng)

    def final_value(self, state: StolbikiState) -> float:
        red, black = column_sums(state)
        return column_value(state, red, black)


_policy_instances: dict[str, StolbikiPolicySearch] = {}


def policy_search(name: str = "stolbiki") -> StolbikiPolicySearch:
    """The (shared, stateless) policy adapter of Stolbiki."""
    adapter = _policy_instances.get(name)
    if adapter is None:
        adapter = _policy_instances[name] = StolbikiPolicySearch(name)
    return adapter
