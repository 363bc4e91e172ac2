"""Entry lists uploaded by organizers: a CSV of names (with an optional rating and FIDE id)
or a TRF file's player lines. Pure Python: bytes in, rows or a clear error out.

Files may be UTF-8 (with or without a byte-order mark) or Windows-1252/Latin-1, which
spreadsheets and Swiss-Manager write. A CSV's first line may be a header naming the
columns ``name``, ``rating`` and ``fide_id`` (in any order, any case); without a header
the columns are name, then rating, then FIDE id. Every problem names its line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from games.i18n import N_
from tournaments.csv_cells import read_cell
from tournaments.marked import MarkedError

MAX_ROWS = 2000
MAX_NAME = 120
MAX_RATING = 4000


class EntryListError(MarkedError):
    """The file cannot be read as an entry list; the message names the line."""


@dataclass(frozen=True, slots=True)
class EntryRow:
    line: int
    name: str
    rating: int | None = None
    fide_id: str = ""


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (a byte-order mark dropped), else Windows-1252,
    else Latin-1 (the TRF reader's own decoding, used for every upload)."""
    from tournaments.trf import decode_trf

    return decode_trf(data)


def is_trf(text: str) -> bool:
    """True when the text holds TRF player lines (``001``)."""
    return any(line.startswith("001") for line in text.splitlines())


def read_entry_list(text: str) -> list[EntryRow]:
    """The rows of a CSV entry list (see the module's docstring); TRF text is read by
    :func:`tournaments.trf.read_trf` instead."""
    if "\x00" in text:
        raise EntryListError(N_("the file holds NUL characters: is it a spreadsheet, not CSV?"))
    lines = text.splitlines()
    sample = "\n".join(lines[:5])
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, ",;\t")
    except csv.Error:
        dialect = csv.excel
    records = list(csv.reader(io.StringIO(text), dialect))
    columns = {"name": 0, "rating": 1, "fide_id": 2}
    start = 0
    if records:
        header = [cell.strip().lower().replace(" ", "_") for cell in records[0]]
        if "name" in header:
            columns = {key: header.index(key) for key in ("name", "rating", "fide_id")
                       if key in header}
            start = 1
    rows: list[EntryRow] = []
    seen: dict[str, int] = {}
    for number, record in enumerate(records[start:], start=start + 1):
        if not any(cell.strip() for cell in record):
            continue
        rows.append(_row(record, columns, number, seen))
        if len(rows) > MAX_ROWS:
            raise EntryListError(N_("more than %(limit)d entries"), limit=MAX_ROWS)
    if not rows:
        raise EntryListError(N_("the file lists nobody"))
    return rows


def _cell(record: list[str], index: int | None) -> str:
    return read_cell(record[index]).strip() if index is not None and index < len(record) else ""


def _row(record: list[str], columns: dict[str, int], number: int,
         seen: dict[str, int]) -> EntryRow:
    name = " ".join(_cell(record, columns.get("name")).split())
    if not name:
        raise EntryListError(N_("line %(line)d: the name is empty"), line=number)
    if len(name) > MAX_NAME:
        raise EntryListError(N_("line %(line)d: the name is longer than %(limit)d characters"),
                             line=number, limit=MAX_NAME)
    if any(not char.isprintable() for char in name):
        raise EntryListError(N_("line %(line)d: the name holds a control character"),
                             line=number)
    if name.casefold() in seen:
        raise EntryListError(N_("line %(line)d: %(name)s is listed twice (first on line "
                                "%(first)d)"), line=number, name=name,
                             first=seen[name.casefold()])
    seen[name.casefold()] = number
    rating_text = _cell(record, columns.get("rating"))
    rating = None
    if rating_text:
        if not (rating_text.isascii() and rating_text.isdigit()) \
                or int(rating_text) > MAX_RATING:
            raise EntryListError(N_("line %(line)d: the rating %(rating)r is not a whole "
                                    "number from 0 to %(limit)d"), line=number,
                                 rating=rating_text, limit=MAX_RATING)
        rating = int(rating_text)
    return EntryRow(number, name, rating, _cell(record, columns.get("fide_id"))[:20])


def read_upload(data: bytes) -> list[EntryRow]:
    """An uploaded entry list, CSV or TRF (its 001 lines: name, rating, FIDE id)."""
    from tournaments.trf import TrfError, read_trf

    text = decode_upload(data)
    if not is_trf(text):
        return read_entry_list(text)
    try:
        trf = read_trf(text)
    except TrfError as error:
        raise EntryListError(N_("%(problem)s"), problem=error) from None
    rows = []
    seen: dict[str, int] = {}
    for index, player in enumerate(trf.players, start=1):
        name = " ".join(player.name.split())
        if not name:
            raise EntryListError(N_("player %(player)d: the name is empty"),
                                 player=player.start_rank)
        if name.casefold() in seen:
            raise EntryListError(N_("player %(player)d: %(name)s is listed twice"),
                                 player=player.start_rank, name=name)
        seen[name.casefold()] = index
        rows.append(EntryRow(index, name, player.rating, player.fide_id[:20]))
    if not rows:
        raise EntryListError(N_("the file lists nobody"))
    return rows
