"""Registry of tie-breaks (FIDE C.07), each a small class.

Every tie-break has a ``key`` (stable identifier), a ``name``, the ``abbreviation`` FIDE
uses, a ``direction`` ("desc": more is better, "asc": less is better) and a
``compute(context)`` that returns one value per entrant, in record order.
Direct Encounter depends on who is tied, so it is ``contextual``: the ranking calls
its ``split`` on each tied group instead (see ``direct_encounter.py``).

"First move" plays the part of white: FIDE's "games with Black" (BPG) are the games
played moving second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

from games.i18n import N_
from tournaments.standings.context import NO_OPPONENT, Context
from tournaments.standings.rating import average_rating, performance_rating
from tournaments.standings.record import StandingsError

Direction = Literal["desc", "asc"]
Value = float | int | None


class TieBreak:
    key: ClassVar[str]
    name: ClassVar[str]
    abbreviation: ClassVar[str]
    direction: ClassVar[Direction] = "desc"
    contextual: ClassVar[bool] = False

    def compute(self, context: Context) -> list[Value]:
        raise NotImplementedError

    @classmethod
    def describe(cls) -> dict[str, str]:
        return {
            "key": cls.key,
            "name": cls.name,
            "abbreviation": cls.abbreviation,
            "direction": cls.direction,
        }


REGISTRY: dict[str, type[TieBreak]] = {}


def register(cls: type[TieBreak]) -> type[TieBreak]:
    REGISTRY[cls.key] = cls
    return cls


def get_tiebreak(name: str) -> TieBreak:
    """A tie-break by key ("buchholz_cut1") or FIDE abbreviation ("BH-C1")."""
    if name in REGISTRY:
        return REGISTRY[name]()
    for cls in REGISTRY.values():
        if cls.abbreviation.lower() == str(name).lower():
            return cls()
    known = ", ".join(f"{c.key} ({c.abbreviation})" for c in REGISTRY.values())
    raise StandingsError(f"unknown tie-break {name!r}; known: {known}")


def available_tiebreaks() -> list[dict[str, str]]:
    return [cls.describe() for cls in REGISTRY.values()]


# -- cut modifiers (articles 14 and 16.5) ------------------------------------------------

# An element: (contribution, significance, is_vur). The least significant element has
# the lowest significance, then the lowest contribution.
Element = tuple[float, float, bool]


def _significance(element: Element) -> tuple[float, float]:
    return (element[1], element[0])


def _cut_least(elements: list[Element], rules: str, significance_differs: bool) -> None:
    if not elements:
        return
    least = min(range(len(elements)), key=lambda k: (elements[k][1], elements[k][0]))
    vurs = [k for k, element in enumerate(elements) if element[2]]
    cut = least
    if vurs:
        lowest_vur = min(vurs, key=lambda k: elements[k][0])
        if rules == "2024" or not significance_differs:
            cut = lowest_vur
        elif elements[lowest_vur][0] >= elements[least][0]:
            cut = lowest_vur  # 16.5.1 (2026): the higher of the two contributions
    del elements[cut]


def _cut_most(elements: list[Element]) -> None:
    if elements:
        del elements[max(range(len(elements)), key=lambda k: (elements[k][1], elements[k][0]))]


def apply_modifier(
    elements: list[Element], lows: int, highs: int, rules: str, significance_differs: bool
) -> float:
    """Sum of contributions after cutting ``lows`` least and ``highs`` most significant."""
    if not any(element[2] for element in elements):
        # no VUR: cutting is taking the least and most significant off a sorted list
        ordered = sorted(elements, key=_significance)
        return sum(element[0] for element in ordered[lows : max(lows, len(ordered) - highs)])
    remaining = list(elements)
    for _ in range(lows):
        _cut_least(remaining, rules, significance_differs)
    for _ in range(highs):
        _cut_most(remaining)
    return sum(element[0] for element in remaining)


# -- Buchholz family (article 8) ---------------------------------------------------------


class _BuchholzBase(TieBreak):
    lows: ClassVar[int] = 0
    highs: ClassVar[int] = 0

    def compute(self, context: Context) -> list[Value]:
        rules = context.options.rules
        values: list[Value] = []
        for own in context.opponent_elements():
            elements = [(score, score, vur) for score, vur, _ in own]
            values.append(apply_modifier(elements, self.lows, self.highs, rules, False))
        return values


@register
class Buchholz(_BuchholzBase):
    key = "buchholz"
    name = N_("Buchholz")
    abbreviation = "BH"


@register
class BuchholzCut1(_BuchholzBase):
    key = "buchholz_cut1"
    name = N_("Buchholz Cut-1")
    abbreviation = "BH-C1"
    lows = 1


@register
class BuchholzCut2(_BuchholzBase):
    key = "buchholz_cut2"
    name = N_("Buchholz Cut-2")
    abbreviation = "BH-C2"
    lows = 2


@register
class BuchholzMedian1(_BuchholzBase):
    key = "buchholz_median1"
    name = N_("Median Buchholz")
    abbreviation = "BH-M1"
    lows = 1
    highs = 1


@register
class BuchholzMedian2(_BuchholzBase):
    key = "buchholz_median2"
    name = N_("Median Buchholz 2")
    abbreviation = "BH-M2"
    lows = 2
    highs = 2


# -- Sonneborn-Berger (article 9.1) ------------------------------------------------------


class _SonnebornBergerBase(TieBreak):
    lows: ClassVar[int] = 0

    def compute(self, context: Context) -> list[Value]:
        rules = context.options.rules
        values: list[Value] = []
        for i, own in enumerate(context.opponent_elements()):
            points = context.tb_points[i]
            elements = [(score * points[r], score, vur) for score, vur, r in own]
            values.append(apply_modifier(elements, self.lows, 0, rules, True))
        return values


@register
class SonnebornBerger(_SonnebornBergerBase):
    key = "sonneborn_berger"
    name = N_("Sonneborn-Berger")
    abbreviation = "SB"


@register
class SonnebornBergerCut1(_SonnebornBergerBase):
    key = "sonneborn_berger_cut1"
    name = N_("Sonneborn-Berger Cut-1")
    abbreviation = "SB-C1"
    lows = 1


# -- Direct Encounter (article 6) --------------------------------------------------------


@register
class DirectEncounter(TieBreak):
    """Ranks a tied group by the points scored among its members (see direct_encounter)."""

    key = "direct_encounter"
    name = N_("Direct Encounter")
    abbreviation = "DE"
    contextual = True

    def compute(self, context: Context) -> list[Value]:
        return [None] * context.size

    def split(self, context: Context, group: Sequence[int]) -> tuple[list[list[int]],
                                                                     dict[Any, Any]]:
        from tournaments.standings.direct_encounter import split_group

        return split_group(context, group)


# -- counts ("type B", article 7) --------------------------------------------------------


def _count(predicate: Callable[[Context, int, int], bool]) -> Callable[..., list[Value]]:
    def compute(self: TieBreak, context: Context) -> list[Value]:
        return [
            sum(1 for r in range(context.rounds) if predicate(context, i, r))
            for i in range(context.size)
        ]

    return compute


@register
class Wins(TieBreak):
    """Rounds with a win's worth of points, played or not (7.1)."""

    key = "wins"
    name = N_("Number of wins")
    abbreviation = "WIN"
    compute = _count(lambda c, i, r: c.points[i][r] >= c.record.scoring.win)


@register
class WinsPlayed(TieBreak):
    """Games won over the board (7.2); in a round robin forfeit wins count too (15.2)."""

    key = "wins_played"
    name = N_("Number of games won")
    abbreviation = "WON"
    compute = _count(lambda c, i, r: c.counts_as_game(i, r) and c.entries[i][r].result == "win")


@register
class GamesSecondMove(TieBreak):
    """Games played moving second, FIDE's "games with Black" (7.3)."""

    key = "games_second_move"
    name = N_("Games played moving second")
    abbreviation = "BPG"
    compute = _count(lambda c, i, r: c.counts_as_game(i, r) and c.entries[i][r].first_move is False)


@register
class WinsSecondMove(TieBreak):
    """Games won moving second, FIDE's "wins with Black" (7.4)."""

    key = "wins_second_move"
    name = N_("Games won moving second")
    abbreviation = "BWG"
    compute = _count(
        lambda c, i, r: (
            c.counts_as_game(i, r)
            and c.entries[i][r].first_move is False
            and c.entries[i][r].result == "win"
        )
    )


@register
class GamesFirstMove(TieBreak):
    """Games played with the first move; fewer ranks higher (the mirror of BPG)."""

    key = "games_first_move"
    name = N_("Games played with the first move")
    abbreviation = "FMG"
    direction = "asc"
    compute = _count(lambda c, i, r: c.counts_as_game(i, r) and c.entries[i][r].first_move is True)


# -- Koya (article 9.2), progressive score (7.5) ----------------------------------------------


@register
class Koya(TieBreak):
    """Points scored against opponents with at least half the maximum possible score."""

    key = "koya"
    name = N_("Koya system")
    abbreviation = "KS"

    def compute(self, context: Context) -> list[Value]:
        if context.swiss:
            games = context.total_rounds
        else:
            games = max(
                (sum(1 for o in opponents if o != NO_OPPONENT) for opponents in context.opponents),
                default=0,
            )
        threshold = context.tb_win * games / 2
        values: list[Value] = []
        for i in range(context.size):
            total = 0.0
            for r, opponent in enumerate(context.opponents[i]):
                if opponent == NO_OPPONENT or (context.swiss and not context.entries[i][r].played):
                    continue
                if context.tb_score[opponent] >= threshold:
                    total += context.tb_points[i][r]
            values.append(total)
        return values


@register
class ProgressiveScore(TieBreak):
    """Sum of the running scores after each round (7.5)."""

    key = "progressive"
    name = N_("Progressive score")
    abbreviation = "PS"

    def compute(self, context: Context) -> list[Value]:
        values: list[Value] = []
        for points in context.points:
            running = total = 0.0
            for value in points:
                running += value
                total += running
            values.append(total)
        return values


# -- ratings (article 10; forfeits never count, 15.2) ---------------------------------------


def _rated_games(context: Context, i: int) -> list[tuple[int, str]]:
    games: list[tuple[int, str]] = []
    for r, entry in enumerate(context.entries[i]):
        if entry.played:
            rating = context.ratings[context.opponents[i][r]]
            if rating is not None:
                games.append((rating, entry.result))
    return games


@register
class AverageRatingOfOpponents(TieBreak):
    """Average rating of the rated opponents met over the board, halves rounded up."""

    key = "aro"
    name = N_("Average rating of opponents")
    abbreviation = "ARO"

    def compute(self, context: Context) -> list[Value]:
        return [
            average_rating([rating for rating, _ in _rated_games(context, i)])
            for i in range(context.size)
        ]


@register
class TournamentPerformanceRating(TieBreak):
    """ARO plus dp of the fractional score over the board (FIDE table 8.1.1)."""

    key = "tpr"
    name = N_("Tournament performance rating")
    abbreviation = "TPR"

    def compute(self, context: Context) -> list[Value]:
        game_points = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        values: list[Value] = []
        for i in range(context.size):
            games = _rated_games(context, i)
            aro = average_rating([rating for rating, _ in games])
            scored = sum(game_points[result] for _, result in games)
            values.append(performance_rating(aro, scored, len(games)))
        return values
