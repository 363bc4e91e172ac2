"""Round robin (single and double): everyone meets everyone on the FIDE Berger tables."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from games.i18n import N_
from tournaments.marked import N_plural
from tournaments.pairing.round_robin import BYE, REST_ROUND_POINTS, berger_rounds, rounds_count
from tournaments.systems.base import BYE as BYE_OUTCOME
from tournaments.systems.base import (
    PAIRING_ALLOCATED,
    PlanError,
    Planned,
    State,
    TableKind,
    TournamentSystem,
    forfeit_if_absent,
)


@dataclass(frozen=True)
class RoundRobin(TournamentSystem):
    """The Berger schedule is fixed at the start: a withdrawn entrant's matches are
    forfeits, nobody joins late, and a rest round scores nothing (FIDE)."""

    double: bool = False
    default_tiebreaks: tuple[str, ...] = ("direct_encounter", "wins", "sonneborn_berger", "koya")
    table_kind: TableKind = "crosstable"
    record_system: Literal["swiss", "round_robin"] = "round_robin"

    @property
    def rounds_grow_with_entrants(self) -> bool:
        return True

    def bye_points(self, points_bye: Decimal) -> Decimal:
        return Decimal(REST_ROUND_POINTS)

    def max_entrants(self, most: int, max_rounds: int) -> int:
        count = 2
        while rounds_count(count + 1, double=self.double) <= max_rounds:
            count += 1
        return count

    def plan_round(self, state: State, number: int) -> list[Planned]:
        by_seed = state.seeded()
        schedule = berger_rounds(len(by_seed), double=self.double)
        if number > len(schedule):
            raise PlanError(N_plural(
                "All %(count)d rounds of the round robin are paired: finish the tournament.",
                "All %(count)d rounds of the round robin are paired: finish the tournament."),
                count=len(schedule))
        by_id = {entry.id: entry for entry in state.entrants}
        planned = []
        for first, second in schedule[number - 1]:
            if second == BYE or first == BYE:
                planned.append(Planned(by_seed[first or second].id, None, PAIRING_ALLOCATED,
                                       outcome=BYE_OUTCOME))
            else:
                planned.append(forfeit_if_absent(
                    Planned(by_seed[first].id, by_seed[second].id), number, by_id))
        return sorted(planned, key=lambda p: p.second is None)  # byes last, as boards go

    def rounds_remaining(self, state: State) -> int:
        seeded = len(state.seeded())
        if seeded < 2:
            return 0
        return max(0, rounds_count(seeded, double=self.double) - state.paired_rounds)


ROUND_ROBIN = RoundRobin("round_robin", N_("Round robin"))
DOUBLE_ROUND_ROBIN = RoundRobin("double_round_robin", N_("Double round robin"), double=True)
