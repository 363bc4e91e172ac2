"""Ordered standings: points first, then the chosen tie-breaks in order.

Entrants still tied after every tie-break share their rank (FIDE C.07, 2.1): both are
listed "3", the next one "5". Among themselves they are listed in record order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.standings.context import Context, TieBreakOptions
from tournaments.standings.record import EntrantId, StandingsError, TournamentRecord
from tournaments.standings.tiebreaks import DirectEncounter, TieBreak, Value, get_tiebreak


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entrant: EntrantId
    points: float
    tiebreaks: dict[str, Value] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "points": self.points,
            "tiebreaks": dict(self.tiebreaks),
        }


def compute_standings(
    record: TournamentRecord | Mapping[str, Any],
    tiebreaks: Sequence[str] = (),
    options: TieBreakOptions | None = None,
) -> list[StandingRow]:
    """Standings rows, best first. ``tiebreaks`` are keys or FIDE abbreviations.

    Each row's ``tiebreaks`` maps the tie-break key to its value. Direct Encounter's
    value is the entrant's score against the others of the group it was tied with when
    Direct Encounter came to be applied, or None when it was not tied then.
    """
    if not isinstance(record, TournamentRecord):
        record = TournamentRecord.from_dict(record)
    context = Context(record, options or TieBreakOptions())
    chosen = [get_tiebreak(name) for name in tiebreaks]
    keys = [tiebreak.key for tiebreak in chosen]
    if len(set(keys)) != len(keys):
        raise StandingsError(f"a tie-break is listed twice: {list(tiebreaks)}")
    values = {tb.key: tb.compute(context) for tb in chosen if not tb.contextual}
    contextual: dict[str, list[Value]] = {tb.key: [None] * context.size for tb in chosen}
    groups = _groups_by_points(context)
    final_groups: list[list[int]] = []
    for group in groups:
        final_groups.extend(_break_ties(context, group, chosen, 0, values, contextual))
    rows: list[StandingRow] = []
    for group in final_groups:
        rank = len(rows) + 1
        for i in sorted(group):
            rows.append(
                StandingRow(
                    rank=rank,
                    entrant=context.ids[i],
                    points=context.score[i],
                    tiebreaks={
                        tb.key: (contextual if tb.contextual else values)[tb.key][i]
                        for tb in chosen
                    },
                )
            )
    return rows


def _groups_by_points(context: Context) -> list[list[int]]:
    ordered = sorted(range(context.size), key=lambda i: -context.score[i])
    groups: list[list[int]] = []
    for i in ordered:
        if groups and context.score[groups[-1][0]] == context.score[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _break_ties(
    context: Context,
    group: list[int],
    chosen: list[TieBreak],
    level: int,
    values: dict[str, list[Value]],
    contextual: dict[str, list[Value]],
) -> list[list[int]]:
    if len(group) < 2 or level == len(chosen):
        return [group]
    tiebreak = chosen[level]
    if isinstance(tiebreak, DirectEncounter):
        parts, scores = tiebreak.split(context, group)
        for i, score in scores.items():
            contextual[tiebreak.key][i] = score
    else:
        parts = _split_by_value(group, values[tiebreak.key], tiebreak.direction == "desc")
    result: list[list[int]] = []
    for part in parts:
        result.extend(_break_ties(context, part, chosen, level + 1, values, contextual))
    return result


def _split_by_value(group: list[int], column: list[Value], descending: bool) -> list[list[int]]:
    def key(i: int) -> float:
        value = column[i]
        if value is None:
            return float("inf")  # no value ranks last either way
        return -float(value) if descending else float(value)

    ordered = sorted(group, key=key)
    parts: list[list[int]] = []
    for i in ordered:
        if parts and key(parts[-1][0]) == key(i):
            parts[-1].append(i)
        else:
            parts.append([i])
    return parts
