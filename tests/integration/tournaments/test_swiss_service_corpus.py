"""The service's Swiss agrees with bbpPairings, through the service's own doors.

Each round R of a corpus tournament is cut from its file as a director's program saw it
before pairing R (``round_input``: earlier rounds, and R's byes and absences), imported
by the admin's TRF import service, and paired by the admin's "Pair round R" service
(``round_pair_next``) on PostgreSQL. The boards (first mover, second mover, by seed =
start rank, in board order), the pairing-allocated bye, or the verdict that no legal
pairing exists must be the reference program's. A sample that covers what the corpus
holds (first colour black1, Baku acceleration, forbidden pairs, double and single
forfeits, requested half-, full- and zero-point byes, absences, an unpairable round)
runs by default; every tournament of ``gen`` and ``sim`` with ``SWISS_FULL=1`` (``make
test-swiss-full``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from core.errors import ApplicationError
from matches.services.imports import tournament_import_trf
from tests.unit.pairing.swiss.corpus import DATA, read_expected, round_input, tournaments
from tournaments.models import ByeKind
from tournaments.services import round_pair_next

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SAMPLE = ("gen/gen11-0125", "sim/sim12-0033", "sim/sim12-0059", "sim/sim12-0038",
          "sim/sim12-0125")
FULL = os.environ.get("SWISS_FULL") == "1"


def service_pairs(actor: Any, club: Any, text: str) -> list[tuple[int, int]] | None:
    """Import ``text`` and pair its next round through the services: the pairs by seed,
    the pairing-allocated bye last as ``(seed, 0)``; None when no legal pairing exists."""
    tournament = tournament_import_trf(actor=actor, club=club, text=text, game="kugamai")
    try:
        round_ = round_pair_next(actor=actor, tournament=tournament, release=True)
    except ApplicationError as error:
        if "cannot be paired" in error.message:
            return None
        raise
    pairs: list[tuple[int, int]] = []
    for pairing in round_.pairings.select_related("entrant_a", "entrant_b").order_by("board"):
        if pairing.entrant_b is not None:
            pairs.append((pairing.entrant_a.seed or 0, pairing.entrant_b.seed or 0))
        elif pairing.bye_kind == ByeKind.PAIRING_ALLOCATED:
            pairs.append((pairing.entrant_a.seed or 0, 0))
    return pairs


def differences(actor: Any, club: Any, path: Path) -> list[str]:
    text = path.read_text()
    found = []
    for expected in read_expected(path.with_suffix(".pairings")):
        got = service_pairs(actor, club, round_input(text, expected.number))
        want = list(expected.pairs) if expected.pairs is not None else None
        if got != want:
            found.append(f"{path.name} round {expected.number}: expected {want}, got {got}")
    return found


@pytest.mark.parametrize("name", SAMPLE)
def test_every_round_paired_by_the_service_matches_the_reference(
        name: str, club_a: Any, organizer: Any) -> None:
    assert differences(organizer, club_a, DATA / f"{name}.trf") == []


if FULL:  # not even collected otherwise

    @pytest.mark.swiss_full
    @pytest.mark.parametrize("path", [path for kind in ("gen", "sim")
                                      for path in tournaments(kind)],
                             ids=lambda path: path.stem)
    def test_the_whole_corpus_paired_by_the_service_matches_the_reference(
            path: Path, club_a: Any, organizer: Any) -> None:
        assert differences(organizer, club_a, path) == []
