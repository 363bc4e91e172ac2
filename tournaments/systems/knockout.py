"""Knockouts (single and double elimination): each round plays the bracket's ready
matches; the standings are the bracket's placings."""

from __future__ import annotations

from dataclasses import dataclass

from games.i18n import N_
from tournaments.pairing.knockout import BYE, Bracket, Match
from tournaments.systems.base import (
    CorrectionRule,
    PlanError,
    Planned,
    Settings,
    State,
    TableKind,
    TournamentSystem,
    forfeit_if_absent,
)


def _first_real(match: Match) -> int | None:
    """The first entrant's seed when both sides are real entrants (not a bye)."""
    first, second = match.entrants
    return None if first in (None, BYE) or second in (None, BYE) else int(first)


@dataclass(frozen=True)
class Knockout(TournamentSystem):
    """The bracket is fixed at the start: a withdrawn entrant's matches are forfeits, a
    match needs a winner and a correction may not change who went through."""

    double: bool = False
    table_kind: TableKind = "bracket"
    needs_winner: bool = True
    correction: CorrectionRule = "keep_winner"

    def new_bracket(self, settings: Settings, entrants: int) -> Bracket:
        if self.double:
            return Bracket.double(entrants, grand_final_reset=settings.grand_final_reset)
        return Bracket.single(entrants, third_place=settings.third_place_match)

    def bracket(self, state: State) -> Bracket:
        """The bracket with every decided match of ``state`` reported in it."""
        seed_of = {entry.id: seed for seed, entry in state.seeded().items()}
        bracket = self.new_bracket(state.settings, len(seed_of))
        winners = {p.bracket_match: seed_of[p.winner] for p in state.pairings
                   if p.bracket_match and p.winner is not None}
        for match_id in list(bracket.matches):  # creation order: inputs come first
            if match_id in winners and bracket.matches[match_id].status == "ready":
                bracket.report(match_id, winners[match_id])
        return bracket

    def plan_round(self, state: State, number: int) -> list[Planned]:
        by_seed = state.seeded()
        by_id = {entry.id: entry for entry in state.entrants}
        playable = self.bracket(state).playable()
        if not playable:
            raise PlanError(N_("The bracket is complete: finish the tournament."))
        planned = []
        for match in playable:
            first, second = match.entrants
            if first in (None, BYE) or second in (None, BYE):
                continue  # the bracket decides byes by itself
            planned.append(forfeit_if_absent(
                Planned(by_seed[first].id, by_seed[second].id, bracket_match=match.id),
                number, by_id))
        return planned

    def rounds_remaining(self, state: State) -> int:
        """As if the first entrant of each match won, so a double elimination's
        grand-final reset is not counted."""
        if len(state.seeded()) < 2:
            return 0
        bracket = self.bracket(state)
        awaited = {p.bracket_match for p in state.pairings if p.bracket_match}
        for match in bracket.playable():  # paired already: their rounds are done
            winner = _first_real(match)
            if match.id in awaited and winner is not None:
                bracket.report(match.id, winner)
        remaining = 0
        while playable := [(m.id, w) for m in bracket.playable()
                           if (w := _first_real(m)) is not None]:
            remaining += 1
            for match_id, winner in playable:
                bracket.report(match_id, winner)
        return remaining


KNOCKOUT = Knockout("knockout", N_("Knockout"), third_place_match=True)
DOUBLE_ELIMINATION = Knockout("double_elimination", N_("Double elimination"), double=True)
