"""Turn database rows into the pure cores' inputs, and their answers back.

Nothing here writes; services and selectors load rows, call these functions, and save or
return what comes back. The functions take plain sequences of model instances whose
related objects are already loaded, so they issue no queries of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from math import gcd
from typing import TYPE_CHECKING, Any, TypedDict

from django.utils import translation

from players.models import Player
from tournaments.models import (
    PLAYED_OUTCOMES,
    ByeKind,
    Entrant,
    FirstColour,
    Outcome,
    Pairing,
    Tournament,
)
from tournaments.systems import Entry, PastPairing, Settings, State

if TYPE_CHECKING:
    from tournaments.pairing.knockout import Bracket

_UNITS = (1, 2, 4, 5, 10, 20, 25, 50, 100)


@dataclass(frozen=True)
class Scoring:
    """Points per result, as the tournament sets them."""

    win: Decimal = Decimal("1")
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal("0")
    bye: Decimal = Decimal("1")

    @classmethod
    def of(cls, tournament: Tournament) -> Scoring:
        """``points_bye`` is a Swiss pairing-allocated bye's; the system says what a bye
        scores (a round robin's rest round: ``REST_ROUND_POINTS``, 0, FIDE)."""
        bye = tournament.system.bye_points(Decimal(tournament.points_bye))
        return cls(
            Decimal(tournament.points_win), Decimal(tournament.points_draw),
            Decimal(tournament.points_loss), Decimal(bye),
        )

    def unit(self) -> int:
        """The smallest multiplier that makes every point value a whole number."""
        values = (self.win, self.draw, self.loss, self.bye)
        for unit in _UNITS:
            if all((value * unit) == (value * unit).to_integral_value() for value in values):
                return unit
        return 100

    def bye_points(self, kind: str) -> Decimal:
        return {
            ByeKind.PAIRING_ALLOCATED: self.bye,
            ByeKind.FULL_POINT: self.win,
            ByeKind.HALF_POINT: self.draw,
            ByeKind.ZERO: self.loss,
        }.get(ByeKind(kind), self.loss)


def pairing_points(pairing: Pairing, scoring: Scoring) -> tuple[Decimal, Decimal] | None:
    """Points earned by A and by B (B's is 0 for a bye), or None while pending."""
    outcome = pairing.outcome
    if outcome == Outcome.PENDING:
        return None
    if outcome == Outcome.BYE:
        return scoring.bye_points(pairing.bye_kind), Decimal(0)
    return {
        Outcome.A_WINS: (scoring.win, scoring.loss),
        Outcome.A_FORFEIT_WIN: (scoring.win, scoring.loss),
        Outcome.B_WINS: (scoring.loss, scoring.win),
        Outcome.B_FORFEIT_WIN: (scoring.loss, scoring.win),
        Outcome.DRAW: (scoring.draw, scoring.draw),
        Outcome.DOUBLE_FORFEIT: (scoring.loss, scoring.loss),
    }[Outcome(outcome)]


def pairing_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Entrants in pairing-number order: highest rating first, then seed, then entry."""
    return sorted(
        entrants,
        key=lambda e: (-e.rating, e.seed if e.seed is not None else 1 << 30, e.pk),
    )


def bracket_of(tournament: Tournament, pairings: Iterable[Pairing],
               seed_of: dict[int, int]) -> Bracket:
    """The knockout bracket of the entrants seeded ``seed_of`` (by entrant id) with every
    decided match of ``pairings`` reported in it."""
    entries = [Entry(pk, seed) for pk, seed in seed_of.items()]
    return tournament.system.bracket(system_state(tournament, entries, pairings))


def system_entries(entrants: Iterable[Entrant]) -> list[Entry]:
    """Entrants as the tournament systems see them."""
    return [Entry(e.pk, e.seed, e.joined_round, e.withdrawn_from_round) for e in entrants]


def system_settings(tournament: Tournament) -> Settings:
    return Settings(tournament.rounds_planned, tournament.third_place_match,
                    tournament.grand_final_reset)


def system_state(tournament: Tournament, entries: Iterable[Entry], pairings: Iterable[Pairing],
                 paired_rounds: int = 0,
                 pairing_input: Callable[[int], Any] | None = None) -> State:
    """The tournament as its system reads it (``tournaments.systems.State``)."""
    return State(system_settings(tournament), tuple(entries),
                 tuple(PastPairing(p.entrant_a_id, p.entrant_b_id, p.bracket_match,
                                   knockout_winner(p)) for p in pairings),
                 paired_rounds, pairing_input)


def knockout_winner(pairing: Pairing) -> int | None:
    """The entrant id that goes through from a knockout pairing, if decided."""
    if pairing.outcome in (Outcome.A_WINS, Outcome.A_FORFEIT_WIN, Outcome.BYE):
        return pairing.entrant_a_id
    if pairing.outcome in (Outcome.B_WINS, Outcome.B_FORFEIT_WIN):
        return pairing.entrant_b_id
    return None


def tiebreak_keys() -> set[str] | None:
    """The keys of the standings tie-break registry (None while it is not installed)."""
    try:
        from tournaments.standings.tiebreaks import REGISTRY
    except ImportError:
        return None
    return set(REGISTRY)


_BYE_KIND_TO_RECORD = {
    ByeKind.PAIRING_ALLOCATED: "pairing_bye",
    ByeKind.FULL_POINT: "full_bye",
    ByeKind.HALF_POINT: "half_bye",
    ByeKind.ZERO: "zero_bye",
}
_RESULT_FOR_A = {
    Outcome.A_WINS: ("played", "win", "played", "loss"),
    Outcome.B_WINS: ("played", "loss", "played", "win"),
    Outcome.DRAW: ("played", "draw", "played", "draw"),
    Outcome.A_FORFEIT_WIN: ("forfeit_win", "win", "forfeit_loss", "loss"),
    Outcome.B_FORFEIT_WIN: ("forfeit_loss", "loss", "forfeit_win", "win"),
    Outcome.DOUBLE_FORFEIT: ("forfeit_loss", "loss", "forfeit_loss", "loss"),
}


def completed_rounds(rounds: Sequence[Sequence[Pairing]]) -> int:
    """How many rounds, from the first, have every result in."""
    done = 0
    for pairings in rounds:
        if any(p.outcome == Outcome.PENDING for p in pairings):
            break
        done += 1
    return done


def standings_record(
    tournament: Tournament, entrants: Sequence[Entrant], rounds: Sequence[Sequence[Pairing]]
) -> Any:
    """The standings core's :class:`TournamentRecord` over the completed rounds.

    Entrant ids are the database ids. A round an entrant did not play (not yet entered,
    withdrawn, absent) counts as a zero-point bye, as in a TRF file.
    """
    from tournaments.standings import Entrant as RecordEntrant
    from tournaments.standings import RoundEntry as RecordEntry
    from tournaments.standings import Scoring as RecordScoring
    from tournaments.standings import TournamentRecord

    scoring = Scoring.of(tournament)
    record_scoring = RecordScoring(
        win=float(scoring.win), draw=float(scoring.draw), loss=float(scoring.loss),
        pairing_bye=float(scoring.bye), full_bye=float(scoring.win),
        half_bye=float(scoring.draw), zero_bye=float(scoring.loss),
        forfeit_win=float(scoring.win), forfeit_loss=float(scoring.loss),
    )
    ordered = pairing_order(entrants)
    entries: dict[int, list[Any]] = {e.pk: [] for e in ordered}
    absent = RecordEntry(None, None, "loss", "zero_bye")
    for pairings in rounds[: completed_rounds(rounds)]:
        seen: set[int] = set()
        for p in pairings:
            a, b = p.entrant_a_id, p.entrant_b_id
            seen.add(a)
            if b is None:
                kind = _BYE_KIND_TO_RECORD[ByeKind(p.bye_kind)]
                result = record_scoring.outcome_of(record_scoring.points(kind, "loss"))
                entries[a].append(RecordEntry(None, None, result, kind))  # type: ignore[arg-type]
                continue
            seen.add(b)
            kind_a, result_a, kind_b, result_b = _RESULT_FOR_A[Outcome(p.outcome)]
            played = kind_a == "played"
            entries[a].append(RecordEntry(b, True if played else None, result_a, kind_a))  # type: ignore[arg-type]
            entries[b].append(RecordEntry(a, False if played else None, result_b, kind_b))  # type: ignore[arg-type]
        for entrant_id, items in entries.items():
            if entrant_id not in seen:
                items.append(absent)
    system = tournament.system.record_system
    return TournamentRecord(
        entrants=tuple(
            RecordEntrant(e.pk, e.rating or None, tuple(entries[e.pk])) for e in ordered
        ),
        system=system,  # type: ignore[arg-type]
        scoring=record_scoring,
        planned_rounds=tournament.rounds_planned,
    )


_TRF_BYE = {
    ByeKind.PAIRING_ALLOCATED: "U",
    ByeKind.FULL_POINT: "F",
    ByeKind.HALF_POINT: "H",
    ByeKind.ZERO: "Z",
}
_TRF_RESULT = {  # outcome -> (code for A, code for B)
    Outcome.A_WINS: ("1", "0"),
    Outcome.B_WINS: ("0", "1"),
    Outcome.DRAW: ("=", "="),
    Outcome.A_FORFEIT_WIN: ("+", "-"),
    Outcome.B_FORFEIT_WIN: ("-", "+"),
    Outcome.DOUBLE_FORFEIT: ("-", "-"),
    Outcome.PENDING: (" ", " "),
}


def trf_document(
    tournament: Tournament, entrants: Sequence[Entrant], rounds: Sequence[Sequence[Pairing]],
    *, forbidden: Iterable[tuple[int, int]] = (),
    next_round_byes: Mapping[int, str] | None = None,
) -> Any:
    """The tournament as a TRF-16 document (start rank = pairing order at export).

    A Swiss carries what its pairing reads: the first colour (``XXC white1|black1``, none
    while it is still to be drawn by lot), the pairing system with Baku acceleration
    (``192 FIDE_DUTCH_2025[_BAKU]``), the point values (``BBW``..``BBU``, when not the
    default ones), and ``forbidden`` pairs of entrant ids (``XXP``). ``next_round_byes``
    (entrant id -> bye kind) fills the round after ``rounds`` with the byes and absences
    entered before its pairing, as FIDE programs read them: the document
    ``tournaments.trf.pair_document`` pairs for the service.
    """
    from tournaments.trf import TrfPlayer, TrfRound, TrfTournament

    scoring = Scoring.of(tournament)
    ordered = pairing_order(entrants)
    rank_of = {e.pk: rank for rank, e in enumerate(ordered, start=1)}
    blocks: dict[int, list[Any]] = {e.pk: [] for e in ordered}
    points: dict[int, Decimal] = {e.pk: Decimal(0) for e in ordered}
    for pairings in rounds:
        seen: set[int] = set()
        for p in pairings:
            a, b = p.entrant_a_id, p.entrant_b_id
            earned = pairing_points(p, scoring)
            seen.add(a)
            if earned is not None:
                points[a] += earned[0]
            if b is None:
                blocks[a].append(TrfRound(None, "-", _TRF_BYE[ByeKind(p.bye_kind)]))
                continue
            seen.add(b)
            if earned is not None:
                points[b] += earned[1]
            code_a, code_b = _TRF_RESULT[Outcome(p.outcome)]
            played = p.outcome in PLAYED_OUTCOMES or p.outcome == Outcome.PENDING
            blocks[a].append(TrfRound(rank_of[b], "w" if played else "-", code_a))
            blocks[b].append(TrfRound(rank_of[a], "b" if played else "-", code_b))
        for entrant_id, items in blocks.items():
            if entrant_id not in seen:
                items.append(TrfRound(None, "-", "Z"))
    for entrant_id, kind in (next_round_byes or {}).items():
        blocks[entrant_id].append(TrfRound(None, "-", _TRF_BYE[ByeKind(kind)]))
    with translation.override(None):  # the file is read by programs: English labels
        english_format = str(tournament.get_format_display())
    header = [
        f"012 {tournament.name}",
        f"022 {tournament.club.name}",
        *([f"042 {tournament.starts_on:%Y/%m/%d}"] if tournament.starts_on else []),
        *([f"052 {tournament.ends_on:%Y/%m/%d}"] if tournament.ends_on else []),
        f"062 {len(ordered)}",
        f"092 {english_format}",
        *([f"102 {tournament.chief_arbiter}"] if tournament.chief_arbiter else []),
    ]
    total = tournament.rounds_planned or len(rounds)
    trailer = [f"XXR {total}"] if total else []
    if tournament.system.pairs_by_trf:
        trailer.extend(_swiss_lines(tournament, scoring))
        trailer.extend(
            f"XXP {rank_of[low]} {rank_of[high]}" for low, high in forbidden
            if low in rank_of and high in rank_of
        )
    players = [
        TrfPlayer(
            start_rank=rank_of[e.pk], name=e.name, rating=e.rating or None,
            points=f"{points[e.pk]:.1f}", rounds=tuple(blocks[e.pk]),
            **_trf_person(e.player if e.player_id else None),
        )
        for e in ordered
    ]
    return TrfTournament(header, players, trailer)


class _TrfPerson(TypedDict, total=False):
    sex: str
    title: str
    federation: str
    fide_id: str
    birth_date: str


def _trf_person(player: Player | None) -> _TrfPerson:
    """A player's own 001 columns: sex, title, federation, FIDE ID and birth date (TRF
    writes it YYYY/MM/DD; only the year is known here)."""
    if player is None:
        return {}
    return _TrfPerson(sex=player.sex or " ", title=player.title, federation=player.federation,
                      fide_id=player.fide_id,
                      birth_date=str(player.birth_year) if player.birth_year else "")


_XXC = {FirstColour.WHITE: "XXC white1", FirstColour.BLACK: "XXC black1"}
_DEFAULT_POINTS = ("1.0", "0.5", "0.0", "0.0", "0.0", "1.0")


def _swiss_lines(tournament: Tournament, scoring: Scoring) -> list[str]:
    """The Swiss settings as the TRF extension lines bbpPairings and ``trf.py`` read."""
    lines = []
    if tournament.first_colour in _XXC:
        lines.append(_XXC[FirstColour(tournament.first_colour)])
    system = "FIDE_DUTCH_2025_BAKU" if tournament.baku_acceleration else "FIDE_DUTCH_2025"
    lines.append(f"192 {system}")
    # TRF points are tenths: finer values are all scaled alike (pairing reads ratios only)
    scale = scoring.unit() // gcd(scoring.unit(), 10)
    values = [scoring.win, scoring.draw, scoring.loss, scoring.loss, scoring.loss, scoring.bye]
    texts = tuple(f"{value * scale:.1f}" for value in values)
    if texts != _DEFAULT_POINTS:
        lines.extend(f"{code} {text:>4}" for code, text in
                     zip(("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"), texts, strict=True))
    return lines
