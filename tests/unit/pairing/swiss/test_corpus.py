"""Agreement with the FIDE-endorsed program bbpPairings on the committed corpus.

Every round of every tournament file is paired again from the file cut at that round
(what a director's program sees) and must give the reference pairing: the same pairs,
the same colours, the same board order and the same bye, or the same verdict that no
legal pairing exists. ``tests/data/swiss/gen`` and ``sim`` run in the default suite;
``tests/data/swiss/full`` (thousands of rounds) runs with ``make test-swiss-full``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.pairing.swiss.corpus import read_expected, round_input, tournaments
from tournaments.trf import UnpairableError, pair_trf

DEFAULT_SETS = ("gen", "sim")


def differences(path: Path) -> list[str]:
    text = path.read_text()
    found = []
    for expected in read_expected(path.with_suffix(".pairings")):
        cut = round_input(text, expected.number)
        try:
            got: list[tuple[int, int]] | None = pair_trf(cut)
        except UnpairableError:
            got = None
        want = list(expected.pairs) if expected.pairs is not None else None
        if got != want:
            found.append(f"{path.name} round {expected.number}: expected {want}, got {got}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [path for kind in DEFAULT_SETS for path in tournaments(kind)],
    ids=lambda path: path.stem,
)
def test_every_round_matches_the_reference(path: Path) -> None:
    assert differences(path) == []


def test_the_corpus_is_there() -> None:
    counts = {kind: len(tournaments(kind)) for kind in DEFAULT_SETS}
    assert all(count >= 100 for count in counts.values()), counts


@pytest.mark.swiss_full  # not collected unless SWISS_FULL=1 (tests/conftest.py)
@pytest.mark.parametrize("path", tournaments("full"), ids=lambda path: path.stem)
def test_full_corpus_matches_the_reference(path: Path) -> None:
    assert differences(path) == []
