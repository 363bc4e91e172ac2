"""Swiss (FIDE Dutch): each round paired from the scores so far by the Swiss engine.

The shell gives the tournament before the round as its TRF document
(:class:`SwissInput`, through ``State.pairing_input``); this system pairs it through the
same ``tournaments.trf.pair_document`` the corpus checks against bbpPairings, and adds the
requested byes.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    from tournaments.trf import TrfTournament


@dataclass(frozen=True)
class SwissInput:
    """The Swiss engine's input for one round, as the shell builds it."""

    #: The tournament as a TRF document, with this round's byes and absences
    #: (``tournaments.trf.pair_document`` pairs it as the corpus checks it).
    document: TrfTournament
    #: Entrant id by pairing number.
    entrant_of: Mapping[int, int]
    #: Requested bye kind by entrant id, for those who play this round.
    requested: Mapping[int, str] = field(default_factory=dict)
    #: Anyone left to pair (not every entrant absent or on a requested bye).
    pairable: bool = True


@dataclass(frozen=True)
class Swiss(TournamentSystem):
    """As many rounds as planned; late entries, requested byes and forbidden pairs."""

    default_tiebreaks: tuple[str, ...] = ("buchholz_cut1", "buchholz", "direct_encounter",
                                          "wins", "games_second_move")
    late_entries: bool = True
    requested_byes: bool = True
    forbidden_pairings: bool = True
    pairs_by_trf: bool = True
    needs_rounds_planned: bool = True
    pairing_edits: bool = True

    def plan_round(self, state: State, number: int) -> list[Planned]:
        """Raises ``tournaments.trf.TrfError`` when the round has no legal pairing."""
        from tournaments.trf import pair_document  # the engine loads when first used

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
        pairs = pair_document(swiss.document) if swiss.pairable else []
        planned = []
        for first, second in pairs:
            if second == 0:
                planned.append(Planned(swiss.entrant_of[first], None, PAIRING_ALLOCATED,
                                       outcome=BYE))
            else:
                planned.append(Planned(swiss.entrant_of[first], swiss.entrant_of[second]))
        number_of = {entrant: n for n, entrant in swiss.entrant_of.items()}
        for entrant, kind in sorted(swiss.requested.items(), key=lambda item: number_of[item[0]]):
            planned.append(Planned(entrant, None, kind, outcome=BYE))
        return planned

    def rounds_remaining(self, state: State) -> int:
        return max(0, (state.settings.rounds_planned or 0) - state.paired_rounds)


SWISS = Swiss("swiss", N_("Swiss (FIDE Dutch)"))
