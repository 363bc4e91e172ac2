"""Edge weights that rank whole-round pairings by the Dutch criteria, in priority order.

Every criterion becomes a *field*: a non-negative cost that adds up over the
pairs of a round. Fields are laid out in one big integer, most important field
in the most significant bits, each wide enough to hold its largest possible
total, so that a maximum-weight matching minimises the fields lexicographically.

A pair belongs to the bracket of its lower-scored player (that is where the
Dutch procedure forms it); a player paired below their own score group is a
downfloater of every bracket they pass through. The bye is a pair with a
virtual player below the last score group. For bracket ``i`` the fields are,
in this order of priority (C.04.3, 2025 numbering where it differs from 2017):

* ``D i``   number of downfloaters (C5, maximise the pairs in the bracket)
* ``PSD i`` pairing score difference (C6), compared as sorted lists
* then, after the ``D``/``PSD`` of the next bracket (C7/C8), the quality of
  the bracket: bye assignee's unplayed rounds (C9), topscorers' colour
  difference and three-in-a-row (C10, C11), colour preferences (C12, C13),
  repeated floats (C14-C17) and their score differences (C18-C21),
* ``O i``   the order in which the Dutch procedure meets candidates: S1 against
  S2 top half against bottom half, a downfloater as low as possible.

The real procedure fixes each bracket before it looks at the next one; the
single matching ranks the criteria of later brackets below those of earlier
ones in the same way, so both agree except where the Dutch procedure would
break a tie on a bracket's quality by candidate order while a later bracket's
pair count differs.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing.swiss.model import BLACK, WHITE, Colour
from tournaments.pairing.swiss.state import Float, PlayerState, Strength, allocate_colours

QUALITY_FIELDS = (
    "bye_unplayed",
    "top_colour_difference",
    "top_three_in_a_row",
    "colour_preference",
    "strong_colour_preference",
    "repeat_downfloat_last",
    "repeat_upfloat_last",
    "repeat_downfloat_before_last",
    "repeat_upfloat_before_last",
    "repeat_downfloat_last_difference",
    "repeat_upfloat_last_difference",
    "repeat_downfloat_before_last_difference",
    "repeat_upfloat_before_last_difference",
)

Field = tuple[str, int] | tuple[str, int, str] | tuple[str, int, int]
Costs = list[tuple[Field, int]]


@dataclass(slots=True)
class Layout:
    shifts: dict[Field, int]
    total_bits: int


class WeightBuilder:
    """Turns the pairs of one round into lexicographic integer weights."""

    def __init__(
        self,
        states: dict[int, PlayerState],
        group_scores: list[int],
        win_points: int,
        initial_colour: Colour,
    ) -> None:
        self.states = states
        self.group_scores = group_scores
        self.win_points = win_points
        self.initial_colour = initial_colour
        self.group_sizes = [0] * len(group_scores)
        for state in states.values():
            self.group_sizes[state.group] += 1
        self.player_count = len(states)

    # -- layout -------------------------------------------------------------

    def _field_widths(self) -> list[tuple[Field, int]]:
        """Every field in priority order (most important first) with its width in bits."""
        groups = len(self.group_scores)
        n = self.player_count + 2
        count_bits = n.bit_length() + 1
        max_difference = (self.group_scores[0] - self.group_scores[-1]) + self.win_points
        difference_bits = (n * (max_difference + 1)).bit_length() + 1
        widths: list[tuple[Field, int]] = []

        def quality(bracket: int) -> None:
            for name in QUALITY_FIELDS:
                bits = difference_bits if name.endswith("difference") else count_bits
                widths.append((("Q", bracket, name), bits))
            size = max(self.group_sizes[bracket], 1)
            widths.append((("O", bracket), (n * (2 * size * size + n)).bit_length() + 1))

        for bracket in range(groups):
            widths.append((("D", bracket), count_bits))
            # PSD: one count per score difference, the largest difference first, so
            # the sums compare like the sorted lists of differences (C6).
            values: set[int] = set()
            for upper in range(bracket + 1):
                gap = self.group_scores[upper] - self.group_scores[bracket]
                values.update((gap, gap + self.win_points))
            for value in sorted(values, reverse=True):
                widths.append((("PSD", bracket, value), count_bits))
            if bracket >= 1:
                quality(bracket - 1)
        quality(groups - 1)
        return widths

    def layout(self, used: set[Field]) -> Layout:
        """Bit positions for the fields that some edge actually uses."""
        shifts: dict[Field, int] = {}
        offset = 0
        for field, bits in reversed(self._field_widths()):
            if field in used:
                shifts[field] = offset
                offset += bits
        return Layout(shifts=shifts, total_bits=offset)

    def weights(self, edge_costs: list[Costs]) -> list[int]:
        used = {field for costs in edge_costs for field, value in costs if value}
        layout = self.layout(used)
        top = 1 << layout.total_bits
        shifts = layout.shifts
        return [
            top - sum(value << shifts[field] for field, value in costs if value)
            for costs in edge_costs
        ]

    # -- costs --------------------------------------------------------------

    def pair_costs(self, first: PlayerState, second: PlayerState) -> Costs:
        upper, lower = (first, second) if first.rank < second.rank else (second, first)
        costs = self._float_costs(upper, lower.group, lower.score)
        bracket = lower.group
        difference = upper.score - lower.score
        self._add_psd(costs, bracket, difference)
        self._add_colour_costs(costs, upper, lower)
        if upper.group != lower.group:
            self._add_upfloat_costs(costs, lower, bracket, difference)
            order = lower.position * lower.position
        else:
            size = self.group_sizes[bracket]
            half = size // 2
            order = (lower.position - upper.position - half) ** 2
            if (upper.position < half) == (lower.position < half):
                order += size * size  # an exchange between S1 and S2 comes after transpositions
        costs.append((("O", bracket), order))
        return costs

    def bye_costs(self, player: PlayerState) -> Costs:
        groups = len(self.group_scores)
        last = groups - 1
        costs = self._float_costs(player, groups, self.group_scores[last] - self.win_points)
        costs.append((("Q", last, "bye_unplayed"), player.unplayed_rounds))
        costs.append((("O", last), self.player_count - 1 - player.rank))
        return costs

    def _float_costs(
        self, upper: PlayerState, lower_group: int, lower_score: int
    ) -> list[tuple[Field, int]]:
        """Costs of ``upper`` leaving every bracket from its own down to ``lower_group``."""
        costs: list[tuple[Field, int]] = []
        if lower_group == upper.group:
            return costs
        for bracket in range(upper.group, lower_group):
            costs.append((("D", bracket), 1))
            floor = self.group_scores[bracket] - self.win_points
            self._add_psd(costs, bracket, upper.score - floor)
        difference = upper.score - lower_score
        home = upper.group
        if upper.float_last == Float.DOWN:
            costs.append((("Q", home, "repeat_downfloat_last"), 1))
            costs.append((("Q", home, "repeat_downfloat_last_difference"), difference))
        if upper.float_before_last == Float.DOWN:
            costs.append((("Q", home, "repeat_downfloat_before_last"), 1))
            costs.append((("Q", home, "repeat_downfloat_before_last_difference"), difference))
        return costs

    def _add_upfloat_costs(
        self, costs: list[tuple[Field, int]], lower: PlayerState, bracket: int, difference: int
    ) -> None:
        if lower.float_last == Float.UP:
            costs.append((("Q", bracket, "repeat_upfloat_last"), 1))
            costs.append((("Q", bracket, "repeat_upfloat_last_difference"), difference))
        if lower.float_before_last == Float.UP:
            costs.append((("Q", bracket, "repeat_upfloat_before_last"), 1))
            costs.append((("Q", bracket, "repeat_upfloat_before_last_difference"), difference))

    def _add_psd(self, costs: list[tuple[Field, int]], bracket: int, value: int) -> None:
        costs.append((("PSD", bracket, value), 1))

    def _add_colour_costs(
        self, costs: list[tuple[Field, int]], upper: PlayerState, lower: PlayerState
    ) -> None:
        white, _ = allocate_colours(upper, lower, self.initial_colour)
        bracket = lower.group
        missed = strong_missed = wide = three = 0
        for state in (upper, lower):
            colour: Colour = WHITE if state.number == white else BLACK
            if state.preference is not None and state.preference != colour:
                missed += 1
                if state.strength >= Strength.STRONG:
                    strong_missed += 1
            if upper.topscorer or lower.topscorer:
                new_difference = state.colour_difference + (1 if colour == WHITE else -1)
                if abs(new_difference) > 2:
                    wide += 1
                if len(state.colours) >= 2 and state.colours[-1] == state.colours[-2] == colour:
                    three += 1
        costs.append((("Q", bracket, "top_colour_difference"), wide))
        costs.append((("Q", bracket, "top_three_in_a_row"), three))
        costs.append((("Q", bracket, "colour_preference"), missed))
        costs.append((("Q", bracket, "strong_colour_preference"), strong_missed))
