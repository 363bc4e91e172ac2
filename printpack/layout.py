"""The print pack's pure layout: a small document model fed by plain data (titles, tables,
result slips, certificates) and its rendering to PDF with fpdf2. No Django here: the
shells word the texts (translated) and hand them over as strings.

Rules the renderer keeps, whatever the data:

- a table's header is printed again at the top of every page the table runs onto;
- a row is never split across pages (a row that does not fit starts the next page; a long
  cell wraps inside its row, which grows);
- every page has the footer: the club's name and the date on the left, the document's
  title in the middle and ``N / M`` (page N of M) on the right;
- the fonts are embedded (DejaVu Sans, regular and bold, shipped in ``printpack/fonts``), so
  Cyrillic prints right whatever the reader's machine has;
- the paper is A4 or US Letter; a section may turn the page to landscape (a wide wall chart).

>>> doc = Document(title="Pairings", club="Клуб", date="2026-12-05", sections=(
...     Section(title="Round 1", blocks=(Table(columns=(Column("Board", 1), Column("Name", 4)),
...                                            rows=(("1", "Анна"), ("2", "Борис"))),)),))
>>> render(doc)[:5]
b'%PDF-'
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import segno
from fpdf import FPDF
from fpdf.enums import XPos, YPos

#: fontTools logs every glyph of every subset at INFO: far too much for a pack of PDFs.
logging.getLogger("fontTools").setLevel(logging.WARNING)

FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVu"
PAPERS = ("A4", "Letter")
Paper = Literal["A4", "Letter"]
Align = Literal["L", "C", "R"]

#: Page margins and the footer's band (mm).
MARGIN = 12.0
FOOTER = 12.0
LINE = 5.0  # one table line's height (mm) at the table's font size
TABLE_FONT = 9.0
#: The height of one result slip (mm); as many as fit go on a page, with cut lines between.
SLIP_HEIGHT = 88.0


class LayoutError(ValueError):
    """A document the renderer cannot lay out (unknown paper, a row of the wrong width)."""


@dataclass(frozen=True)
class Column:
    heading: str
    #: Relative width: the columns share the page's width in proportion.
    width: float
    align: Align = "L"


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: Sequence[Sequence[str]]
    #: A last row printed bold (the check-in sheet's totals), kept whole like the others.
    total: Sequence[str] | None = None
    #: The extra height of every row (mm): room to sign in.
    row_padding: float = 0.0


@dataclass(frozen=True)
class Text:
    text: str
    size: float = 9.0
    bold: bool = False


@dataclass(frozen=True)
class QrCode:
    """A QR code of ``data`` (a URL) with its caption under it."""

    data: str
    caption: str


@dataclass(frozen=True)
class Slip:
    """One board's result slip: a title, lines of facts, the games grid with a row per
    side, signature boxes, and QR codes where the players report the result themselves."""

    title: str
    lines: tuple[str, ...]
    grid_heading: str
    #: The grid's columns after the heading column: "1", "2", ..., "Match".
    grid_columns: tuple[str, ...]
    sides: tuple[str, ...]
    hint: str
    signatures: tuple[str, ...]
    codes: tuple[QrCode, ...] = ()


@dataclass(frozen=True)
class Slips:
    slips: tuple[Slip, ...]


@dataclass(frozen=True)
class Certificate:
    """One page: a heading, the place, the name large, then the event's lines."""

    heading: str
    place: str
    name: str
    lines: tuple[str, ...]
    signature: str = ""


Block = Table | Text | Slips | Certificate


@dataclass(frozen=True)
class Section:
    """A part of a document that starts on a new page (a round's pairings, the standings)."""

    title: str
    blocks: tuple[Block, ...]
    subtitle: str = ""
    landscape: bool = False


@dataclass(frozen=True)
class Document:
    title: str
    club: str
    date: str
    sections: tuple[Section, ...]
    paper: Paper = "A4"
    #: Metadata: the PDF's subject and author lines.
    author: str = ""
    #: ``{page}`` and ``{pages}`` are replaced: "1 / 7".
    page_label: str = "{page} / {pages}"
    keywords: tuple[str, ...] = field(default_factory=tuple)


class _Pdf(FPDF):
    def __init__(self, doc: Document) -> None:
        if doc.paper not in PAPERS:
            raise LayoutError(f"unknown paper {doc.paper!r}: A4 or Letter")
        super().__init__(orientation="portrait", unit="mm", format=doc.paper.lower())
        self.doc = doc
        self.footer_title = doc.title
        self._widths: dict[tuple[str, str, float, str], float] = {}
        self._encoded: dict[tuple[str, str, str], str] = {}
        self.add_font(FONT, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(False, margin=FOOTER + 4)
        self.set_title(doc.title)
        self.set_creator("club-tourney print pack")
        if doc.author:
            self.set_author(doc.author)
        self.set_lang("ru" if any("\u0400" <= c <= "\u04ff" for c in doc.title) else "en")

    def footer(self) -> None:
        self.set_y(-FOOTER)
        self.set_font(FONT, "", 7.5)
        self.set_text_color(90, 90, 90)
        width = (self.w - 2 * MARGIN) / 3
        self.cell(width, 5, _fit(self, f"{self.doc.club} · {self.doc.date}", width),
                  align="L")
        self.cell(width, 5, _fit(self, self.footer_title, width), align="C")
        label = self.doc.page_label.format(page=self.page_no(), pages=self.alias_nb_pages_str)
        self.cell(width, 5, label, align="R")
        self.set_text_color(0, 0, 0)

    # -- fast paths: a pack of 200 entrants and nine rounds draws some 25,000 cells, and
    # fpdf2's cell(), text() and rect() cost tens of microseconds each (copies of the
    # graphics state, per-character parsing). These write the same PDF operators directly,
    # with the widths and the subset-encoded strings cached per font and text.

    def width_of(self, text: str) -> float:
        """``text``'s width (mm) in the current font and size (cached)."""
        key = (self.font_family, self.font_style, self.font_size_pt, text)
        found = self._widths.get(key)
        if found is None:
            font = self.current_font
            assert font is not None
            cw: Any = font.cw  # a TTF font's widths by code point
            found = float(sum(cw[ord(c)] for c in text)) * self.font_size_pt * 0.001 / self.k
            self._widths[key] = found
        return found

    def put_text(self, x: float, y: float, text: str) -> None:
        """``text`` with its baseline at ``y``, in black."""
        if not text:
            return
        if not self.current_font_is_set_on_page:
            self.text(x, y, text)  # lets fpdf2 select the font on this page first
            return
        font = self.current_font
        assert font is not None
        key = (self.font_family, self.font_style, text)
        encoded = self._encoded.get(key)
        if encoded is None:
            encoded = font.encode_text(text)
            self._encoded[key] = encoded
        self._out(f"q 0 g BT {x * self.k:.2f} {(self.h - y) * self.k:.2f} Td {encoded} ET Q")

    def boxes(self, boxes: Sequence[tuple[float, float, float, float]], *,
              fill: bool = False) -> None:
        """Rectangles (x, y, width, height) in one path: stroked, or filled and stroked."""
        k, h = self.k, self.h
        path = " ".join(f"{x * k:.2f} {(h - y) * k:.2f} {w * k:.2f} {-hh * k:.2f} re"
                        for x, y, w, hh in boxes)
        self._out(f"{path} {'B' if fill else 'S'}")

    def lines_of(self, text: str, width: float) -> list[str]:
        """``text`` broken at spaces into lines of at most ``width`` (mm); a word longer
        than the line is cut."""
        if self.width_of(text) <= width:
            return [text]
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            candidate = f"{current} {word}" if current else word
            if self.width_of(candidate) <= width:
                current = candidate
                continue
            if current:
                lines.append(current)
            while self.width_of(word) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and self.width_of(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        if current:
            lines.append(current)
        return lines or [text]

    def paragraph(self, text: str, width: float, height: float, *,
                  align: Align = "L") -> None:
        """Wrapped lines from the current position, each ``height`` tall."""
        x, y = self.get_x(), self.get_y()
        for line in self.lines_of(text, width):
            used = self.width_of(line)
            left = x if align == "L" else x + (width - used) / 2 if align == "C" else (
                x + width - used)
            self.put_text(left, y + height * 0.75, line)
            y += height
        self.set_xy(self.l_margin, y)

    @property
    def alias_nb_pages_str(self) -> str:
        return str(self.str_alias_nb_pages)

    @property
    def bottom(self) -> float:
        return self.h - FOOTER - 4

    @property
    def inner_width(self) -> float:
        return self.w - 2 * MARGIN


def render(doc: Document) -> bytes:
    """The document as PDF bytes."""
    pdf = _Pdf(doc)
    for section in doc.sections:
        _section(pdf, section)
    if not doc.sections:
        pdf.add_page()
    return bytes(pdf.output())


def _fit(pdf: _Pdf, text: str, width: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``width``."""
    if pdf.width_of(text) <= width - 1:
        return text
    while text and pdf.width_of(text + "…") > width - 1:
        text = text[:-1]
    return text + "…"


def _new_page(pdf: _Pdf, section: Section, *, first: bool) -> None:
    pdf.add_page(orientation="L" if section.landscape else "P")
    if first:
        pdf.footer_title = section.title or pdf.doc.title
    if not section.title:
        return
    pdf.set_font(FONT, "B", 14 if first else 10)
    pdf.multi_cell(pdf.inner_width, 7 if first else 5, section.title,
                   new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if section.subtitle and first:
        pdf.set_font(FONT, "", 9)
        pdf.multi_cell(pdf.inner_width, 4.5, section.subtitle,
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)


def _section(pdf: _Pdf, section: Section) -> None:
    _new_page(pdf, section, first=True)
    for block in section.blocks:
        if isinstance(block, Table):
            _table(pdf, section, block)
        elif isinstance(block, Text):
            _text(pdf, section, block)
        elif isinstance(block, Slips):
            _slips(pdf, section, block)
        else:
            _certificate(pdf, section, block)


def _text(pdf: _Pdf, section: Section, block: Text) -> None:
    pdf.set_font(FONT, "B" if block.bold else "", block.size)
    height = block.size * 0.5
    lines = pdf.lines_of(block.text, pdf.inner_width)
    if pdf.get_y() + height * len(lines) > pdf.bottom:
        _new_page(pdf, section, first=False)
        pdf.set_font(FONT, "B" if block.bold else "", block.size)
    pdf.paragraph(block.text, pdf.inner_width, height)
    pdf.ln(1)


def _table(pdf: _Pdf, section: Section, table: Table) -> None:
    columns = table.columns
    total_weight = sum(c.width for c in columns)
    widths = [pdf.inner_width * c.width / total_weight for c in columns]

    def draw(cells: Sequence[str], *, style: str, fill: bool) -> bool:
        pdf.set_font(FONT, style, TABLE_FONT)
        lines = [pdf.lines_of(text, w - 2) for text, w in zip(cells, widths, strict=True)]
        height = LINE * max(len(item) for item in lines) + 1
        if not fill:
            height += table.row_padding
        if pdf.get_y() + height > pdf.bottom:
            return False
        x, y = pdf.l_margin, pdf.get_y()
        boxes = []
        for width in widths:
            boxes.append((x, y, width, height))
            x += width
        pdf.boxes(boxes, fill=fill)
        x = pdf.l_margin
        for column, width, cell_lines in zip(columns, widths, lines, strict=True):
            for i, line in enumerate(cell_lines):
                if column.align == "L":
                    left = x + 1
                else:
                    used = pdf.width_of(line)
                    left = x + width - 1 - used if column.align == "R" else (
                        x + (width - used) / 2)
                pdf.put_text(left, y + 0.5 + i * LINE + LINE * 0.72, line)
            x += width
        pdf.set_xy(pdf.l_margin, y + height)
        return True

    def heading_size(text: str, width: float) -> float:
        """The header's font size for ``text``: smaller (down to 6 pt) until its longest
        word fits the column, so that a heading never breaks inside a word."""
        size = TABLE_FONT
        longest = max(text.split(" "), key=len, default="")
        pdf.set_font(FONT, "B", size)
        while size > 6 and pdf.width_of(longest) > width - 2:
            size -= 0.5
            pdf.set_font(FONT, "B", size)
        return size

    sizes = [heading_size(c.heading, w) for c, w in zip(columns, widths, strict=True)]

    def header() -> None:
        pdf.set_fill_color(225, 225, 225)
        lines = []
        for column, width, size in zip(columns, widths, sizes, strict=True):
            pdf.set_font(FONT, "B", size)
            lines.append(pdf.lines_of(column.heading, width - 2))
        height = LINE * max(len(item) for item in lines) + 1
        x, y = pdf.l_margin, pdf.get_y()
        boxes = []
        for width in widths:
            boxes.append((x, y, width, height))
            x += width
        pdf.boxes(boxes, fill=True)
        x = pdf.l_margin
        for column, width, size, cell_lines in zip(columns, widths, sizes, lines, strict=True):
            pdf.set_font(FONT, "B", size)
            for i, line in enumerate(cell_lines):
                used = pdf.width_of(line)
                left = (x + 1 if column.align == "L" else x + width - 1 - used
                        if column.align == "R" else x + (width - used) / 2)
                pdf.put_text(left, y + 0.5 + i * LINE + LINE * 0.72, line)
            x += width
        pdf.set_xy(pdf.l_margin, y + height)
        pdf.set_font(FONT, "", TABLE_FONT)

    def row(cells: Sequence[str], *, bold: bool = False) -> None:
        if len(cells) != len(columns):
            raise LayoutError(f"a row of {len(cells)} cells in a table of {len(columns)} "
                              "columns")
        if not draw(cells, style="B" if bold else "", fill=False):
            _new_page(pdf, section, first=False)
            header()
            draw(cells, style="B" if bold else "", fill=False)

    pdf.set_draw_color(140, 140, 140)
    pdf.set_line_width(0.2)
    if pdf.get_y() + 2 * LINE + 2 > pdf.bottom:
        _new_page(pdf, section, first=False)
    header()
    for cells in table.rows:
        row([str(c) for c in cells])
    if table.total is not None:
        row([str(c) for c in table.total], bold=True)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_font(FONT, "", TABLE_FONT)
    pdf.ln(3)


_DARK_RUN = re.compile(rb"\x01+")


@functools.lru_cache(maxsize=4096)
def qr_runs(data: str) -> tuple[int, list[tuple[int, int, int]]]:
    """The QR code of ``data``: its size in modules and its dark runs (row, first column,
    length). Mask 0 is fixed: choosing the best of eight costs five times as much, and any
    mask reads. Kept in memory: a player's link is the same on every round's slips."""
    matrix = segno.make(data, error="m", micro=False, mask=0, boost_error=False).matrix
    runs = [(r, found.start(), found.end() - found.start())
            for r, modules in enumerate(matrix)
            for found in _DARK_RUN.finditer(bytes(modules))]
    return len(matrix), runs


def _qr(pdf: _Pdf, code: QrCode, x: float, y: float, size: float) -> None:
    """The QR code drawn as one vector path (a rectangle per run of dark modules)."""
    modules, runs = qr_runs(code.data)
    unit = size / modules
    k = pdf.k
    ops = [f"{(x + c * unit) * k:.2f} {(pdf.h - y - (r + 1) * unit) * k:.2f} "
           f"{n * unit * k:.2f} {unit * k:.2f} re" for r, c, n in runs]
    pdf.set_fill_color(0, 0, 0)
    pdf._out("q 0 g " + " ".join(ops) + " f Q")
    pdf.set_font(FONT, "", 6.5)
    pdf.set_xy(x - 2, y + size + 0.5)
    pdf.paragraph(code.caption, size + 4, 3, align="C")


def _slips(pdf: _Pdf, section: Section, block: Slips) -> None:
    top = pdf.get_y()
    for slip in block.slips:
        if top + SLIP_HEIGHT > pdf.bottom + 4:
            _new_page(pdf, section, first=False)
            top = pdf.get_y()
        _slip(pdf, slip, top)
        top += SLIP_HEIGHT
        if top + SLIP_HEIGHT <= pdf.bottom + 4:
            pdf.set_draw_color(120, 120, 120)
            pdf.set_dash_pattern(dash=2, gap=1.5)
            pdf.line(pdf.l_margin - 6, top - 2, pdf.w - pdf.r_margin + 6, top - 2)
            pdf.set_dash_pattern()
            pdf.set_draw_color(0, 0, 0)
    pdf.set_y(top)


def _slip(pdf: _Pdf, slip: Slip, top: float) -> None:
    qr_size = 24.0 if slip.codes else 0.0
    qr_band = (qr_size + 6) * len(slip.codes)
    width = pdf.inner_width - qr_band
    left = pdf.l_margin
    pdf.set_font(FONT, "B", 11)
    pdf.put_text(left, top + 4.5, _fit(pdf, slip.title, width))
    pdf.set_font(FONT, "", 7.5)
    pdf.set_xy(left, top + 6.5)
    for line in slip.lines:
        pdf.paragraph(line, width, 3.6)
    y = pdf.get_y() + 1
    # the grid: a heading column wide enough for the names, then one box per game
    name_width = min(width * 0.45, 70.0)
    box = (width - name_width) / max(len(slip.grid_columns), 1)
    pdf.set_draw_color(90, 90, 90)
    rows = [(slip.grid_heading, 6.0), *[(side, 8.0) for side in slip.sides]]
    boxes = []
    row_y = y
    for _label, height in rows:
        boxes.append((left, row_y, name_width, height))
        boxes.extend((left + name_width + i * box, row_y, box, height)
                     for i in range(len(slip.grid_columns)))
        row_y += height
    pdf.boxes(boxes)
    pdf.set_font(FONT, "B", 8.5)
    pdf.put_text(left + 1, y + 4.2, _fit(pdf, slip.grid_heading, name_width))
    for i, heading in enumerate(slip.grid_columns):
        text = _fit(pdf, heading, box)
        pdf.put_text(left + name_width + i * box + (box - pdf.width_of(text)) / 2, y + 4.2,
                     text)
    pdf.set_font(FONT, "", 8.5)
    row_y = y + 6
    for side in slip.sides:
        pdf.put_text(left + 1, row_y + 5.2, _fit(pdf, side, name_width))
        row_y += 8
    pdf.set_font(FONT, "", 7)
    pdf.set_xy(left, row_y + 1)
    pdf.paragraph(slip.hint, width, 3.4)
    # signatures: boxes along the bottom of the slip
    sign_y = top + SLIP_HEIGHT - 16
    sign_width = width / max(len(slip.signatures), 1)
    pdf.boxes([(left + i * sign_width + 1, sign_y, sign_width - 2, 11)
               for i in range(len(slip.signatures))])
    pdf.set_font(FONT, "", 6.5)
    for i, label in enumerate(slip.signatures):
        pdf.put_text(left + i * sign_width + 1.5, sign_y + 2.8,
                     _fit(pdf, label, sign_width - 3))
    for i, code in enumerate(slip.codes):
        _qr(pdf, code, left + width + 6 + i * (qr_size + 6), top + 8, qr_size)
    pdf.set_draw_color(0, 0, 0)


def _certificate(pdf: _Pdf, section: Section, block: Certificate) -> None:
    if pdf.get_y() > MARGIN + 30:  # each certificate is a page of its own
        pdf.add_page(orientation="L" if section.landscape else "P")
    pdf.set_draw_color(60, 60, 60)
    pdf.set_line_width(1.2)
    pdf.rect(MARGIN - 2, MARGIN - 2, pdf.w - 2 * MARGIN + 4, pdf.h - 2 * MARGIN - FOOTER + 2)
    pdf.set_line_width(0.2)
    width = pdf.inner_width
    pdf.set_y(pdf.h * 0.2)
    pdf.set_font(FONT, "B", 32)
    pdf.multi_cell(width, 14, block.heading, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(6)
    pdf.set_font(FONT, "", 20)
    pdf.multi_cell(width, 10, block.place, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(8)
    pdf.set_font(FONT, "B", 28)
    pdf.multi_cell(width, 13, block.name, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(8)
    pdf.set_font(FONT, "", 13)
    for line in block.lines:
        pdf.multi_cell(width, 7, line, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if block.signature:
        y = pdf.h - MARGIN - FOOTER - 22
        pdf.line(pdf.w / 2 + 20, y, pdf.w - MARGIN - 10, y)
        pdf.set_xy(pdf.w / 2 + 20, y + 1)
        pdf.set_font(FONT, "", 9)
        pdf.cell(pdf.w / 2 - MARGIN - 30, 5, block.signature, align="C")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_y(pdf.h)  # the next certificate starts a page
