"""The print pack assembled: one document kind (for one round or the event), or the whole
event as one PDF (a section per document, each starting a page) or as a zip of PDFs.

The data is read once per pack (``printpack.selectors.pack_data``); the documents are
worded in the active language (``printpack.documents``); the layout is pure
(``printpack.layout``).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from playerlinks.services import link_token
from printpack import documents
from printpack.layout import PAPERS, Document, Paper, Section, render
from printpack.selectors import LinkCode, PackData, live_links, pack_data
from tournaments.models import PrizeKind, Tournament
from tournaments.prize_lists import prize_list

#: A round's documents: kind -> (label, builder).
ROUND_KINDS: dict[str, tuple[Promise, Callable[..., Section | None]]] = {
    "pairings": (_("Pairings by board"), documents.pairings_by_board),
    "by_name": (_("Pairings by name"), documents.pairings_by_name),
    "slips": (_("Result slips"), documents.result_slips),
}
#: The event's documents, in the whole pack's order.
EVENT_KINDS: dict[str, tuple[Promise, Callable[..., Section | None]]] = {
    "starting": (_("Starting list"), documents.starting_list),
    "checkin": (_("Check-in sheet"), documents.checkin_sheet),
    "lineups": (_("Team lineups"), documents.team_lineups),
    "standings": (_("Standings"), documents.standings),
    "wall_chart": (_("Wall chart"), documents.wall_chart),
    "crosstable": (_("Crosstable"), documents.crosstable),
    "certificates": (_("Certificates"), documents.certificates),
}
KINDS = (*ROUND_KINDS, *EVENT_KINDS)


def load(tournament: Tournament, *, drafts: bool = True, links: bool = True) -> PackData:
    """What a pack prints (:func:`printpack.selectors.pack_data`) and, with ``links``, the
    live private links' tokens for the result slips' QR codes."""
    data = pack_data(tournament, drafts=drafts)
    if links:
        for link in live_links(tournament):
            data.links.setdefault(link.entrant_id, []).append(
                LinkCode(link.player.display_name, link_token(link)))
    return data


def prize_rows(tournament: Tournament) -> list[Mapping[str, Any]]:
    """The prize list's plain rows (``group``, ``kind``, ``place``, ``name``, ``points``,
    ``prize``: the cash received, or the item, or both in words), from
    ``tournaments.prize_lists.prize_list``; none when the tournament has no prizes."""
    if not tournament.prize_groups.exists():
        return []
    rows: list[Mapping[str, Any]] = []
    for group in prize_list(tournament).groups:
        for line in group.lines:
            if not line.name:
                continue
            prize: Any = line.cash if line.cash and not line.item else " + ".join(
                part for part in (str(line.cash) if line.cash else "", line.item) if part)
            rows.append({"group": group.name, "kind": group.kind, "place": line.place,
                         "name": line.name, "points": line.points, "prize": prize})
    return rows


def _document(tournament: Tournament, title: str, sections: Sequence[Section],
              paper: Paper) -> Document:
    return Document(title=title, club=tournament.club.name,
                    date=formats.date_format(timezone.localdate(), "DATE_FORMAT"),
                    sections=tuple(sections), paper=paper, author=tournament.club.name)


def kind_sections(data: PackData, kind: str, *, number: int | None = None,
                  base_url: str = "") -> list[Section]:
    """The sections of one kind: a round kind for round ``number`` (every round when
    None), an event kind for the event."""
    if kind in ROUND_KINDS:
        build = ROUND_KINDS[kind][1]
        numbers = data.round_numbers() if number is None else [number]
        found = []
        for n in numbers:
            section = (build(data, n, base_url=base_url) if kind == "slips"
                       else build(data, n))
            if section is not None:
                found.append(section)
        return found
    if kind in EVENT_KINDS:
        section = EVENT_KINDS[kind][1](data)
        return [section] if section is not None else []
    raise ValueError(f"unknown kind {kind!r}")


def event_sections(data: PackData, *, base_url: str = "") -> list[tuple[str, list[Section]]]:
    """The whole event, by kind: the starting list and check-in sheet, each round's
    pairings (by board, by name), the last round's result slips, the lineups, the
    standings, the wall chart (a round robin's crosstable too), the prize list and the
    certificates."""
    numbers = data.round_numbers()
    last = numbers[-1] if numbers else None
    parts: list[tuple[str, list[Section]]] = [
        ("starting", kind_sections(data, "starting")),
        ("checkin", kind_sections(data, "checkin")),
        ("lineups", kind_sections(data, "lineups")),
    ]
    for n in numbers:
        parts.append((f"round-{n}", [*kind_sections(data, "pairings", number=n),
                                     *kind_sections(data, "by_name", number=n)]))
    if last is not None:
        parts.append((f"round-{last}-slips", kind_sections(data, "slips", number=last,
                                                           base_url=base_url)))
    parts.append(("standings", kind_sections(data, "standings")))
    parts.append(("wall-chart", kind_sections(data, "wall_chart")))
    parts.append(("crosstable", kind_sections(data, "crosstable")))
    rows = prize_rows(data.tournament)
    prizes = documents.prize_list(data.tournament, rows)
    parts.append(("prizes", [prizes] if prizes else []))
    certificates = kind_sections(data, "certificates")
    winners = documents.category_certificates(
        data.tournament, [row for row in rows
                          if row.get("kind") != PrizeKind.OVERALL and row.get("place") == 1])
    parts.append(("certificates", [*certificates, *([winners] if winners else [])]))
    return [(name, sections) for name, sections in parts if sections]


def check_paper(paper: str) -> Paper:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}")
    return "A4" if paper == "A4" else "Letter"


def kind_pdf(tournament: Tournament, kind: str, *, number: int | None = None,
             paper: str = "A4", base_url: str = "", data: PackData | None = None
             ) -> bytes | None:
    """One document as PDF; None: nothing to print (no such round, no standings yet)."""
    data = data or load(tournament, links=kind == "slips")
    sections = kind_sections(data, kind, number=number, base_url=base_url)
    if not sections:
        return None
    labels = {**ROUND_KINDS, **EVENT_KINDS}
    title = str(labels[kind][0])
    if number is not None and kind in ROUND_KINDS:
        title = f"{title} · {documents.round_title(number)}"
    return render(_document(tournament, f"{tournament.name}: {title}", sections,
                            check_paper(paper)))


def event_pdf(tournament: Tournament, *, paper: str = "A4", base_url: str = "",
              data: PackData | None = None) -> bytes:
    """The whole event as one PDF, page numbers running through it."""
    data = data or load(tournament)
    sections = [s for _name, part in event_sections(data, base_url=base_url) for s in part]
    return render(_document(tournament, tournament.name, sections, check_paper(paper)))


def zip_parts(data: PackData, *, base_url: str = "") -> list[tuple[str, list[Section]]]:
    """The zip's PDFs: one per kind of document (every round's pairings in one file, by
    board and by name apart), each with its own fonts: fewer files build faster."""
    numbers = data.round_numbers()
    parts: list[tuple[str, list[Section]]] = []
    for kind in ("starting", "checkin", "lineups"):
        parts.append((kind, kind_sections(data, kind)))
    parts.append(("pairings-by-board", kind_sections(data, "pairings")))
    parts.append(("pairings-by-name", kind_sections(data, "by_name")))
    if numbers:
        parts.append((f"round-{numbers[-1]}-slips",
                      kind_sections(data, "slips", number=numbers[-1], base_url=base_url)))
    for kind in ("standings", "wall_chart", "crosstable"):
        parts.append((kind.replace("_", "-"), kind_sections(data, kind)))
    whole = dict(event_sections(data, base_url=base_url))
    parts.append(("prizes", whole.get("prizes", [])))
    parts.append(("certificates", whole.get("certificates", [])))
    return [(name, sections) for name, sections in parts if sections]


def event_zip(tournament: Tournament, *, paper: str = "A4", base_url: str = "",
              data: PackData | None = None) -> bytes:
    """The whole event as a zip: a PDF per kind of document (:func:`zip_parts`), each
    numbered from its own page 1."""
    data = data or load(tournament)
    buffer = io.BytesIO()
    stem = slugify(tournament.name) or "tournament"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, (name, sections) in enumerate(zip_parts(data, base_url=base_url),
                                                 start=1):
            title = f"{tournament.name}: {sections[0].title or name}"
            archive.writestr(f"{stem}/{index:02d}-{name}.pdf", render(
                _document(tournament, title, sections, check_paper(paper))))
    return buffer.getvalue()


def filename(tournament: Tournament, what: str, paper: str, extension: str = "pdf") -> str:
    """``spring-open-round-3-pairings-a4.pdf``: ASCII only (a header-safe name)."""
    stem = slugify(tournament.name) or "tournament"
    return f"{stem}-{what}-{paper.lower()}.{extension}"
