"""The plain tournament record that standings are computed from.

A record lists the entrants (id, optional rating) and, for each entrant, one entry per
round played so far: the opponent (or None), whether the entrant had the first move,
the result, and what kind of round it was (a game over the board, a forfeit, a bye).
Points come from the :class:`Scoring`, so the record never stores them twice. In a round
robin a ``pairing_bye`` is the rest round of an odd count: it scores
``tournaments.pairing.round_robin.REST_ROUND_POINTS`` (0, FIDE) unless the scoring says
otherwise; in a Swiss it scores a win.

Plain-data form (see :meth:`TournamentRecord.from_dict`)::

    {
      "system": "swiss",                      # or "round_robin"
      "rounds": 9,                            # planned rounds (optional)
      "scoring": {"win": 1, "draw": 0.5, "loss": 0, "pairing_bye": 1},
      "entrants": [
        {"id": "ana", "rating": 1850, "rounds": [
          {"opponent": "bo", "first_move": true, "result": "win"},
          {"kind": "half_bye"},
          {"opponent": "cy", "kind": "forfeit_loss"}
        ]},
        ...
      ]
    }
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, cast, get_args

from tournaments.pairing.round_robin import REST_ROUND_POINTS

EntrantId = str | int
Result = Literal["win", "draw", "loss"]
Kind = Literal[
    "played", "forfeit_win", "forfeit_loss", "pairing_bye", "full_bye", "half_bye", "zero_bye"
]
System = Literal["swiss", "round_robin"]

RESULTS: tuple[str, ...] = get_args(Result)
KINDS: tuple[str, ...] = get_args(Kind)
SYSTEMS: tuple[str, ...] = get_args(System)
BYE_KINDS = frozenset({"pairing_bye", "full_bye", "half_bye", "zero_bye"})
REQUESTED_BYES = frozenset({"half_bye", "zero_bye"})
FORFEITS = frozenset({"forfeit_win", "forfeit_loss"})
_FIXED_RESULT: dict[str, Result] = {
    "forfeit_win": "win",
    "forfeit_loss": "loss",
    "half_bye": "draw",
    "zero_bye": "loss",
    "full_bye": "win",
}
_MIRROR_RESULT: dict[str, Result] = {"win": "loss", "draw": "draw", "loss": "win"}


class StandingsError(ValueError):
    """The tournament record or the standings request is not usable as given."""


@dataclass(frozen=True)
class Scoring:
    """Points per outcome. Byes and forfeits have their own (configurable) values."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    pairing_bye: float = 1.0
    full_bye: float = 1.0
    half_bye: float = 0.5
    zero_bye: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise StandingsError(f"scoring {item.name!r} must be a number, got {value!r}")
        if not self.win > self.draw >= self.loss:
            raise StandingsError("scoring needs win > draw >= loss")

    def points(self, kind: str, result: str) -> float:
        if kind == "played":
            return float(getattr(self, result))
        return float(getattr(self, kind))

    def outcome_of(self, points: float) -> Result:
        """The result a number of points stands for (at least a win's worth is a win)."""
        if points >= self.win:
            return "win"
        if points >= self.draw and points > self.loss:
            return "draw"
        return "loss"

    @classmethod
    def from_dict(cls, document: Mapping[str, Any] | None, system: str = "swiss") -> Scoring:
        """Scoring from plain data; values left out follow the win, draw and loss given
        (a round robin's rest round: :data:`REST_ROUND_POINTS`)."""
        document = dict(document or {})
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(document) - known)
        if unknown:
            raise StandingsError(f"unknown scoring keys {unknown}; known: {sorted(known)}")
        win = document.get("win", 1.0)
        draw = document.get("draw", 0.5)
        loss = document.get("loss", 0.0)
        defaults = {
            "pairing_bye": REST_ROUND_POINTS if system == "round_robin" else win,
            "full_bye": win,
            "half_bye": draw,
            "zero_bye": loss,
            "forfeit_win": win,
            "forfeit_loss": loss,
        }
        return cls(**{**defaults, **document})

    def to_dict(self) -> dict[str, float]:
        return {item.name: getattr(self, item.name) for item in fields(self)}


@dataclass(frozen=True)
class RoundEntry:
    """One round of one entrant."""

    opponent: EntrantId | None
    first_move: bool | None
    result: Result
    kind: Kind = "played"

    @property
    def played(self) -> bool:
        """Played over the board."""
        return self.kind == "played"

    @property
    def scheduled(self) -> bool:
        """Paired against an opponent (played, or a forfeit either way)."""
        return self.opponent is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "opponent": self.opponent,
            "first_move": self.first_move,
            "result": self.result,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class Entrant:
    id: EntrantId
    rating: int | None
    rounds: tuple[RoundEntry, ...]


@dataclass(frozen=True)
class TournamentRecord:
    """Entrants in pairing-number order (their order breaks full ties in listings)."""

    entrants: tuple[Entrant, ...]
    system: System = "swiss"
    scoring: Scoring = Scoring()
    planned_rounds: int | None = None

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def rounds_played(self) -> int:
        return len(self.entrants[0].rounds) if self.entrants else 0

    @property
    def total_rounds(self) -> int:
        return max(self.planned_rounds or 0, self.rounds_played)

    def points(self, entry: RoundEntry) -> float:
        return self.scoring.points(entry.kind, entry.result)

    @classmethod
    def from_dict(cls, document: Mapping[str, Any]) -> TournamentRecord:
        if not isinstance(document, Mapping):
            raise StandingsError("a tournament record is a mapping")
        system = document.get("system", "swiss")
        if system not in SYSTEMS:
            raise StandingsError(f"unknown system {system!r}; use one of {list(SYSTEMS)}")
        raw_entrants = document.get("entrants")
        if not isinstance(raw_entrants, Sequence) or isinstance(raw_entrants, str):
            raise StandingsError("'entrants' must be a list")
        planned = document.get("rounds")
        if planned is not None and (isinstance(planned, bool) or not isinstance(planned, int)):
            raise StandingsError(f"'rounds' must be a whole number, got {planned!r}")
        scoring = Scoring.from_dict(document.get("scoring"), system)
        entrants = tuple(_entrant_from_dict(item, scoring) for item in raw_entrants)
        return cls(entrants, cast(System, system), scoring, planned)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "rounds": self.total_rounds,
            "scoring": self.scoring.to_dict(),
            "entrants": [
                {
                    "id": entrant.id,
                    "rating": entrant.rating,
                    "rounds": [entry.to_dict() for entry in entrant.rounds],
                }
                for entrant in self.entrants
            ],
        }


def _entrant_from_dict(item: Any, scoring: Scoring) -> Entrant:
    if not isinstance(item, Mapping) or "id" not in item:
        raise StandingsError("every entrant is a mapping with an 'id'")
    entrant_id = item["id"]
    if isinstance(entrant_id, bool) or not isinstance(entrant_id, str | int):
        raise StandingsError(f"entrant ids are strings or integers, got {entrant_id!r}")
    rating = item.get("rating")
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int)):
        raise StandingsError(f"entrant {entrant_id!r}: rating must be a whole number or null")
    raw_rounds = item.get("rounds", [])
    if not isinstance(raw_rounds, Sequence) or isinstance(raw_rounds, str):
        raise StandingsError(f"entrant {entrant_id!r}: 'rounds' must be a list")
    rounds = tuple(
        _entry_from_dict(entrant_id, number, raw, scoring)
        for number, raw in enumerate(raw_rounds, start=1)
    )
    return Entrant(entrant_id, rating, rounds)


def _entry_from_dict(entrant_id: EntrantId, number: int, raw: Any, scoring: Scoring) -> RoundEntry:
    where = f"entrant {entrant_id!r}, round {number}"
    if not isinstance(raw, Mapping):
        raise StandingsError(f"{where}: a round is a mapping")
    kind = raw.get("kind", "played")
    if kind not in KINDS:
        raise StandingsError(f"{where}: unknown kind {kind!r}; use one of {list(KINDS)}")
    if kind == "pairing_bye":
        result: Any = scoring.outcome_of(scoring.pairing_bye)
    else:
        result = _FIXED_RESULT.get(kind, raw.get("result"))
    if result not in RESULTS:
        raise StandingsError(f"{where}: result must be one of {list(RESULTS)}, got {result!r}")
    first_move = raw.get("first_move")
    if first_move is not None and not isinstance(first_move, bool):
        raise StandingsError(f"{where}: first_move must be true, false or null")
    return RoundEntry(raw.get("opponent"), first_move, result, kind)


def _validate(record: TournamentRecord) -> None:
    if record.system not in SYSTEMS:
        raise StandingsError(f"unknown system {record.system!r}; use one of {list(SYSTEMS)}")
    by_id: dict[EntrantId, Entrant] = {}
    for entrant in record.entrants:
        if entrant.id in by_id:
            raise StandingsError(f"entrant id {entrant.id!r} appears twice")
        by_id[entrant.id] = entrant
    rounds = record.rounds_played
    if record.planned_rounds is not None and record.planned_rounds < 0:
        raise StandingsError("the number of planned rounds cannot be negative")
    for entrant in record.entrants:
        if len(entrant.rounds) != rounds:
            raise StandingsError(
                f"entrant {entrant.id!r} has {len(entrant.rounds)} rounds, "
                f"others have {rounds}: every entrant needs one entry per round"
            )
        for number, entry in enumerate(entrant.rounds, start=1):
            _check_entry(by_id, entrant, number, entry)


def _check_entry(
    by_id: Mapping[EntrantId, Entrant], entrant: Entrant, number: int, entry: RoundEntry
) -> None:
    where = f"entrant {entrant.id!r}, round {number}"
    if entry.kind in BYE_KINDS:
        if entry.opponent is not None:
            raise StandingsError(f"{where}: a bye has no opponent")
        return
    if entry.opponent is None:
        raise StandingsError(f"{where}: a {entry.kind.replace('_', ' ')} needs an opponent")
    if entry.opponent == entrant.id:
        raise StandingsError(f"{where}: an entrant cannot meet itself")
    opponent = by_id.get(entry.opponent)
    if opponent is None:
        raise StandingsError(f"{where}: unknown opponent {entry.opponent!r}")
    mirror = opponent.rounds[number - 1]
    if mirror.opponent != entrant.id:
        raise StandingsError(
            f"{where}: paired with {opponent.id!r}, whose round {number} says {mirror.opponent!r}"
        )
    expected_kinds = {
        "played": {"played"},
        "forfeit_win": {"forfeit_loss"},
        "forfeit_loss": {"forfeit_win", "forfeit_loss"},
    }[entry.kind]
    if mirror.kind not in expected_kinds:
        raise StandingsError(
            f"{where}: {entry.kind.replace('_', ' ')} against {opponent.id!r}, "
            f"who has {mirror.kind.replace('_', ' ')}"
        )
    if entry.kind == "played" and mirror.result != _MIRROR_RESULT[entry.result]:
        raise StandingsError(
            f"{where}: result {entry.result} against {opponent.id!r}, who has {mirror.result}"
        )
    if (
        entry.first_move is not None
        and mirror.first_move is not None
        and entry.first_move == mirror.first_move
    ):
        raise StandingsError(f"{where}: both {entrant.id!r} and {opponent.id!r} moved first")
