"""The README and the pages under docs/ stand alone: every relative link points to a file
of the repository and, with a ``#fragment``, to a heading of that file; no text names
the rule book that used to live outside the repository."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
#: Where a text could name a file outside the repository (sources, templates, catalogues).
TEXT_SUFFIXES = {".py", ".md", ".html", ".po", ".txt", ".toml", ".yaml", ".yml"}
NOT_OURS = {".venv", ".git", "var", "artifacts", "node_modules", "__pycache__"}

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def _prose(text: str) -> str:
    """The text without fenced blocks and code spans, where brackets are not links."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def anchor_of(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped (code marks
    included), each space a hyphen.

    >>> anchor_of("Matches: what alternates")
    'matches-what-alternates'
    >>> anchor_of("Kugamai, on a clock (1 minute + 1 second), positions")
    'kugamai-on-a-clock-1-minute--1-second-positions'
    >>> anchor_of("`mcts`")
    'mcts'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading fragment of a Markdown file, repeated headings numbered as GitHub does."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in _HEADING.findall(_FENCE.sub("", path.read_text())):
        anchor = anchor_of(heading)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    return [target for target in _LINK.findall(_prose(path.read_text()))
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]


def test_the_documents_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in DOCUMENTS}
    assert {"README.md", "docs/rules/README.md", "docs/operations.md"} <= names


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(document: Path) -> None:
    broken = []
    for target in relative_links(document):
        file_part, _, fragment = target.partition("#")
        linked = (document.parent / file_part).resolve() if file_part else document
        if not linked.exists() or ROOT not in (linked, *linked.parents):
            broken.append(f"{target}: no such file in the repository")
        elif fragment and linked.is_file() and fragment not in anchors(linked):
            broken.append(f"{target}: no heading #{fragment} in {linked.name}")
    assert broken == [], f"{document.relative_to(ROOT)}: " + "; ".join(broken)


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nSee [here](#title), [there](#nowhere), `[code](x.md)`.\n"
                    "```\n[fenced](y.md)\n```\n[gone](missing.md) and [web](https://e.org).\n")
    assert relative_links(page) == ["#title", "#nowhere", "missing.md"]
    assert anchors(page) == {"title"}


def _our_text_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in NOT_OURS]
        found += [Path(folder, name) for name in files if Path(name).suffix in TEXT_SUFFIXES]
    return found


def test_no_text_names_the_rule_book_outside_the_repository() -> None:
    this = Path(__file__).resolve()
    named = [path.relative_to(ROOT).as_posix() for path in _our_text_files()
             if path != this and ("GAMES.md" in (text := path.read_text(errors="replace"))
                                  or "../shared/" in text)]
    assert named == [], "the rules are in docs/rules/: " + ", ".join(named)


@pytest.mark.parametrize(("heading", "anchor"), [
    ("Matches: what alternates", "matches-what-alternates"),
    ("Kugamai, on a clock (1 minute + 1 second), positions",
     "kugamai-on-a-clock-1-minute--1-second-positions"),
    ("`mcts`", "mcts"),
    ("Dependencies, and why", "dependencies-and-why"),
])
def test_anchors_follow_github(heading: str, anchor: str) -> None:
    assert anchor_of(heading) == anchor
