"""Direct Encounter (FIDE C.07, article 6) for one group of tied entrants.

- The points each tied entrant scored against the others of the group form separate
  standings; when two of them met more than once, the average of their games counts.
- Forfeits count in a round robin (15.2); in a Swiss only if the tournament says so
  (``TieBreakOptions.direct_encounter_forfeits``).
- If everyone in the group met everyone, the separate standings rank the group; any
  subset still tied is ranked again by Direct Encounter among themselves alone, until
  nothing more separates.
- Otherwise (a Swiss), an entrant alone at the top whatever the missing games' results
  is ranked first, then the same for second place, and so on; Direct Encounter then
  starts again among those not yet ranked.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.standings.context import Context

DirectEncounterValues = dict[int, float]


def _head_to_head(context: Context, group: Sequence[int]) -> dict[tuple[int, int], float]:
    """Average points of i against j, for each ordered pair of the group that met."""
    members = set(group)
    include_forfeits = not context.swiss or context.options.direct_encounter_forfeits
    totals: dict[tuple[int, int], list[float]] = {}
    for i in group:
        for r, opponent in enumerate(context.opponents[i]):
            if opponent not in members:
                continue
            entry = context.entries[i][r]
            if not entry.played and not include_forfeits:
                continue
            totals.setdefault((i, opponent), []).append(context.tb_points[i][r])
    return {pair: sum(points) / len(points) for pair, points in totals.items()}


def _scores(group: Sequence[int], met: dict[tuple[int, int], float]) -> dict[int, float]:
    members = set(group)
    scores = dict.fromkeys(group, 0.0)
    for (i, j), points in met.items():
        if i in members and j in members:
            scores[i] += points
    return scores


def _is_complete(group: Sequence[int], met: dict[tuple[int, int], float]) -> bool:
    members = set(group)
    pairs = sum(1 for i, j in met if i in members and j in members)
    return pairs == len(group) * (len(group) - 1)


def split_group(
    context: Context, group: Sequence[int]
) -> tuple[list[list[int]], DirectEncounterValues]:
    """Ordered sub-groups of ``group`` (still-tied entrants stay together) and each
    entrant's Direct Encounter score within ``group``."""
    met = _head_to_head(context, group)
    values = _scores(group, met)
    return _rank(context, list(group), met), values


def _rank(context: Context, group: list[int], met: dict[tuple[int, int], float]) -> list[list[int]]:
    if len(group) < 2:
        return [group]
    scores = _scores(group, met)
    if _is_complete(group, met):
        ordered = sorted(group, key=lambda i: -scores[i])
        tiers: list[list[int]] = []
        for i in ordered:
            if tiers and scores[tiers[-1][0]] == scores[i]:
                tiers[-1].append(i)
            else:
                tiers.append([i])
        if len(tiers) == 1:
            return tiers
        result: list[list[int]] = []
        for tier in tiers:
            result.extend(_rank(context, tier, met) if len(tier) > 1 else [tier])
        return result
    return _rank_incomplete(context, group, met, scores)


def _rank_incomplete(
    context: Context,
    group: list[int],
    met: dict[tuple[int, int], float],
    scores: dict[int, float],
) -> list[list[int]]:
    win, loss = context.tb_win, context.tb_loss
    members = set(group)
    met_count = dict.fromkeys(group, 0)
    for i, j in met:
        if i in members and j in members:
            met_count[i] += 1
    missing = {i: len(group) - 1 - met_count[i] for i in group}
    best_case = {i: scores[i] + win * missing[i] for i in group}
    worst_case = {i: scores[i] + loss * missing[i] for i in group}
    ranked: list[list[int]] = []
    remaining = list(group)
    while len(remaining) > 1:
        leader = max(remaining, key=lambda i: worst_case[i])
        rivals_best = max(best_case[j] for j in remaining if j != leader)
        if worst_case[leader] <= rivals_best:
            break
        ranked.append([leader])
        remaining.remove(leader)
    if len(remaining) == 1:
        return [*ranked, remaining]
    if ranked:
        return [*ranked, *_rank(context, remaining, met)]
    return [remaining]
