"""Per-tournament facts that every tie-break reads, computed once.

Everything is indexed by entrant position (the order of ``record.entrants``) so the
tie-breaks run over plain lists.

Unplayed rounds follow the FIDE tie-break regulations (C.07), articles 15 and 16:

- In a round robin (pre-determined pairings, article 15.2) a forfeit counts as a game
  against the scheduled opponent, except in rating-based tie-breaks and (for forfeit
  losses) in the "type B" counts; a bye (odd number of entrants) contributes nothing.
- In a Swiss, each unplayed round falls in a category (16.2): 1 pairing-allocated or
  full-point bye, 2 forfeit win, 3 requested bye followed by a round that is not a
  "voluntary unplayed round" (VUR: requested bye or forfeit loss), 4 forfeit loss,
  5 requested bye followed only by VURs, or in the last round. For the opponents'
  tie-breaks an entrant's score is *adjusted* (16.3): category 5 rounds count as
  draws. For the entrant's own tie-breaks each unplayed round is a game against a
  *dummy* whose score is the entrant's own score (16.4). The 2026 revision caps the
  dummy: at the scheduled opponent's adjusted score for forfeits, at a draw per round
  for the other unplayed rounds; ``TieBreakOptions(rules="2026")`` applies the caps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tournaments.standings.record import (
    FORFEITS,
    REQUESTED_BYES,
    EntrantId,
    RoundEntry,
    StandingsError,
    TournamentRecord,
)

Rules = Literal["2024", "2026"]
_GAME_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}

NO_OPPONENT = -1


@dataclass(frozen=True)
class TieBreakOptions:
    """Choices the regulations leave to the tournament.

    ``rules``: "2024" (C.07 as applied from 2023/2024: the dummy scores the entrant's
    own score, and a VUR is always cut first) or "2026" (dummy capped, 16.4.1-16.4.2;
    for Sonneborn-Berger the higher of the two candidates is cut, 16.5.1).
    ``game_points``: compute tie-breaks from game points (1, 1/2, 0 by result) rather
    than from the tournament's scoring (they differ only with e.g. 3-1-0 scoring).
    ``direct_encounter_forfeits``: count forfeits in Direct Encounter in a Swiss
    (article 6.1.1 excludes them unless the tournament's rules say otherwise; in a
    round robin they always count, article 15.2).
    """

    rules: Rules = "2024"
    game_points: bool = False
    direct_encounter_forfeits: bool = False

    def __post_init__(self) -> None:
        if self.rules not in ("2024", "2026"):
            raise StandingsError(f"unknown tie-break rules {self.rules!r}; use '2024' or '2026'")


class Context:
    """Indexed views of a record: opponents, points, adjusted scores, dummies."""

    def __init__(self, record: TournamentRecord, options: TieBreakOptions) -> None:
        self.record = record
        self.options = options
        self.swiss = record.system == "swiss"
        self.ids: list[EntrantId] = [entrant.id for entrant in record.entrants]
        index = {entrant_id: i for i, entrant_id in enumerate(self.ids)}
        self.index = index
        self.size = len(self.ids)
        self.rounds = record.rounds_played
        self.total_rounds = record.total_rounds
        self.ratings = [entrant.rating for entrant in record.entrants]
        self.entries: list[tuple[RoundEntry, ...]] = [e.rounds for e in record.entrants]
        self.opponents: list[list[int]] = [
            [NO_OPPONENT if entry.opponent is None else index[entry.opponent] for entry in rounds]
            for rounds in self.entries
        ]
        scoring = record.scoring
        self.points = [
            [scoring.points(e.kind, e.result) for e in rounds] for rounds in self.entries
        ]
        self.score = [sum(points) for points in self.points]
        if options.game_points:
            self.tb_points = [[_GAME_POINTS[e.result] for e in rounds] for rounds in self.entries]
            self.tb_win, self.tb_draw, self.tb_loss = 1.0, 0.5, 0.0
        else:
            self.tb_points = self.points
            self.tb_win, self.tb_draw = float(scoring.win), float(scoring.draw)
            self.tb_loss = float(scoring.loss)
        self.tb_score = [sum(points) for points in self.tb_points]
        self.vur = [[_is_vur(entry) for entry in rounds] for rounds in self.entries]
        self.category = [self._categories(i) for i in range(self.size)]
        self.adjusted = [self._adjusted_score(i) for i in range(self.size)]
        self._opponent_elements: list[list[tuple[float, bool, int]]] | None = None

    # -- article 16 ---------------------------------------------------------------

    def _categories(self, i: int) -> list[int]:
        """0 for a game played over the board, else the category of article 16.2."""
        entries, vur = self.entries[i], self.vur[i]
        categories = []
        for r, entry in enumerate(entries):
            if entry.kind == "played":
                categories.append(0)
            elif entry.kind in ("pairing_bye", "full_bye"):
                categories.append(1)
            elif entry.kind == "forfeit_win":
                categories.append(2)
            elif entry.kind == "forfeit_loss":
                categories.append(4)
            else:
                followed_by_play = any(not later for later in vur[r + 1 :])
                categories.append(3 if followed_by_play else 5)
        return categories

    def _adjusted_score(self, i: int) -> float:
        if not self.swiss:
            return self.tb_score[i]
        return sum(
            self.tb_draw if category == 5 else points
            for category, points in zip(self.category[i], self.tb_points[i], strict=True)
        )

    def dummy_score(self, i: int, r: int) -> float:
        """The score of the dummy that stands in for the opponent of unplayed round r."""
        own = self.tb_score[i]
        if self.options.rules == "2024":
            return own
        if self.entries[i][r].kind in FORFEITS:
            return min(own, self.adjusted[self.opponents[i][r]])
        return min(own, self.tb_draw * self.total_rounds)

    def opponent_elements(self) -> list[list[tuple[float, bool, int]]]:
        """Per entrant: (opponent's or dummy's score, round is a VUR, round) per round.

        Swiss: games over the board give the opponent's adjusted score; unplayed rounds
        give the dummy's score. Round robin: games and forfeits give the opponent's
        score; byes give nothing.
        """
        if self._opponent_elements is None:
            elements = []
            for i in range(self.size):
                own: list[tuple[float, bool, int]] = []
                for r, entry in enumerate(self.entries[i]):
                    opponent = self.opponents[i][r]
                    if self.swiss:
                        if entry.kind == "played":
                            own.append((self.adjusted[opponent], False, r))
                        else:
                            own.append((self.dummy_score(i, r), self.vur[i][r], r))
                    elif opponent != NO_OPPONENT:
                        own.append((self.tb_score[opponent], False, r))
                elements.append(own)
            self._opponent_elements = elements
        return self._opponent_elements

    # -- helpers --------------------------------------------------------------------

    def counts_as_game(self, i: int, r: int) -> bool:
        """A game for type B counts: over the board, or a forfeit win in a round robin."""
        kind = self.entries[i][r].kind
        return kind == "played" or (not self.swiss and kind == "forfeit_win")


def _is_vur(entry: RoundEntry) -> bool:
    return entry.kind in REQUESTED_BYES or entry.kind == "forfeit_loss"
