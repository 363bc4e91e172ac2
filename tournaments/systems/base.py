"""What every tournament system knows and decides, over plain data.

A system is one class (:class:`TournamentSystem`) holding the facts the shells read
(table kind, default tie-breaks, whether a match needs a winner, which requests it takes)
and the rules it owns (planning a round, rounds remaining, the most entrants). The Django
shells turn their rows into a :class:`State` and back; they never ask which system it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from games.i18n import N_
from tournaments.marked import MarkedError
from tournaments.pairing.knockout import Bracket

#: How a system's results read best beside its standings: a crosstable (everyone against
#: everyone), a round-by-round table (Swiss) or the bracket (the standings are placings).
TableKind = Literal["crosstable", "round_by_round", "bracket"]

#: What a corrected result of a round already followed does: it changes the standings and
#: the later pairings stay (``"warn"``), or it may not change who went through
#: (``"keep_winner"``: the next rounds were built on the winner).
CorrectionRule = Literal["warn", "keep_winner"]

#: Values of the shells' outcome and bye choices, as the plans carry them.
PENDING, BYE = "pending", "bye"
A_FORFEIT_WIN, B_FORFEIT_WIN, DOUBLE_FORFEIT = "a_forfeit_win", "b_forfeit_win", "double_forfeit"
PAIRING_ALLOCATED = "pairing_allocated"


_TABLE_LABELS: dict[str, str] = {"crosstable": N_("Crosstable"),
                                 "round_by_round": N_("Round by round")}


class PlanError(MarkedError):
    """A round that cannot be planned, in words the organizer reads."""


@dataclass(frozen=True, slots=True)
class Entry:
    """An entrant as the systems see it: its id, seed and the rounds it plays."""

    id: int
    seed: int | None
    joined_round: int = 1
    withdrawn_from_round: int | None = None

    def plays_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


@dataclass(frozen=True, slots=True)
class PastPairing:
    """A pairing already made: its entrants, its bracket match and who went through."""

    first: int
    second: int | None
    bracket_match: str = ""
    #: The entrant that goes through (a knockout's decided match), None while undecided.
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Settings:
    """The tournament settings the systems read."""

    rounds_planned: int | None = None
    third_place_match: bool = False
    grand_final_reset: bool = True


@dataclass(frozen=True)
class State:
    """A tournament as its system reads it.

    ``pairing_input`` is the shell's lazy view for systems that pair from the whole
    history (the Swiss engine's players); it is built only when such a system asks.
    """

    settings: Settings
    entrants: tuple[Entry, ...]
    pairings: tuple[PastPairing, ...] = ()
    paired_rounds: int = 0
    pairing_input: Callable[[int], Any] | None = None

    def seeded(self) -> dict[int, Entry]:
        """The entrants with a seed, by seed."""
        return {entry.seed: entry for entry in self.entrants if entry.seed is not None}


@dataclass(slots=True)
class Planned:
    """One board of a planned round (``second`` None: a bye)."""

    first: int
    second: int | None
    bye_kind: str = ""
    bracket_match: str = ""
    outcome: str = PENDING


def forfeit_if_absent(planned: Planned, number: int, by_id: Mapping[int, Entry]) -> Planned:
    """In fixed schedules a withdrawn entrant's match is a forfeit, decided at once."""
    if planned.second is None:
        return planned
    first_plays = by_id[planned.first].plays_in(number)
    second_plays = by_id[planned.second].plays_in(number)
    if first_plays and not second_plays:
        planned.outcome = A_FORFEIT_WIN
    elif second_plays and not first_plays:
        planned.outcome = B_FORFEIT_WIN
    elif not first_plays and not second_plays:
        planned.outcome = DOUBLE_FORFEIT
    return planned


@dataclass(frozen=True)
class TournamentSystem:
    """One tournament system (round robin, Swiss, knockout...): its facts and its rules.

    A new system subclasses this, overrides :meth:`plan_round` and
    :meth:`rounds_remaining`, and gets one line in the registry
    (``tournaments.systems.SYSTEMS``); nothing else changes.
    """

    #: The format value it is stored and looked up under.
    name: str
    #: Its name as shown, marked for translation (``N_``).
    label: str
    #: The tie-breaks a new tournament gets unless it names its own.
    default_tiebreaks: tuple[str, ...] = ()
    table_kind: TableKind = "round_by_round"
    #: A match must have a winner: a level score needs a tie-break winner (which a
    #: recount of the games keeps), a double forfeit is refused.
    needs_winner: bool = False
    correction: CorrectionRule = "warn"
    #: The requests it takes while it runs: late entries, requested byes, forbidden pairs.
    late_entries: bool = False
    requested_byes: bool = False
    forbidden_pairings: bool = False
    #: It pairs from the tournament's TRF document, which carries its first colour and
    #: Baku acceleration (settings the others do not take).
    pairs_by_trf: bool = False
    #: Its last round's pairings may be edited by hand (swaps, manual boards), with the
    #: rules an edit breaks named (``tournaments.pairing.edit_rules``). A round robin's
    #: rounds follow the Berger table and a knockout's the bracket: an edit would break
    #: the schedule of every later round, so they unpair and pair again instead.
    pairing_edits: bool = False
    #: It cannot start without ``rounds_planned`` (its length is not given by the entrants).
    needs_rounds_planned: bool = False
    #: It may have a third-place match.
    third_place_match: bool = False
    #: The standings core's scoring of its results (``"round_robin"``: a rest round
    #: scores nothing and counts as unplayed).
    record_system: Literal["swiss", "round_robin"] = "swiss"
    #: Its entrants are teams whose matches are played on boards (a league's team
    #: systems, ``tournaments.systems.teams``): the league plans its rounds from its
    #: teams' states, and an ordinary tournament's "pair next round" refuses it.
    pairs_teams: bool = False

    @property
    def has_bracket(self) -> bool:
        """Its standings are a bracket's placings (matches won, not points)."""
        return self.table_kind == "bracket"

    @property
    def has_table(self) -> bool:
        """Its pages have a table tab beside the overview and the rounds."""
        return self.table_kind != "bracket"

    @property
    def overview_label(self) -> str:
        """The marked name of its pages' first tab."""
        return N_("Bracket") if self.has_bracket else N_("Standings")

    @property
    def table_label(self) -> str:
        """The marked name of its table tab (empty without one)."""
        return _TABLE_LABELS.get(self.table_kind, "")

    def bye_points(self, points_bye: Decimal) -> Decimal:
        """What a pairing-allocated bye scores, given the tournament's setting."""
        return points_bye

    def max_entrants(self, most: int, max_rounds: int) -> int:
        """The most entrants it takes, given the service's bounds."""
        return most

    @property
    def rounds_grow_with_entrants(self) -> bool:
        """Its number of rounds follows from the entrants (what bounds them)."""
        return False

    def bracket(self, state: State) -> Bracket:
        """The bracket of a system that has one (:attr:`has_bracket`), with every decided
        match of ``state`` reported in it."""
        raise TypeError(f"{self.name} has no bracket")

    def plan_round(self, state: State, number: int) -> list[Planned]:
        """The boards of round ``number`` (byes last), or a :class:`PlanError`."""
        raise NotImplementedError

    def rounds_remaining(self, state: State) -> int:
        """Rounds still to pair; a round already paired counts as done."""
        raise NotImplementedError

