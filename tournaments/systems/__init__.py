"""Tournament systems, found by the tournament's format: one class per system, one
registry (as Tabbycat's draw managers, and ``games.engines.facts`` for games).

A new system (team matches, Keizer, Scheveningen...) adds its module with a
:class:`TournamentSystem` subclass and one line in :data:`SYSTEMS`; the services,
selectors and pages only read the system they look up.

>>> system_of("double_round_robin").table_kind
'crosstable'
>>> system_of("knockout").needs_winner
True
>>> system_of("swiss").rounds_remaining(State(Settings(rounds_planned=7), (), paired_rounds=3))
4
"""

from __future__ import annotations

from tournaments.systems.base import (
    Entry,
    PastPairing,
    PlanError,
    Planned,
    Settings,
    State,
    TableKind,
    TournamentSystem,
)
from tournaments.systems.knockout import DOUBLE_ELIMINATION, KNOCKOUT, Knockout
from tournaments.systems.round_robin import DOUBLE_ROUND_ROBIN, ROUND_ROBIN, RoundRobin
from tournaments.systems.swiss import SWISS, Swiss, SwissInput
from tournaments.systems.teams import (
    TEAM_DOUBLE_ROUND_ROBIN,
    TEAM_KNOCKOUT,
    TEAM_ROUND_ROBIN,
    TEAM_SWISS,
    TeamHistory,
    TeamKnockout,
    TeamRound,
    TeamRoundRobin,
    TeamSwiss,
    team_swiss_input,
)

__all__ = [
    "SYSTEMS",
    "Entry",
    "Knockout",
    "PastPairing",
    "PlanError",
    "Planned",
    "RoundRobin",
    "Settings",
    "State",
    "Swiss",
    "SwissInput",
    "TableKind",
    "TeamHistory",
    "TeamKnockout",
    "TeamRound",
    "TeamRoundRobin",
    "TeamSwiss",
    "TournamentSystem",
    "system_of",
    "team_swiss_input",
]

#: Every system by its format value (``Tournament.format``).
SYSTEMS: dict[str, TournamentSystem] = {
    system.name: system
    for system in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, KNOCKOUT, DOUBLE_ELIMINATION,
                   TEAM_ROUND_ROBIN, TEAM_DOUBLE_ROUND_ROBIN, TEAM_SWISS, TEAM_KNOCKOUT)
}


def system_of(format: str) -> TournamentSystem:
    """The system stored as ``format``; a ``KeyError`` for an unknown one."""
    return SYSTEMS[format]
