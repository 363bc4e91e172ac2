"""Crosstable and round-by-round table."""

from __future__ import annotations

import json

from tests.unit.standings.records import round_robin, swiss_six, swiss_unplayed
from tournaments.standings import compute_standings, crosstable, round_by_round


def test_crosstable_round_robin() -> None:
    record = round_robin(
        3, {(1, 2, 1): "+", (2, 3, 1): "=", (3, 1, 1): "1", (1, 2, 2): "0",
            (2, 3, 2): "1", (3, 1, 2): "="},
        double=True,
    )  # fmt: skip
    standings = compute_standings(record, ["SB"])
    table = crosstable(record, standings)
    json.dumps(table)
    assert table["entrants"] == [row.entrant for row in standings]
    rows = {row["entrant"]: row for row in table["rows"]}
    column = table["entrants"].index(2)
    cell = rows[1]["cells"][column]
    assert [(item["round"], item["result"], item["points"]) for item in cell] == [
        (3, "+", 1.0),  # the last two rounds of the first cycle are swapped
        (5, "0", 0.0),
    ]
    assert rows[1]["cells"][table["entrants"].index(1)] is None
    assert [item["result"] for item in rows[1]["byes"]] == ["Z", "Z"]
    assert rows[2]["points"] == 2.5 and rows[2]["rank"] == 1


def test_crosstable_without_standings_uses_record_order() -> None:
    table = crosstable(swiss_six())
    assert table["entrants"] == [1, 2, 3, 4, 5, 6]
    assert table["rows"][0]["rank"] is None


def test_round_by_round_swiss() -> None:
    record = swiss_unplayed()
    standings = compute_standings(record, ["BH"])
    table = round_by_round(record, standings)
    json.dumps(table)
    by_id = {row["entrant"]: row for row in table}
    a = by_id["A"]["rounds"]
    assert [(r["opponent"], r["result"], r["running"]) for r in a] == [
        ("B", "1", 1.0),
        ("C", "+", 2.0),
        ("E", "½", 2.5),
    ]
    assert a[0]["first_move"] is True and a[2]["first_move"] is False
    assert a[0]["opponent_rank"] == 5
    e = by_id["E"]["rounds"][0]
    assert (e["opponent"], e["result"], e["kind"], e["points"]) == (None, "B", "pairing_bye", 1.0)
    assert [r["result"] for r in by_id["C"]["rounds"]] == ["½", "-", "Z"]
    assert [row["entrant"] for row in table] == [row.entrant for row in standings]
