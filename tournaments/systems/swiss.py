"""Swiss (FIDE Dutch): each round paired from the scores so far by the Swiss engine.

The shell gives the engine's view of the tournament before the round
(:class:`SwissInput`, through ``State.pairing_input``); this system pairs it and adds the
requested byes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.i18n import N_
from tournaments.marked import N_plural
from tournaments.systems.base import (
    BYE,
    PAIRING_ALLOCATED,
    PlanError,
    Planned,
    State,
    TournamentSystem,
)

if TYPE_CHECKING:
    from tournaments.pairing.swiss import SwissPlayer


@dataclass(frozen=True)
class SwissInput:
    """The Swiss engine's input for one round, as the shell builds it."""

    players: Sequence[SwissPlayer]
    #: Entrant id by pairing number.
    entrant_of: Mapping[int, int]
    #: Pairs of pairing numbers that must not meet.
    forbidden: Sequence[frozenset[int]] = ()
    win_points: int = 2
    #: Requested bye kind by entrant id, for those who play this round.
    requested: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Swiss(TournamentSystem):
    """As many rounds as planned; late entries, requested byes and forbidden pairs."""

    default_tiebreaks: tuple[str, ...] = ("buchholz_cut1", "buchholz", "direct_encounter",
                                          "wins", "games_second_move")
    late_entries: bool = True
    requested_byes: bool = True
    forbidden_pairings: bool = True
    needs_rounds_planned: bool = True

    def plan_round(self, state: State, number: int) -> list[Planned]:
        """Raises the engine's ``PairingError`` when the round has no legal pairing."""
        from tournaments.pairing.swiss import pair_round  # the engine loads when first used

        total = state.settings.rounds_planned or 0
        if number > total:
            raise PlanError(N_plural(
                "All %(count)d planned rounds are paired: finish the tournament or plan "
                "more rounds.",
                "All %(count)d planned rounds are paired: finish the tournament or plan "
                "more rounds."), count=total)
        if state.pairing_input is None:
            raise ValueError("a Swiss round needs the shell's pairing input")
        swiss: SwissInput = state.pairing_input(number)
        result = pair_round(swiss.players, number, total, forbidden=swiss.forbidden,
                            win_points=swiss.win_points)
        planned = [Planned(swiss.entrant_of[a], swiss.entrant_of[b]) for a, b in result.pairs]
        if result.bye is not None:
            planned.append(Planned(swiss.entrant_of[result.bye], None, PAIRING_ALLOCATED,
                                   outcome=BYE))
        number_of = {entrant: n for n, entrant in swiss.entrant_of.items()}
        for entrant, kind in sorted(swiss.requested.items(), key=lambda item: number_of[item[0]]):
            planned.append(Planned(entrant, None, kind, outcome=BYE))
        return planned

    def rounds_remaining(self, state: State) -> int:
        return max(0, (state.settings.rounds_planned or 0) - state.paired_rounds)


SWISS = Swiss("swiss", N_("Swiss (FIDE Dutch)"))
