"""The Swiss agreement corpus: TRF files of whole tournaments and, per round, the pairing
that the reference program (bbpPairings, FIDE Dutch 2025) gives for it.

``tests/data/swiss/<set>/<name>.trf`` holds a tournament with every round played;
``<name>.pairings`` holds, for each round, the reference output for the file cut at
that round (``round_input``): the pair count and one ``white black`` line per board
(``player 0`` for the pairing-allocated bye), or ``unpairable`` when the program found
no legal pairing. ``make_corpus.py`` beside the data rebuilds both from the program.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "data" / "swiss"
ROUND_START = 89
ROUND_WIDTH = 10
WIN_CODES = frozenset("1W+FU")
DRAW_CODES = frozenset("=DH")


@dataclass(frozen=True)
class ExpectedRound:
    number: int
    pairs: tuple[tuple[int, int], ...] | None  # None: no legal pairing exists


def _blocks(line: str) -> list[str]:
    blocks = []
    offset = ROUND_START
    while offset < len(line):
        blocks.append(line[offset : offset + ROUND_WIDTH].ljust(ROUND_WIDTH))
        offset += ROUND_WIDTH
    return blocks


def is_absence(block: str) -> bool:
    """A round entry that is decided before pairing: a requested bye or an absence."""
    opponent = block[2:6].strip()
    result = block[9]
    return opponent in ("", "0000") and result not in ("U", "+") and block.strip() != ""


def round_input(text: str, round_number: int) -> str:
    """The file as it stood when round ``round_number`` was paired.

    Rounds before it are kept; of that round only absences and requested byes (which a
    director enters before pairing) are kept; the points column is the score so far.
    """
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not raw.startswith("001"):
            lines.append(raw)
            continue
        blocks = _blocks(raw)
        kept = blocks[: round_number - 1]
        while len(kept) < round_number - 1:
            kept.append(" " * ROUND_WIDTH)
        points = 0
        for block in kept:
            points += 2 if block[9] in WIN_CODES else 1 if block[9] in DRAW_CODES else 0
        if len(blocks) >= round_number and is_absence(blocks[round_number - 1]):
            kept.append(blocks[round_number - 1])
        head = raw[:ROUND_START].ljust(ROUND_START)
        head = head[:80] + f"{points / 2:4.1f}" + head[84:]
        lines.append((head + "".join(kept)).rstrip())
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def read_expected(path: Path) -> list[ExpectedRound]:
    rounds: list[ExpectedRound] = []
    number = 0
    pairs: list[tuple[int, int]] = []
    unpairable = False

    def close() -> None:
        if number:
            rounds.append(ExpectedRound(number, None if unpairable else tuple(pairs)))

    for line in path.read_text().splitlines():
        if line.startswith("# round "):
            close()
            words = line.split()
            number = int(words[2])
            pairs = []
            unpairable = len(words) > 3 and words[3] == "unpairable"
            count_seen = False
            continue
        if not line.strip():
            continue
        words = line.split()
        if len(words) == 1 and not count_seen:
            count_seen = True
            continue
        pairs.append((int(words[0]), int(words[1])))
    close()
    return rounds


def tournaments(kind: str) -> list[Path]:
    return sorted((DATA / kind).glob("*.trf"))


def size_of(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("001"))
