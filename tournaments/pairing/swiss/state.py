"""What the Dutch rules need to know about each player before a round.

Colour preferences (C.04.3 art. 1.6 / A.6 of the 2017 text), floats (1.4),
pairing-allocated bye eligibility (C2), topscorers (1.7 / A.7), and the colour
allocation rules (5.2 / E.1-E.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from tournaments.pairing.swiss.model import BLACK, WHITE, Colour, PairingError, SwissPlayer


class Strength(IntEnum):
    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


class Float(IntEnum):
    NONE = 0
    DOWN = 1
    UP = 2


@dataclass(frozen=True, slots=True)
class PlayerState:
    number: int
    score: int
    rank: int  # 0-based position in pairing order (score desc, then pairing number)
    group: int  # 0-based score group, 0 = highest score
    position: int  # 0-based position inside the score group
    colours: tuple[Colour, ...]  # colours of played games only, oldest first
    colour_difference: int
    preference: Colour | None
    strength: Strength
    float_last: Float  # float received in the previous round
    float_before_last: Float  # float received two rounds ago
    unplayed_rounds: int
    bye_eligible: bool
    opponents: frozenset[int]
    topscorer: bool


def colour_preference(colours: Sequence[Colour]) -> tuple[Colour | None, Strength]:
    """The colour a player wants next and how strongly (art. 1.6 of the Dutch rules)."""
    if not colours:
        return None, Strength.NONE
    difference = sum(1 if colour == WHITE else -1 for colour in colours)
    if difference < -1:
        return WHITE, Strength.ABSOLUTE
    if difference > 1:
        return BLACK, Strength.ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return (WHITE if colours[-1] == BLACK else BLACK), Strength.ABSOLUTE
    if difference == -1:
        return WHITE, Strength.STRONG
    if difference == 1:
        return BLACK, Strength.STRONG
    return (WHITE if colours[-1] == BLACK else BLACK), Strength.MILD


def build_states(
    players: Sequence[SwissPlayer],
    active: Sequence[SwissPlayer],
    round_number: int,
    total_rounds: int,
    win_points: int,
) -> dict[int, PlayerState]:
    """Derive the pairing state of every active player."""
    by_number = {player.number: player for player in players}
    score_before = {player.number: _running_scores(player) for player in players}
    ordered = sorted(active, key=lambda player: (-player.score, player.number))
    scores = sorted({player.score for player in active}, reverse=True)
    group_of_score = {score: index for index, score in enumerate(scores)}
    final_round = round_number == total_rounds
    max_so_far = (round_number - 1) * win_points
    states: dict[int, PlayerState] = {}
    group_sizes: dict[int, int] = {}
    for rank, player in enumerate(ordered):
        group = group_of_score[player.score]
        position = group_sizes.get(group, 0)
        group_sizes[group] = position + 1
        colours = tuple(
            record.colour
            for record in player.history
            if record.played and record.colour is not None
        )
        preference, strength = colour_preference(colours)
        floats = [
            _float_in_round(player, index, by_number, score_before)
            for index in range(len(player.history))
        ]
        unplayed = sum(1 for record in player.history if not record.played)
        scored_win_unplayed = any(
            not record.played and record.points >= win_points for record in player.history
        )
        had_bye = player.had_pairing_allocated_bye or any(
            record.pairing_allocated_bye for record in player.history
        )
        states[player.number] = PlayerState(
            number=player.number,
            score=player.score,
            rank=rank,
            group=group,
            position=position,
            colours=colours,
            colour_difference=sum(1 if colour == WHITE else -1 for colour in colours),
            preference=preference,
            strength=strength,
            float_last=floats[-1] if floats else Float.NONE,
            float_before_last=floats[-2] if len(floats) >= 2 else Float.NONE,
            unplayed_rounds=unplayed,
            bye_eligible=not had_bye and not scored_win_unplayed,
            opponents=frozenset(
                record.opponent
                for record in player.history
                if record.played and record.opponent is not None
            ),
            topscorer=final_round and 2 * player.score > max_so_far,
        )
    return states


def _running_scores(player: SwissPlayer) -> list[int]:
    """Score before each earlier round, from the recorded points."""
    running = [0]
    for record in player.history:
        running.append(running[-1] + record.points)
    return running


def _float_in_round(
    player: SwissPlayer,
    index: int,
    by_number: dict[int, SwissPlayer],
    score_before: dict[int, list[int]],
) -> Float:
    record = player.history[index]
    if record.played and record.opponent is not None:
        opponent_scores = score_before.get(record.opponent)
        if opponent_scores is None or index >= len(opponent_scores):
            raise PairingError(
                f"player {player.number} played unknown player {record.opponent} "
                f"in round {index + 1}"
            )
        own = score_before[player.number][index]
        theirs = opponent_scores[index]
        if own > theirs:
            return Float.DOWN
        if own < theirs:
            return Float.UP
        return Float.NONE
    # Art. 1.4.3: scoring without playing more than a loss counts as a downfloat.
    return Float.DOWN if record.points > 0 else Float.NONE


def allocate_colours(
    first: PlayerState, second: PlayerState, initial_colour: Colour
) -> tuple[int, int]:
    """Return (first mover, second mover) per the Dutch colour rules (art. 5.2, E.1-E.5)."""
    higher, lower = (first, second) if first.rank < second.rank else (second, first)
    colour_of_higher = _colour_for_higher(higher, lower, initial_colour)
    if colour_of_higher == WHITE:
        return higher.number, lower.number
    return lower.number, higher.number


def _colour_for_higher(higher: PlayerState, lower: PlayerState, initial: Colour) -> Colour:
    wish_high, wish_low = higher.preference, lower.preference
    # E.1: both preferences can be granted (or only one player has any).
    if wish_high is not None and wish_low is not None and wish_high != wish_low:
        return wish_high
    if wish_high is not None and wish_low is None:
        return wish_high
    if wish_high is None and wish_low is not None:
        return WHITE if wish_low == BLACK else BLACK
    if wish_high is not None:
        # Same colour wanted. E.2: the stronger preference wins.
        if higher.strength != lower.strength:
            winner_is_higher = higher.strength > lower.strength
            return wish_high if winner_is_higher else _other(wish_high)
        if higher.strength == Strength.ABSOLUTE:
            gap_high, gap_low = abs(higher.colour_difference), abs(lower.colour_difference)
            if gap_high != gap_low:
                return wish_high if gap_high > gap_low else _other(wish_high)
        # E.3: alternate from the latest round in which their colours differed.
        for back in range(1, min(len(higher.colours), len(lower.colours)) + 1):
            if higher.colours[-back] != lower.colours[-back]:
                return _other(higher.colours[-back])
        # E.4: the higher ranked player gets the preference.
        return wish_high
    # E.5: no preference anywhere; parity of the higher ranked player's number.
    return initial if higher.number % 2 == 1 else _other(initial)


def _other(colour: Colour) -> Colour:
    return BLACK if colour == WHITE else WHITE
