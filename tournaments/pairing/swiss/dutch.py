"""Pair one Swiss round by the FIDE Dutch system as one weighted matching."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import networkx as nx

from tournaments.pairing.swiss.model import (
    WHITE,
    Colour,
    PairingError,
    SwissPlayer,
    SwissRound,
)
from tournaments.pairing.swiss.state import PlayerState, Strength, allocate_colours, build_states
from tournaments.pairing.swiss.weights import WeightBuilder

BYE_NODE = 0


def pair_round(
    players: Sequence[SwissPlayer],
    round_number: int,
    total_rounds: int,
    *,
    forbidden: Collection[frozenset[int]] = frozenset(),
    win_points: int = 2,
    initial_colour: Colour = WHITE,
) -> SwissRound:
    """Pair round ``round_number`` of ``total_rounds``.

    ``players`` holds every entrant (absent ones too: their past games matter
    for the others' floats); each history must cover rounds 1..round_number-1.
    ``forbidden`` lists pairs that must not meet (besides earlier opponents).
    ``win_points`` is the value of a win in the caller's score unit;
    ``initial_colour`` is the colour of the top seed in round 1 (E.5).
    """
    _validate(players, round_number, total_rounds, win_points, initial_colour)
    active = [player for player in players if not player.absent]
    if not active:
        return SwissRound(pairs=(), bye=None)
    states = build_states(players, active, round_number, total_rounds, win_points)
    group_scores = sorted({player.score for player in active}, reverse=True)
    builder = WeightBuilder(states, group_scores, win_points, initial_colour)
    graph = _build_graph(states, builder, forbidden)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs, bye = _read_matching(matching, states)
    ordered = sorted(pairs, key=lambda pair: _board_key(pair, states))
    boards = tuple(allocate_colours(first, second, initial_colour) for first, second in ordered)
    return SwissRound(pairs=boards, bye=bye.number if bye else None)


def _validate(
    players: Sequence[SwissPlayer],
    round_number: int,
    total_rounds: int,
    win_points: int,
    initial_colour: str,
) -> None:
    if round_number < 1 or total_rounds < round_number:
        raise PairingError(
            f"round {round_number} cannot be paired in a tournament of {total_rounds} rounds"
        )
    if win_points < 1:
        raise PairingError("a win must be worth at least one score unit")
    if initial_colour not in ("W", "B"):
        raise PairingError(f"initial colour must be 'W' or 'B', not {initial_colour!r}")
    numbers = [player.number for player in players]
    if len(set(numbers)) != len(numbers):
        raise PairingError("two players share a pairing number")
    for player in players:
        if player.number < 1:
            raise PairingError(f"pairing number {player.number} is not positive")
        if len(player.history) != round_number - 1:
            raise PairingError(
                f"player {player.number} has {len(player.history)} rounds of history; "
                f"round {round_number} needs {round_number - 1}"
            )


def _build_graph(
    states: dict[int, PlayerState],
    builder: WeightBuilder,
    forbidden: Collection[frozenset[int]],
) -> nx.Graph:
    ordered = sorted(states.values(), key=lambda state: state.rank)
    edges: list[tuple[int, int]] = []
    costs = []
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            if _compatible(first, second, forbidden):
                edges.append((first.number, second.number))
                costs.append(builder.pair_costs(first, second))
    if len(ordered) % 2 == 1:
        for state in ordered:
            if state.bye_eligible:
                edges.append((state.number, BYE_NODE))
                costs.append(builder.bye_costs(state))
    graph = nx.Graph()
    graph.add_nodes_from(state.number for state in ordered)
    if len(ordered) % 2 == 1:
        graph.add_node(BYE_NODE)
    for (first_number, second_number), weight in zip(edges, builder.weights(costs), strict=True):
        graph.add_edge(first_number, second_number, weight=weight)
    return graph


def _compatible(
    first: PlayerState, second: PlayerState, forbidden: Collection[frozenset[int]]
) -> bool:
    # C1: no second meeting; organiser's forbidden pairs.
    if second.number in first.opponents or first.number in second.opponents:
        return False
    if frozenset((first.number, second.number)) in forbidden:
        return False
    # C3: non-topscorers with the same absolute colour preference do not meet.
    return not (
        first.strength == Strength.ABSOLUTE
        and second.strength == Strength.ABSOLUTE
        and first.preference == second.preference
        and not (first.topscorer or second.topscorer)
    )


def _read_matching(
    matching: set[tuple[int, int]], states: dict[int, PlayerState]
) -> tuple[list[tuple[PlayerState, PlayerState]], PlayerState | None]:
    pairs: list[tuple[PlayerState, PlayerState]] = []
    bye: PlayerState | None = None
    covered: set[int] = set()
    for first, second in matching:
        covered.update((first, second))
        if BYE_NODE in (first, second):
            bye = states[second if first == BYE_NODE else first]
        else:
            pairs.append((states[first], states[second]))
    unpaired = sorted(number for number in states if number not in covered)
    if unpaired:
        names = ", ".join(str(number) for number in unpaired)
        reason = (
            "every candidate for the bye already had one or scored a win without playing"
            if len(states) % 2 == 1 and bye is None
            else "they have met, are forbidden, or have clashing absolute colour preferences"
        )
        raise PairingError(
            f"no legal pairing exists for the round: players {names} cannot all be paired "
            f"({reason})"
        )
    return pairs, bye


def _board_key(
    pair: tuple[PlayerState, PlayerState], states: dict[int, PlayerState]
) -> tuple[int, int, int]:
    """Boards: higher score of the pair, then sum of scores, then rank of the higher player."""
    first, second = pair
    higher_score = max(first.score, second.score)
    return (-higher_score, -(first.score + second.score), min(first.rank, second.rank))
