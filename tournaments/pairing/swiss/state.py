"""What the Dutch rules need to know about each player before a round.

Colour preferences (C.04.3 art. 1.6), floats (1.4), pairing-allocated bye
eligibility (C2, 2025 text), topscorers (1.7) and the colour allocation rules
(5.2 / E.1-E.5), read the way the FIDE-endorsed programs read them:

* only played games give colours; the colour difference and the last two played
  colours make an absolute preference, a difference of one a strong one, the last
  colour alone a mild one;
* a round scored without playing more than a loss counts as a downfloat; a played
  game's float compares the two players' scores (with virtual points) before it;
* a player who already had the pairing-allocated bye, or scored a win's worth
  without playing, cannot get the bye;
* the effective pairing number of a player is his place among the players who are
  in this round's pairing or were in an earlier one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from games.i18n import N_
from tournaments.pairing.swiss.model import (
    BLACK,
    WHITE,
    Colour,
    PairingError,
    Scoring,
    SwissPlayer,
    opposite,
)


class Float(IntEnum):
    NONE = 0
    DOWN = 1
    UP = 2


@dataclass(slots=True)
class PlayerState:
    number: int
    score: int  # with virtual points
    raw_score: int  # without them (board order)
    rank: int  # 0-based effective pairing number
    colours: tuple[Colour, ...]  # colours of played games, oldest first
    imbalance: int  # |whites - blacks|
    preference: Colour | None
    repeated: Colour | None  # colour of the last two (or more) played games, if equal
    strong: bool  # a colour difference of one (and no absolute preference)
    float1: Float  # float received in the previous round
    float2: Float  # float received two rounds ago
    played_games: int
    bye_eligible: bool
    excluded: frozenset[int]  # earlier opponents and forbidden partners

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated is not None

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1


def colour_data(colours: Sequence[Colour]) -> tuple[int, Colour | None, Colour | None, bool]:
    """(imbalance, preference, repeated colour, strong) from the played colours."""
    whites = sum(1 for colour in colours if colour == WHITE)
    blacks = len(colours) - whites
    lower: Colour = BLACK if whites > blacks else WHITE
    imbalance = abs(whites - blacks)
    run = 0
    last: Colour | None = None
    for colour in colours:
        run = run + 1 if colour == last else 1
        last = colour
    if imbalance > 1:
        preference: Colour | None = lower
    elif run > 1:
        assert last is not None
        preference = opposite(last)
    elif imbalance > 0:
        preference = lower
    elif run:
        assert last is not None
        preference = opposite(last)
    else:
        preference = None
    repeated = last if run > 1 else None
    strong = not (imbalance > 1 or repeated is not None) and imbalance > 0
    return imbalance, preference, repeated, strong


def build_states(
    players: Sequence[SwissPlayer],
    round_number: int,
    scoring: Scoring,
    forbidden: dict[int, set[int]],
) -> list[PlayerState]:
    """The pairing state of every present player, in pairing order (score, then rank)."""
    played_rounds = round_number - 1
    by_number = {player.number: player for player in players}
    running: dict[int, list[int]] = {}
    for player in players:
        totals = [0]
        for record in player.history:
            totals.append(totals[-1] + record.points)
        running[player.number] = totals

    def score_before(number: int, index: int) -> int:
        """Score with virtual points before round ``index + 1``."""
        player = by_number[number]
        base = running[number][index]
        extra = player.acceleration[index] if index < len(player.acceleration) else 0
        return base + extra

    # effective pairing numbers: present now, or in the pairing of an earlier round
    counted = [
        player
        for player in sorted(players, key=lambda p: p.number)
        if not player.absent or any(record.took_part for record in player.history)
    ]
    rank_of = {player.number: index for index, player in enumerate(counted)}
    states: list[PlayerState] = []
    for player in players:
        if player.absent:
            continue
        colours = tuple(
            record.colour
            for record in player.history
            if record.played and record.colour is not None
        )
        imbalance, preference, repeated, strong = colour_data(colours)
        floats = []
        for back in (1, 2):
            index = played_rounds - back
            if index < 0:
                floats.append(Float.NONE)
                continue
            record = player.history[index]
            if not record.played:
                floats.append(Float.DOWN if record.points > scoring.loss else Float.NONE)
                continue
            if record.opponent not in by_number:
                raise PairingError(
                    N_("player %(player)d played unknown player %(opponent)d in round "
                       "%(round)d"), player=player.number, opponent=record.opponent,
                    round=index + 1,
                )
            own = score_before(player.number, index)
            theirs = score_before(record.opponent, index)
            floats.append(Float.DOWN if own > theirs else Float.UP if own < theirs else Float.NONE)
        bye_eligible = not player.had_pairing_allocated_bye and not any(
            not record.played
            and (record.points >= scoring.win or (record.took_part and record.opponent is None))
            for record in player.history
        )
        excluded = {
            record.opponent
            for record in player.history
            if record.played and record.opponent is not None
        }
        excluded |= forbidden.get(player.number, set())
        states.append(
            PlayerState(
                number=player.number,
                score=score_before(player.number, played_rounds),
                raw_score=player.score,
                rank=rank_of[player.number],
                colours=colours,
                imbalance=imbalance,
                preference=preference,
                repeated=repeated,
                strong=strong,
                float1=floats[0],
                float2=floats[1],
                played_games=len(colours),
                bye_eligible=bye_eligible,
                excluded=frozenset(excluded),
            )
        )
    # opponents who played a present player also exclude him (a one-sided record)
    present = {state.number for state in states}
    back_refs: dict[int, set[int]] = {}
    for state in states:
        for other in state.excluded:
            if other in present:
                back_refs.setdefault(other, set()).add(state.number)
    for state in states:
        extra = back_refs.get(state.number)
        if extra and not extra <= state.excluded:
            state.excluded = state.excluded | extra
    states.sort(key=lambda state: (-state.score, state.rank))
    return states


def first_colour_difference(
    first: PlayerState, second: PlayerState
) -> tuple[Colour | None, Colour | None]:
    """The two players' colours in the latest round (counting played games back from
    each one's last) in which they differed."""
    for mine, theirs in zip(reversed(first.colours), reversed(second.colours), strict=False):
        if mine != theirs:
            return mine, theirs
    return None, None


def neutral_colour(player: PlayerState, opponent: PlayerState) -> Colour | None:
    """The colour ``player`` gets against ``opponent`` by the preference rules alone
    (E.1-E.3), or None when they leave it open."""
    mine, theirs = player.preference, opponent.preference
    if mine is None or theirs is None or mine != theirs:
        if mine is not None:
            return mine
        if theirs is not None:
            return opposite(theirs)
        return None
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return mine
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        return opposite(theirs)
    if player.strong and not opponent.strong:
        return mine
    if opponent.strong and not player.strong:
        return opposite(theirs)
    own_colour, their_colour = first_colour_difference(player, opponent)
    if own_colour is not None and their_colour is not None:
        return their_colour
    return None


def ranks_above(player: PlayerState, opponent: PlayerState) -> bool:
    """``player`` comes before ``opponent`` in the pairing order."""
    return (player.score, -player.rank) > (opponent.score, -opponent.rank)


def colour_for(player: PlayerState, opponent: PlayerState, initial: Colour) -> Colour:
    """The colour ``player`` gets against ``opponent`` (E.1-E.5)."""
    colour = neutral_colour(player, opponent)
    if colour is not None:
        return colour
    if player.preference is None:
        # E.5: the higher ranked player's pairing number decides
        higher = opponent if not ranks_above(player, opponent) else player
        higher_colour = initial if higher.rank % 2 == 0 else opposite(initial)
        return higher_colour if higher is player else opposite(higher_colour)
    # E.4: the higher ranked player gets his preference
    if ranks_above(player, opponent):
        return player.preference
    assert opponent.preference is not None
    return opposite(opponent.preference)
