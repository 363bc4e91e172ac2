"""Small hand-made tournaments for the standings tests, written compactly.

Each entrant: ``id: (rating, [round, ...])``; a round is ``(colour, opponent, code)``
with colour "w" (first move), "b" or None, and code "1" win, "=" draw, "0" loss,
"+" forfeit win, "-" forfeit loss; a bye is ``(None, None, code)`` with code "B"
(pairing-allocated), "F" (full point), "H" (half point), "Z" (zero point).
"""

from __future__ import annotations

from typing import Any

from tournaments.pairing.round_robin import BYE, berger_rounds
from tournaments.standings import TournamentRecord

_CODES: dict[str, dict[str, Any]] = {
    "1": {"result": "win"},
    "=": {"result": "draw"},
    "0": {"result": "loss"},
    "+": {"kind": "forfeit_win"},
    "-": {"kind": "forfeit_loss"},
    "B": {"kind": "pairing_bye"},
    "F": {"kind": "full_bye"},
    "H": {"kind": "half_bye"},
    "Z": {"kind": "zero_bye"},
}


def build(
    table: dict[Any, tuple[int | None, list[tuple[str | None, Any, str]]]],
    system: str = "swiss",
    scoring: dict[str, float] | None = None,
    rounds: int | None = None,
) -> TournamentRecord:
    entrants = []
    for entrant_id, (rating, games) in table.items():
        entries = []
        for colour, opponent, code in games:
            entry: dict[str, Any] = dict(_CODES[code])
            if opponent is not None:
                entry["opponent"] = opponent
            if colour is not None:
                entry["first_move"] = colour == "w"
            entries.append(entry)
        entrants.append({"id": entrant_id, "rating": rating, "rounds": entries})
    document: dict[str, Any] = {"system": system, "entrants": entrants}
    if scoring is not None:
        document["scoring"] = scoring
    if rounds is not None:
        document["rounds"] = rounds
    return TournamentRecord.from_dict(document)


def swiss_six(scoring: dict[str, float] | None = None) -> TournamentRecord:
    """Six players, three rounds, every game played.

    R1: 1-4 1-0, 5-2 0-1, 3-6 draw;  R2: 2-1 draw, 4-3 1-0, 6-5 0-1;
    R3: 1-5 1-0, 3-2 0-1, 4-6 draw.  Scores: 1 and 2: 2.5, 4: 1.5, 5 and 6: 1, 3: 0.5.
    """
    return build(
        {
            1: (2000, [("w", 4, "1"), ("b", 2, "="), ("w", 5, "1")]),
            2: (1900, [("b", 5, "1"), ("w", 1, "="), ("b", 3, "1")]),
            3: (1800, [("w", 6, "="), ("b", 4, "0"), ("w", 2, "0")]),
            4: (1700, [("b", 1, "0"), ("w", 3, "1"), ("w", 6, "=")]),
            5: (1600, [("w", 2, "0"), ("b", 6, "1"), ("b", 1, "0")]),
            6: (1500, [("b", 3, "="), ("w", 5, "0"), ("b", 4, "=")]),
        },
        scoring=scoring,
    )


def swiss_unplayed() -> TournamentRecord:
    """Five players, three rounds, with every kind of unplayed round.

    R1: A-B 1-0, C-D draw, E pairing-allocated bye;
    R2: A wins by forfeit against C, B-E 0-1, D half-point bye (requested);
    R3: E-A draw, B-D 0-1, C zero-point bye (withdrawn).
    Scores: A 2.5, E 2.5, D 2, C 0.5, B 0.
    """
    return build(
        {
            "A": (None, [("w", "B", "1"), (None, "C", "+"), ("b", "E", "=")]),
            "B": (None, [("b", "A", "0"), ("w", "E", "0"), ("w", "D", "0")]),
            "C": (None, [("w", "D", "="), (None, "A", "-"), (None, None, "Z")]),
            "D": (None, [("b", "C", "="), (None, None, "H"), ("b", "B", "1")]),
            "E": (None, [(None, None, "B"), ("b", "B", "1"), ("w", "A", "=")]),
        }
    )


def round_robin(
    players: int,
    outcome: dict[tuple[int, int, int], str],
    double: bool = False,
    ratings: dict[int, int] | None = None,
) -> TournamentRecord:
    """A round robin on the Berger tables; ``outcome[(first, second, cycle)]`` is the
    code for the first-named entrant ("1", "=", "0", "+", "-"); byes score nothing."""
    mirror = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
    table: dict[Any, tuple[int | None, list[tuple[str | None, Any, str]]]] = {
        n: ((ratings or {}).get(n), []) for n in range(1, players + 1)
    }
    rounds = berger_rounds(players, double=double)
    per_cycle = len(rounds) // (2 if double else 1)
    for number, round_ in enumerate(rounds):
        cycle = number // per_cycle + 1
        for first, second in round_:
            if second == BYE:
                table[first][1].append((None, None, "Z"))
                continue
            code = outcome.get((first, second, cycle))
            if code is None:
                code = mirror[outcome[(second, first, cycle)]]
            table[first][1].append(("w", second, code))
            table[second][1].append(("b", first, mirror[code]))
    return build(table, system="round_robin", scoring={"zero_bye": 0})
