"""A board's state from the two sides' latest claims, in plain Python (no Django).

Each side of a board may report what happened: a match score, the games one by one, or
that the opponent did not show. Claims are written from the board's point of view (side A,
side B), so two claims agree when they name the same outcome and the same score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    SCORE = "score"
    GAMES = "games"
    NO_SHOW = "no_show"


class State(StrEnum):
    NONE = "none"
    ONE_SIDE = "one_side"
    AGREED = "agreed"
    CONFLICT = "conflict"
    NO_SHOW = "no_show"


#: The states a director must settle (the conflict queue); a round waits for them.
OPEN_ISSUES = frozenset({State.CONFLICT, State.NO_SHOW})

#: Game winners as the reports store them: side A, side B, a draw.
GAME_WINNERS = {"a": 0, "b": 1, "draw": None}


@dataclass(frozen=True, slots=True)
class Claim:
    """One side's claim: the outcome (the pairing's outcome codes) and the match score."""

    kind: str
    outcome: str
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0

    @property
    def result(self) -> tuple[str, int, int, int]:
        return (self.outcome, self.wins_a, self.wins_b, self.draws)


def board_state(a: Claim | None, b: Claim | None) -> State:
    """The board's state from side A's and side B's latest claims (None: no claim)."""
    claims = [claim for claim in (a, b) if claim is not None]
    if not claims:
        return State.NONE
    if len(claims) == 1:
        return State.NO_SHOW if claims[0].kind == Kind.NO_SHOW else State.ONE_SIDE
    assert a is not None and b is not None
    if Kind.NO_SHOW in (a.kind, b.kind):
        # each says the other stayed away, or one says so and the other reports a game
        return State.CONFLICT
    return State.AGREED if a.result == b.result else State.CONFLICT


def no_show_outcome(side: int) -> str:
    """The outcome a no-show claim by ``side`` (0 = A, 1 = B) asks for: a forfeit win."""
    return "a_forfeit_win" if side == 0 else "b_forfeit_win"


def games_score(winners: Sequence[int | None]) -> tuple[int, int, int]:
    """(wins of A, wins of B, draws) of games won by 0 (A), 1 (B) or drawn (None)."""
    return (sum(1 for w in winners if w == 0), sum(1 for w in winners if w == 1),
            sum(1 for w in winners if w is None))


def parse_winners(values: Sequence[str]) -> list[int | None] | None:
    """Game winners from their codes (``a``, ``b``, ``draw``); None if one is unknown."""
    winners: list[int | None] = []
    for value in values:
        if value not in GAME_WINNERS:
            return None
        winners.append(GAME_WINNERS[value])
    return winners


def claim_status(claim_id: int, latest_ids: set[int], result: tuple[str, int, int, int] | None,
                 claim_result: tuple[str, int, int, int]) -> str:
    """How a stored claim stands: ``superseded`` (its side reported again), ``open`` (the
    result is not in yet), ``accepted`` (the recorded result is the claim's) or
    ``overridden`` (the recorded result is another)."""
    if result is None:
        return "open" if claim_id in latest_ids else "superseded"
    if claim_result == result:
        return "accepted"
    return "overridden" if claim_id in latest_ids else "superseded"
