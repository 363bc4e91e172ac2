"""Crosstable (round robin) and round-by-round table (Swiss), as plain data.

Result symbols, from the entrant's side: ``1`` win, ``½`` draw, ``0`` loss, ``+`` forfeit
win, ``-`` forfeit loss; byes: ``B`` pairing-allocated bye, ``F`` full-point bye,
``H`` half-point bye, ``Z`` zero-point bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.standings.ranking import StandingRow
from tournaments.standings.record import RoundEntry, TournamentRecord

_GAME_SYMBOLS = {"win": "1", "draw": "½", "loss": "0"}
_OTHER_SYMBOLS = {
    "forfeit_win": "+",
    "forfeit_loss": "-",
    "pairing_bye": "B",
    "full_bye": "F",
    "half_bye": "H",
    "zero_bye": "Z",
}


def result_symbol(entry: RoundEntry) -> str:
    if entry.kind == "played":
        return _GAME_SYMBOLS[entry.result]
    return _OTHER_SYMBOLS[entry.kind]


def _order(record: TournamentRecord, standings: Sequence[StandingRow] | None) -> list[int]:
    if standings is None:
        return list(range(len(record.entrants)))
    position = {entrant.id: i for i, entrant in enumerate(record.entrants)}
    return [position[row.entrant] for row in standings]


def crosstable(
    record: TournamentRecord, standings: Sequence[StandingRow] | None = None
) -> dict[str, Any]:
    """Entrant x entrant table; each cell lists the games between the two, by round.

    Rows and columns follow ``standings`` when given, else record order. A cell is
    None on the diagonal and for pairs that have not met; otherwise a list of
    ``{"round", "result", "points", "first_move"}`` (two items in a double round robin).
    """
    order = _order(record, standings)
    column = {record.entrants[i].id: c for c, i in enumerate(order)}
    ranks = {row.entrant: row.rank for row in standings} if standings else {}
    rows = []
    for i in order:
        entrant = record.entrants[i]
        cells: list[list[dict[str, Any]] | None] = [None] * len(order)
        byes = []
        for number, entry in enumerate(entrant.rounds, start=1):
            item = {
                "round": number,
                "result": result_symbol(entry),
                "points": record.points(entry),
                "first_move": entry.first_move,
            }
            if entry.opponent is None:
                byes.append(item)
                continue
            c = column[entry.opponent]
            cell = cells[c]
            if cell is None:
                cell = cells[c] = []
            cell.append(item)
        rows.append(
            {
                "entrant": entrant.id,
                "rank": ranks.get(entrant.id),
                "points": sum(record.points(entry) for entry in entrant.rounds),
                "cells": cells,
                "byes": byes,
            }
        )
    return {"entrants": [record.entrants[i].id for i in order], "rows": rows}


def round_by_round(
    record: TournamentRecord, standings: Sequence[StandingRow] | None = None
) -> list[dict[str, Any]]:
    """Per entrant, per round: opponent, first move, result, points and running score."""
    ranks = {row.entrant: row.rank for row in standings} if standings else {}
    table = []
    for i in _order(record, standings):
        entrant = record.entrants[i]
        running = 0.0
        rounds = []
        for number, entry in enumerate(entrant.rounds, start=1):
            points = record.points(entry)
            running += points
            rounds.append(
                {
                    "round": number,
                    "opponent": entry.opponent,
                    "opponent_rank": ranks.get(entry.opponent) if entry.opponent else None,
                    "first_move": entry.first_move,
                    "result": result_symbol(entry),
                    "kind": entry.kind,
                    "points": points,
                    "running": running,
                }
            )
        table.append(
            {
                "entrant": entrant.id,
                "rank": ranks.get(entrant.id),
                "rating": entrant.rating,
                "points": running,
                "rounds": rounds,
            }
        )
    return table
