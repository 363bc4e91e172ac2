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

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import segno
from fpdf import FPDF
from fpdf.enums import MethodReturnValue, XPos, YPos

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


def _fit(pdf: FPDF, text: str, width: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``width``."""
    if pdf.get_string_width(text) <= width - 1:
        return text
    while text and pdf.get_string_width(text + "…") > width - 1:
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
    lines = _wrap(pdf, pdf.inner_width, height, block.text)
    if pdf.get_y() + height * len(lines) > pdf.bottom:
        _new_page(pdf, section, first=False)
        pdf.set_font(FONT, "B" if block.bold else "", block.size)
    pdf.multi_cell(pdf.inner_width, height, block.text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)


#: The widest advance of a DejaVu Sans glyph in common text, as a share of the font size
#: (W, M, Ш, Щ, Ж): a text this many characters long surely fits without measuring it.
_WIDEST = 1.0


def _fits_surely(text: str, width: float, size: float) -> bool:
    return len(text) * size * _WIDEST * 0.3528 <= width - 2


def _cell_lines(pdf: _Pdf, text: str, width: float) -> list[str]:
    if _fits_surely(text, width, pdf.font_size_pt) or pdf.get_string_width(text) <= width - 2:
        return [text]
    return _wrap(pdf, width - 1.5, LINE, text) or [text]


def _wrap(pdf: _Pdf, width: float, height: float, text: str) -> list[str]:
    """``text`` broken into the lines a cell of ``width`` holds."""
    lines = pdf.multi_cell(width, height, text, dry_run=True, output=MethodReturnValue.LINES)
    return [str(line) for line in lines] if isinstance(lines, list) else [text]


def _put_line(pdf: _Pdf, text: str, x: float, y: float, width: float, align: Align) -> None:
    """One line of a cell: ``y`` is the line's top. pdf.text() is several times cheaper
    than pdf.cell(), which matters with thousands of rows."""
    if not text:
        return
    if align == "L":
        left = x + 1
    else:
        used = pdf.get_string_width(text)
        left = x + width - 1 - used if align == "R" else x + (width - used) / 2
    pdf.text(left, y + LINE * 0.72, text)


def _table(pdf: _Pdf, section: Section, table: Table) -> None:
    columns = table.columns
    total_weight = sum(c.width for c in columns)
    widths = [pdf.inner_width * c.width / total_weight for c in columns]

    def draw(cells: Sequence[str], *, style: str, fill: bool) -> float:
        pdf.set_font(FONT, style, TABLE_FONT)
        lines = [_cell_lines(pdf, text, w) for text, w in zip(cells, widths, strict=True)]
        height = LINE * max(len(item) for item in lines) + 1
        if not fill:
            height += table.row_padding
        if pdf.get_y() + height > pdf.bottom:
            return -1.0
        x, y = pdf.l_margin, pdf.get_y()
        for column, width, cell_lines in zip(columns, widths, lines, strict=True):
            pdf.rect(x, y, width, height, style="DF" if fill else "D")
            for i, line in enumerate(cell_lines):
                _put_line(pdf, line, x, y + 0.5 + i * LINE, width, column.align)
            x += width
        pdf.set_xy(pdf.l_margin, y + height)
        return height

    def header() -> None:
        pdf.set_fill_color(225, 225, 225)
        draw([c.heading for c in columns], style="B", fill=True)

    def row(cells: Sequence[str], *, bold: bool = False) -> None:
        if len(cells) != len(columns):
            raise LayoutError(f"a row of {len(cells)} cells in a table of {len(columns)} "
                              "columns")
        if draw(cells, style="B" if bold else "", fill=False) < 0:
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


def qr_runs(data: str) -> tuple[int, list[tuple[int, int, int]]]:
    """The QR code of ``data``: its size in modules and its dark runs (row, first column,
    length). Mask 0 is fixed: choosing the best of eight costs five times as much, and any
    mask reads."""
    qr = segno.make(data, error="m", micro=False, mask=0)
    runs = []
    size = 0
    for r, modules in enumerate(qr.matrix_iter(border=0)):
        size += 1
        start = None
        for c, dark in enumerate([*modules, 0]):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                runs.append((r, start, c - start))
                start = None
    return size, runs


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
    pdf.multi_cell(size + 4, 3, code.caption, align="C")


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
    pdf.set_xy(pdf.l_margin, top)
    pdf.set_font(FONT, "B", 11)
    pdf.cell(width, 6, _fit(pdf, slip.title, width), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 7.5)
    for line in slip.lines:
        pdf.multi_cell(width, 3.6, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    # the grid: a heading column wide enough for the names, then one box per game
    pdf.set_font(FONT, "", 8.5)
    name_width = min(width * 0.45, 70.0)
    box = (width - name_width) / max(len(slip.grid_columns), 1)
    pdf.set_draw_color(90, 90, 90)
    pdf.set_font(FONT, "B", 8.5)
    pdf.cell(name_width, 6, _fit(pdf, slip.grid_heading, name_width), border=1)
    for heading in slip.grid_columns:
        pdf.cell(box, 6, _fit(pdf, heading, box), border=1, align="C")
    pdf.ln(6)
    pdf.set_font(FONT, "", 8.5)
    for side in slip.sides:
        pdf.cell(name_width, 8, _fit(pdf, side, name_width), border=1)
        for _heading in slip.grid_columns:
            pdf.cell(box, 8, "", border=1)
        pdf.ln(8)
    pdf.set_font(FONT, "", 7)
    pdf.multi_cell(width, 3.4, slip.hint, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    # signatures: boxes along the bottom of the slip
    sign_y = top + SLIP_HEIGHT - 16
    sign_width = width / max(len(slip.signatures), 1)
    for i, label in enumerate(slip.signatures):
        x = pdf.l_margin + i * sign_width
        pdf.rect(x + 1, sign_y, sign_width - 2, 11)
        pdf.set_xy(x + 1.5, sign_y + 0.5)
        pdf.set_font(FONT, "", 6.5)
        pdf.cell(sign_width - 3, 3, _fit(pdf, label, sign_width - 3))
    for i, code in enumerate(slip.codes):
        x = pdf.l_margin + width + 6 + i * (qr_size + 6)
        _qr(pdf, code, x, top + 8, qr_size)
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
