"""Entry lists uploaded by organizers: a CSV of names (with an optional rating and FIDE id)
or a TRF file's player lines, each optionally with the fields prize categories use (birth
year, sex, federation, title). Pure Python: bytes in, rows or a clear error out.

Files may be UTF-8 (with or without a byte-order mark) or Windows-1252/Latin-1, which
spreadsheets and Swiss-Manager write. A CSV's first line may be a header naming the
columns ``name``, ``rating``, ``fide_id``, ``birth_year``, ``sex``, ``federation`` and
``title`` (in any order, any case); without a header the columns are name, then rating,
then FIDE id; the delimiter (comma, semicolon or tab)
is the one the first line holds most of, outside quotes. Every problem names its line.

The size is bounded before anything is parsed: the file's bytes, each line's length and the
number of entries (a tournament's most), so a hostile file costs linear time at most.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict

from games.i18n import N_
from tournaments.csv_cells import read_cell
from tournaments.marked import MarkedError

MAX_ROWS = 1024
"""A tournament's most entrants (``core.bounds.MAX_ENTRANTS``; a pure core cannot import
it, and a test checks that the two agree)."""
MAX_FILE_BYTES = 512 * 1024
MAX_LINE_CHARS = 2000
MAX_NAME = 120
MAX_RATING = 4000
DELIMITERS = ("\t", ";", ",")
"""In the order that wins a tie: ``Smith, John;1800`` is split at the semicolon."""


class EntryListError(MarkedError):
    """The file cannot be read as an entry list; the message names the line."""


@dataclass(frozen=True, slots=True)
class EntryRow:
    line: int
    name: str
    rating: int | None = None
    fide_id: str = ""
    birth_year: int | None = None
    sex: str = ""
    federation: str = ""
    title: str = ""

    def categories(self) -> dict[str, object]:
        """The player fields this row gives (those it leaves empty left out)."""
        values = {"birth_year": self.birth_year, "sex": self.sex,
                  "federation": self.federation, "title": self.title}
        return {key: value for key, value in values.items() if value not in (None, "")}


class Categories(TypedDict):
    birth_year: int | None
    sex: str
    federation: str
    title: str


#: The CSV columns a header may name.
COLUMNS = ("name", "rating", "fide_id", "birth_year", "sex", "federation", "title")
#: The short title codes some TRF writers use, and the titles they stand for.
SHORT_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
                "wf": "WFM", "wc": "WCM"}
#: Ways of writing a sex: TRF's m and w, and f for a woman.
SEXES = {"m": "m", "w": "w", "f": "w"}


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (a byte-order mark dropped), else Windows-1252,
    else Latin-1 (the TRF reader's own decoding, used for every upload)."""
    from tournaments.trf import decode_trf

    return decode_trf(data)


def is_trf(text: str) -> bool:
    """True when the text holds TRF player lines (``001``)."""
    return any(line.startswith("001") for line in text.splitlines())


def _check_size(size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise EntryListError(N_("the file has %(size)d bytes; an entry list may have at most "
                                "%(limit)d"), size=size, limit=MAX_FILE_BYTES)


def _check_lines(lines: list[str]) -> None:
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE_CHARS:
            raise EntryListError(N_("line %(line)d is longer than %(limit)d characters"),
                                 line=number, limit=MAX_LINE_CHARS)


def _delimiter(lines: list[str]) -> str:
    """The delimiter the first non-blank line holds most of outside double quotes (a comma
    when it holds none): linear, where ``csv.Sniffer`` is quadratic in its sample."""
    first = next((line for line in lines if line.strip()), "")
    outside = "".join(first.split('"')[::2])
    counts = {delimiter: outside.count(delimiter) for delimiter in DELIMITERS}
    best = max(DELIMITERS, key=lambda delimiter: counts[delimiter])
    return best if counts[best] else ","


def _records(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Each CSV record with the line it starts on."""
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    start = 1
    try:
        for record in reader:
            yield start, record
            start = reader.line_num + 1
    except csv.Error:
        raise EntryListError(N_("line %(line)d cannot be read: a quote is not closed, or a "
                                "field is too long"), line=start) from None


def read_entry_list(text: str) -> list[EntryRow]:
    """The rows of a CSV entry list (see the module's docstring); TRF text is read by
    :func:`tournaments.trf.read_trf` instead."""
    _check_size(len(text))
    if "\x00" in text:
        raise EntryListError(N_("the file holds NUL characters: is it a spreadsheet, not CSV?"))
    lines = text.splitlines()
    _check_lines(lines)
    columns = {"name": 0, "rating": 1, "fide_id": 2}
    rows: list[EntryRow] = []
    seen: dict[str, int] = {}
    for number, record in _records(text, _delimiter(lines)):
        if number == 1:
            header = [cell.strip().lower().replace(" ", "_") for cell in record]
            if "name" in header:
                columns = {key: header.index(key) for key in COLUMNS if key in header}
                continue
        if not any(cell.strip() for cell in record):
            continue
        if len(rows) == MAX_ROWS:
            raise EntryListError(N_("more than %(limit)d entries"), limit=MAX_ROWS)
        rows.append(_row(record, columns, number, seen))
    if not rows:
        raise EntryListError(N_("the file lists nobody"))
    return rows


def read_pasted_names(text: str) -> list[EntryRow]:
    """Names pasted one per line (blank lines skipped), checked as a CSV's names are, each
    problem naming its line; commas and semicolons are part of a name here."""
    _check_size(len(text.encode()))
    lines = text.splitlines()
    _check_lines(lines)
    rows: list[EntryRow] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if len(rows) == MAX_ROWS:
            raise EntryListError(N_("more than %(limit)d entries"), limit=MAX_ROWS)
        rows.append(_row([line], {"name": 0}, number, seen))
    if not rows:
        raise EntryListError(N_("the list names nobody"))
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
    return EntryRow(number, name, rating, _cell(record, columns.get("fide_id"))[:20],
                    **row_categories(number, _cell(record, columns.get("birth_year")),
                                  _cell(record, columns.get("sex")),
                                  _cell(record, columns.get("federation")),
                                  _cell(record, columns.get("title"))))


def row_categories(line: int, year: str, sex: str, federation: str,
                title: str) -> Categories:
    """A row's category fields, their form checked here (their values by the players
    service): a year of four digits (a TRF date's year), a known sex, three letters."""
    year = year.strip()[:4]
    if year and not (year.isascii() and year.isdigit() and len(year) == 4):
        raise EntryListError(N_("line %(line)d: the birth year %(year)r is not a year"),
                             line=line, year=year)
    sex = sex.strip().lower()
    if sex and sex not in SEXES:
        raise EntryListError(N_("line %(line)d: the sex %(sex)r is not m or w"),
                             line=line, sex=sex)
    federation = federation.strip().upper()
    if federation and not (len(federation) == 3 and federation.isascii()
                           and federation.isalpha()):
        raise EntryListError(N_("line %(line)d: the federation %(code)r is not three "
                                "letters"), line=line, code=federation)
    return Categories(birth_year=int(year) if year else None, sex=SEXES.get(sex, ""),
                      federation=federation,
                      title=SHORT_TITLES.get(title.strip().lower(), title.strip().upper()))


def read_upload(data: bytes) -> list[EntryRow]:
    """An uploaded entry list, CSV or TRF (its 001 lines: name, rating, FIDE id)."""
    from tournaments.trf import TrfError, read_trf

    _check_size(len(data))
    text = decode_upload(data)
    if not is_trf(text):
        return read_entry_list(text)
    try:
        trf = read_trf(text)
    except TrfError as error:
        raise EntryListError(N_("%(problem)s"), problem=error) from None
    if len(trf.players) > MAX_ROWS:
        raise EntryListError(N_("more than %(limit)d entries"), limit=MAX_ROWS)
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
        rows.append(EntryRow(player.line or index, name, player.rating, player.fide_id[:20],
                             **row_categories(player.line or index, player.birth_date,
                                           player.sex, player.federation, player.title)))
    if not rows:
        raise EntryListError(N_("the file lists nobody"))
    return rows
