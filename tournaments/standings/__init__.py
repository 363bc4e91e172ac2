"""Standings with FIDE tie-breaks (C.07) over a plain tournament record. Pure Python."""

from tournaments.standings.context import TieBreakOptions
from tournaments.standings.ranking import StandingRow, compute_standings
from tournaments.standings.record import (
    Entrant,
    RoundEntry,
    Scoring,
    StandingsError,
    TournamentRecord,
)
from tournaments.standings.tables import crosstable, round_by_round
from tournaments.standings.tiebreaks import REGISTRY, available_tiebreaks, get_tiebreak

__all__ = [
    "REGISTRY",
    "Entrant",
    "RoundEntry",
    "Scoring",
    "StandingRow",
    "StandingsError",
    "TieBreakOptions",
    "TournamentRecord",
    "available_tiebreaks",
    "compute_standings",
    "crosstable",
    "get_tiebreak",
    "round_by_round",
]
