"""The one CSV writer of the service, safe to open in a spreadsheet. Pure Python.

A text cell that a spreadsheet would run as a formula (OWASP, "CSV Injection": one that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, also after leading
spaces, or with the full-width ``＝``, ``＋``, ``－``, ``＠``) is written with a leading
``'``, which spreadsheets show as text. Numbers stay numbers: ``-1``, ``+3`` and ``12.25``
(numeric values and plain numeric text) are written as they are, and so is a lone ``-``.
:func:`read_cell` takes the ``'`` off again, so that a list the service wrote reads back
as it was (a text that starts with ``'`` before such a character gets one more ``'``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_STARTS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?")


def _runs_as_formula(text: str) -> bool:
    if len(text) < 2 or PLAIN_NUMBER.fullmatch(text):
        return False
    if text[0] in FORMULA_STARTS or text.lstrip()[:1] in FORMULA_STARTS:
        return True
    return text[0] == "'" and _runs_as_formula(text[1:])


def csv_cell(value: object) -> object:
    """``value`` as a cell: ``None`` empty, numbers as they are, text escaped."""
    if value is None:
        return ""
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if _runs_as_formula(text) else text


def read_cell(text: str) -> str:
    """A cell written by :func:`csv_cell` as it was before it was escaped."""
    if text.startswith("'") and _runs_as_formula(text[1:]):
        return text[1:]
    return text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows as CSV text (the ``excel`` dialect), every cell through :func:`csv_cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return out.getvalue()
