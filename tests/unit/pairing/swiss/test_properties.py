"""Seeded random tournaments: the Dutch absolute rules hold in every round."""

import random
from collections.abc import Iterator

import pytest

from tournaments.pairing.swiss import PairingError, SwissPlayer, SwissRound, pair_round
from tournaments.pairing.swiss.simulate import SimulatedTournament, play_round

WIN = 2


def run(size: int, rounds: int, seed: int) -> Iterator[tuple[list[SwissPlayer], SwissRound, int]]:
    rng = random.Random(seed)
    tournament = SimulatedTournament(size, rounds)
    seen: list[list[SwissPlayer]] = []

    def pair(players: list[SwissPlayer], number: int, total: int) -> SwissRound:
        seen.append(players)
        return pair_round(players, number, total)

    for round_number in range(1, rounds + 1):
        pairing = play_round(tournament, rng, absence_rate=0.05, forfeit_rate=0.02, pair=pair)
        yield seen[-1], pairing, round_number


def check_round(players: list[SwissPlayer], pairing: SwissRound, final: bool) -> None:
    by_number = {player.number: player for player in players}
    active = {player.number for player in players if not player.absent}
    seated = [number for pair in pairing.pairs for number in pair]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(active)
    if pairing.bye is not None:
        history = by_number[pairing.bye].history
        assert not any(record.pairing_allocated_bye for record in history)
        assert not any(not record.played and record.points >= WIN for record in history)
    max_score = (len(players[0].history)) * WIN
    for white, black in pairing.pairs:
        met = {r.opponent for r in by_number[white].history if r.played}
        assert black not in met, f"{white} and {black} meet twice"
        for number, colour in ((white, "W"), (black, "B")):
            player = by_number[number]
            colours = [r.colour for r in player.history if r.played] + [colour]
            topscorer = final and 2 * player.score > max_score
            difference = colours.count("W") - colours.count("B")
            three = len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3]
            if not topscorer and not _faces_topscorer(by_number, white, black, max_score, final):
                assert abs(difference) <= 2, f"player {number} colours {colours}"
                assert not three, f"player {number} colours {colours}"


def _faces_topscorer(
    by_number: dict[int, SwissPlayer], white: int, black: int, max_score: int, final: bool
) -> bool:
    return final and any(2 * by_number[n].score > max_score for n in (white, black))


@pytest.mark.parametrize(
    ("size", "rounds", "seed"),
    [(7, 5, 1), (8, 6, 2), (9, 7, 3), (12, 7, 4), (15, 9, 5), (23, 11, 6), (40, 9, 7), (64, 7, 8)],
)
def test_random_tournaments_respect_the_absolute_criteria(
    size: int, rounds: int, seed: int
) -> None:
    for players, pairing, round_number in run(size, rounds, seed):
        check_round(players, pairing, final=round_number == rounds)


def test_one_hundred_entrants_five_rounds() -> None:
    for players, pairing, round_number in run(100, 5, 99):
        check_round(players, pairing, final=round_number == 5)


# -- minimal downfloaters, against brute force ---------------------------------


def _matchings(nodes: list[int], allowed: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in allowed:
            for tail in _matchings(rest[:index] + rest[index + 1 :], allowed):
                yield [(first, other), *tail]


def _bracket_key(
    pairs: list[tuple[int, int]], scores: dict[int, int], depth: int
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(downfloaters, sorted score differences) of the first ``depth`` brackets."""
    groups = sorted(set(scores.values()), reverse=True)
    key = []
    for bracket in groups[:depth]:
        floaters = 0
        differences: list[int] = []
        for a, b in pairs:
            high, low = max(scores[a], scores[b]), min(scores[a], scores[b])
            if high >= bracket > low:
                floaters += 1
                differences.append(high - bracket + WIN)
            elif low == bracket:
                differences.append(high - low)
        key.append((floaters, tuple(sorted(differences, reverse=True))))
    return tuple(key)


@pytest.mark.parametrize("seed", range(12))
def test_downfloaters_are_as_few_as_brute_force_finds(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(7, 11)
    rounds = rng.randint(4, 6)
    tournament = SimulatedTournament(size, rounds + 2)  # not the final round: C3 holds for all
    for _ in range(rounds):
        try:
            play_round(tournament, rng)
        except PairingError:
            nodes, allowed = _graph(tournament.players())
            assert not any(_c3_ok(m, tournament.players()) for m in _matchings(nodes, allowed))
            return
    players = tournament.players()
    try:
        pairing = pair_round(players, rounds + 1, rounds + 2)
    except PairingError:
        nodes, allowed = _graph(players)
        assert not any(_c3_ok(m, players) for m in _matchings(nodes, allowed))
        return
    scores = {p.number: p.score for p in players}
    bye_scores = dict(scores)
    bye_scores[0] = min(scores.values()) - WIN
    nodes, allowed = _graph(players)
    # colour rule C3 is absolute too: keep only the pairs the engine could use
    ours = [*pairing.pairs, *([(pairing.bye, 0)] if pairing.bye else [])]
    best = min(
        (_bracket_key(m, bye_scores, 2) for m in _matchings(nodes, allowed) if _c3_ok(m, players)),
    )
    assert _bracket_key(ours, bye_scores, 2) == best


def _graph(players: list[SwissPlayer]) -> tuple[list[int], set[frozenset[int]]]:
    nodes = sorted(p.number for p in players)
    allowed: set[frozenset[int]] = set()
    for a in nodes:
        met = {r.opponent for r in players[a - 1].history if r.played}
        for b in nodes:
            if a < b and b not in met:
                allowed.add(frozenset((a, b)))
    if len(nodes) % 2:
        nodes.append(0)
        for p in players:
            unplayed_win = any(not r.played and r.points >= WIN for r in p.history)
            if not unplayed_win:
                allowed.add(frozenset((p.number, 0)))
    return nodes, allowed


def _c3_ok(pairs: list[tuple[int, int]], players: list[SwissPlayer]) -> bool:
    from tournaments.pairing.swiss.state import colour_data

    for a, b in pairs:
        if 0 in (a, b):
            continue
        prefs = []
        for n in (a, b):
            colours = [r.colour for r in players[n - 1].history if r.played and r.colour]
            imbalance, preference, repeated, _ = colour_data(colours)  # type: ignore[arg-type]
            prefs.append((preference, imbalance > 1 or repeated is not None))
        (ca, absolute_a), (cb, absolute_b) = prefs
        if absolute_a and absolute_b and ca == cb:
            return False
    return True
