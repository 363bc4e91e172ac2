"""Random Swiss tournaments for tests and benchmarks (scores in half-points)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tournaments.pairing.swiss.dutch import pair_round
from tournaments.pairing.swiss.model import RoundRecord, SwissPlayer, SwissRound

WIN, DRAW, LOSS = 2, 1, 0


@dataclass
class SimulatedTournament:
    size: int
    total_rounds: int
    histories: dict[int, list[RoundRecord]] = field(default_factory=dict)
    rounds: list[SwissRound] = field(default_factory=list)

    def __post_init__(self) -> None:
        for number in range(1, self.size + 1):
            self.histories.setdefault(number, [])

    def players(self, absent: frozenset[int] = frozenset()) -> list[SwissPlayer]:
        return [
            SwissPlayer(
                number=number,
                score=sum(record.points for record in history),
                history=tuple(history),
                absent=number in absent,
            )
            for number, history in self.histories.items()
        ]


def play_round(
    tournament: SimulatedTournament,
    rng: random.Random,
    *,
    absence_rate: float = 0.0,
    forfeit_rate: float = 0.0,
    pair: Callable[..., SwissRound] = pair_round,
) -> SwissRound:
    """Pair the next round, then fill in random results."""
    round_number = len(tournament.rounds) + 1
    absent = frozenset(number for number in tournament.histories if rng.random() < absence_rate)
    players = tournament.players(absent)
    pairing = pair(players, round_number, tournament.total_rounds)
    strength = {number: -number for number in tournament.histories}
    for white, black in pairing.pairs:
        if rng.random() < forfeit_rate:
            tournament.histories[white].append(RoundRecord(black, "W", False, WIN))
            tournament.histories[black].append(RoundRecord(white, "B", False, LOSS))
            continue
        edge = (strength[white] - strength[black]) / 40
        draw = rng.random()
        if draw < 0.2:
            white_points = DRAW
        elif draw < 0.6 + edge:
            white_points = WIN
        else:
            white_points = LOSS
        tournament.histories[white].append(RoundRecord(black, "W", True, white_points))
        tournament.histories[black].append(RoundRecord(white, "B", True, WIN - white_points))
    if pairing.bye is not None:
        tournament.histories[pairing.bye].append(
            RoundRecord(None, None, False, WIN, pairing_allocated_bye=True)
        )
    for number in absent:
        points = DRAW if rng.random() < 0.5 else LOSS
        tournament.histories[number].append(RoundRecord(None, None, False, points))
    tournament.rounds.append(pairing)
    return pairing
