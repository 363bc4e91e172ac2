"""The print pack's pure layout read back with a PDF text extractor: headers on every page,
rows never split across pages (long cells wrap inside their row), page numbers, the footer,
the paper sizes, Cyrillic exact."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from printpack.layout import (
    Certificate,
    Column,
    Document,
    LayoutError,
    QrCode,
    Section,
    Slip,
    Slips,
    Table,
    Text,
    qr_runs,
    render,
)

COLUMNS = (Column("No.", 1, "R"), Column("Имя игрока", 5), Column("Note", 6),
           Column("Pts", 1, "R"))


def _rows(count: int) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for i in range(1, count + 1):
        # every fifth row's note wraps onto three lines: the row grows, and stays whole
        note = (f"start{i} " + "длинное примечание " * 6 + f"end{i}") if i % 5 == 0 else f"n{i}"
        rows.append((str(i), f"Ёлкина-Щукина {i}", note, f"{i % 7}½"))
    return rows


def _pages(doc: Document) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(render(doc))).pages]


def _doc(*sections: Section, paper: str = "A4") -> Document:
    return Document(title="Кубок", club="Клуб «Ладья»", date="5 December 2026",
                    sections=sections, paper=paper)  # type: ignore[arg-type]


def test_rows_whole_headers_repeated_pages_numbered() -> None:
    pages = _pages(_doc(Section(title="Список", blocks=(Table(COLUMNS, _rows(150)),))))
    assert len(pages) >= 4
    for number, text in enumerate(pages, start=1):
        assert text.count("Имя игрока") == 1  # the header on every page
        assert f"{number} / {len(pages)}" in text
        assert "Клуб «Ладья» · 5 December 2026" in text
    seen = []
    for number, text in enumerate(pages):
        for i in range(1, 151):
            if f"Ёлкина-Щукина {i}\n" in text + "\n" or f"Ёлкина-Щукина {i} " in text:
                seen.append(i)
                if i % 5 == 0:  # the wrapped note's first and last words on the same page
                    assert f"start{i}" in text and f"end{i}" in text, (i, number)
    assert sorted(seen) == list(range(1, 151))  # every row once: none lost, none split


def test_total_row_and_text() -> None:
    table = Table(COLUMNS, _rows(3), total=("", "Итого", "", "10"))
    text = "\n".join(_pages(_doc(Section(title="T", blocks=(Text("Легенда: BH"), table)))))
    assert "Итого" in text and "Легенда: BH" in text


def test_papers_and_landscape() -> None:
    def sizes(doc: Document) -> list[tuple[int, int]]:
        reader = PdfReader(io.BytesIO(render(doc)))
        return [(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
                for p in reader.pages]

    portrait = Section(title="P", blocks=(Table(COLUMNS, _rows(2)),))
    wide = Section(title="L", blocks=(Table(COLUMNS, _rows(2)),), landscape=True)
    assert sizes(_doc(portrait, wide)) == [(595, 842), (842, 595)]
    assert sizes(_doc(portrait, wide, paper="Letter")) == [(612, 792), (792, 612)]


def test_refusals() -> None:
    with pytest.raises(LayoutError, match="A4 or Letter"):
        render(_doc(Section(title="x", blocks=()), paper="A3"))
    with pytest.raises(LayoutError, match="2 cells in a table of 4"):
        render(_doc(Section(title="x", blocks=(Table(COLUMNS, [("1", "2")]),))))


def test_slips_and_certificates() -> None:
    slip = Slip(title="Тур 1 · доска 1", lines=("Иванов начинает",), grid_heading="Партия",
                grid_columns=("1", "2", "3", "Матч"), sides=("A: Иванов", "B: Ёлкина"),
                hint="1 победителю", signatures=("A", "B", "Судья"),
                codes=(QrCode("https://x.example/p/abc/report/", "Иванов"),))
    pages = _pages(_doc(Section(title="Бланки", blocks=(Slips((slip,) * 7),)),
                        Section(title="", blocks=(Certificate("Грамота", "Первое место",
                                                              "Ёлкина Анна", ("Кубок",)),) * 2,
                                landscape=True)))
    assert len(pages) == 3 + 2  # three slips to a page; a certificate a page
    assert sum(page.count("Тур 1 · доска 1") for page in pages) == 7
    assert "Ёлкина Анна" in pages[3] and "Ёлкина Анна" in pages[4]


def test_qr_runs() -> None:
    size, runs = qr_runs("https://club.example/p/" + "x" * 43 + "/report/")
    assert size in (29, 33, 37) and (size - 17) % 4 == 0  # versions 3 to 5
    assert runs and all(0 <= r < size and c >= 0 and c + n <= size for r, c, n in runs)
    # the three finder patterns: a run of seven dark modules at each top corner
    assert (0, 0, 7) in runs and (0, size - 7, 7) in runs
