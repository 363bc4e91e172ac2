"""Knockout brackets: single and double elimination, as plain data.

Entrants are known by their seed, 1 (strongest) .. n. The bracket has ``size`` slots,
the next power of two; seeds above ``n`` do not exist, so the top seeds meet nobody in
round 1 and move on at once. Standard seeding places the pairs of round 1 as
``1 v 16, 8 v 9, 5 v 12, 4 v 13, 3 v 14, 6 v 11, 7 v 10, 2 v 15`` (for 16), so that seeds
1 and 2 can only meet in the final, and 1..4 only in the semi-finals.

Every match names where its two slots come from: a seed, the winner of a match, or the
loser of a match. A slot holds a seed once known, ``BYE`` (0) when nobody comes from
there (a missing seed, or the loser of a match that was a bye itself), or None while
still open. A match with a bye on either side is decided at once (``status = "bye"``).

Double elimination: losers of the winners' bracket ("W") drop into the losers' bracket
("L"); a second loss eliminates. Losers' round 1 pairs the losers of winners' round 1;
each even losers' round meets the survivors with the losers of the next winners' round,
in reversed order the first time, halves swapped the next time, and so on alternately,
which keeps rematches late; each odd round after the first pairs survivors among
themselves. The grand final ("GF") sets the winners' champion against the losers'
champion; with ``grand_final_reset`` a second final ("GF2") is played only if the
losers' champion wins the first one.

>>> bracket = Bracket.single(4, third_place=True)
>>> [m.id for m in bracket.playable()]
['W1-1', 'W1-2']
>>> bracket.report("W1-1", 1); bracket.report("W1-2", 3)
>>> [m.id for m in bracket.playable()]
['W2-1', '3RD']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from games.i18n import N_

BYE = 0
"""A slot that nobody fills."""

BracketName = Literal["W", "L", "GF", "3rd"]
SourceKind = Literal["seed", "winner", "loser"]
MatchStatus = Literal["pending", "ready", "done", "bye", "void"]
Format = Literal["single", "double"]

_FORMATS = ("single", "double")
_MAX_ENTRANTS = 1024


class KnockoutError(ValueError):
    """A bracket cannot be built, or a result cannot be recorded, as asked."""


@dataclass(frozen=True)
class Source:
    """Where a slot's entrant comes from."""

    kind: SourceKind
    seed: int = 0
    match: str = ""

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "seed":
            return {"from": "seed", "seed": self.seed}
        return {"from": self.kind, "match": self.match}


@dataclass
class Match:
    """One match of the bracket; ``entrants`` and the outcome are filled as play goes on."""

    id: str
    bracket: BracketName
    round: int
    index: int
    sources: tuple[Source, Source]
    entrants: list[int | None] = field(default_factory=lambda: [None, None])
    winner: int | None = None
    loser: int | None = None
    status: MatchStatus = "pending"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "bracket": self.bracket,
            "round": self.round,
            "index": self.index,
            "slots": [source.to_dict() for source in self.sources],
            "entrants": list(self.entrants),
            "winner": self.winner,
            "loser": self.loser,
            "status": self.status,
        }


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket position order: ``[1, 16, 8, 9, 5, 12, ...]`` for 16."""
    if size < 1 or size & (size - 1):
        raise KnockoutError(f"a bracket size is a power of two, got {size}")
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        next_order: list[int] = []
        for position, seed in enumerate(order):
            partner = doubled + 1 - seed
            next_order.extend((seed, partner) if position % 2 == 0 else (partner, seed))
        order = next_order
    for position in range(0, size - 1, 2):  # the better seed takes the first slot
        if order[position] > order[position + 1]:
            order[position], order[position + 1] = order[position + 1], order[position]
    return order


def _bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


class Bracket:
    """A single or double elimination bracket over seeds 1..n.

    Build one with :meth:`single` or :meth:`double`; record results with
    :meth:`report`; read it with :meth:`playable`, :meth:`placement`, :meth:`to_dict`.
    """

    def __init__(
        self,
        entrants: int,
        format: Format = "single",
        third_place: bool = False,
        grand_final_reset: bool = True,
    ) -> None:
        if isinstance(entrants, bool) or not isinstance(entrants, int):
            raise KnockoutError(f"the number of entrants must be a whole number, got {entrants!r}")
        if not 2 <= entrants <= _MAX_ENTRANTS:
            raise KnockoutError(
                f"a knockout needs between 2 and {_MAX_ENTRANTS} entrants, got {entrants}"
            )
        if format not in _FORMATS:
            raise KnockoutError(f"unknown knockout format {format!r}; use 'single' or 'double'")
        if format == "double" and third_place:
            raise KnockoutError("a third-place match only exists in single elimination")
        self.entrants = entrants
        self.format: Format = format
        self.size = _bracket_size(entrants)
        self.rounds = self.size.bit_length() - 1
        self.third_place = third_place and self.rounds >= 2
        self.grand_final_reset = grand_final_reset and format == "double"
        self.matches: dict[str, Match] = {}
        self._results: dict[str, int] = {}
        self._build()
        self._resolve()

    @classmethod
    def single(cls, entrants: int, third_place: bool = False) -> Bracket:
        return cls(entrants, "single", third_place=third_place)

    @classmethod
    def double(cls, entrants: int, grand_final_reset: bool = True) -> Bracket:
        return cls(entrants, "double", grand_final_reset=grand_final_reset)

    # -- construction -------------------------------------------------------------

    def _add(
        self,
        match_id: str,
        bracket: BracketName,
        round_: int,
        index: int,
        first: Source,
        second: Source,
    ) -> str:
        self.matches[match_id] = Match(match_id, bracket, round_, index, (first, second))
        return match_id

    def _build(self) -> None:
        order = seeding_order(self.size)
        previous = [Source("seed", seed=seed) for seed in order]
        winners_rounds: list[list[str]] = []
        for round_ in range(1, self.rounds + 1):
            ids = [
                self._add(
                    f"W{round_}-{i + 1}", "W", round_, i + 1, previous[2 * i], previous[2 * i + 1]
                )
                for i in range(len(previous) // 2)
            ]
            winners_rounds.append(ids)
            previous = [Source("winner", match=match_id) for match_id in ids]
        final = winners_rounds[-1][0]
        if self.format == "single":
            if self.third_place:
                semis = winners_rounds[-2]
                self._add(
                    "3RD",
                    "3rd",
                    self.rounds,
                    1,
                    Source("loser", match=semis[0]),
                    Source("loser", match=semis[1]),
                )
            return
        losers_champion = self._build_losers_bracket(winners_rounds)
        self._add("GF", "GF", 1, 1, Source("winner", match=final), losers_champion)
        if self.grand_final_reset:
            self._add("GF2", "GF", 2, 1, Source("loser", match="GF"), Source("winner", match="GF"))

    def _build_losers_bracket(self, winners_rounds: list[list[str]]) -> Source:
        if self.rounds == 1:
            return Source("loser", match=winners_rounds[0][0])
        first = winners_rounds[0]
        survivors = [
            Source(
                "winner",
                match=self._add(
                    f"L1-{i + 1}",
                    "L",
                    1,
                    i + 1,
                    Source("loser", match=first[2 * i]),
                    Source("loser", match=first[2 * i + 1]),
                ),
            )
            for i in range(len(first) // 2)
        ]
        losers_round = 1
        for drop, winners_round in enumerate(winners_rounds[1:], start=1):
            dropped = [Source("loser", match=match_id) for match_id in winners_round]
            dropped = _drop_order(dropped, drop)
            losers_round += 1
            survivors = [
                Source(
                    "winner",
                    match=self._add(
                        f"L{losers_round}-{i + 1}", "L", losers_round, i + 1, survivor, faller
                    ),
                )
                for i, (survivor, faller) in enumerate(zip(survivors, dropped, strict=True))
            ]
            if len(survivors) > 1:
                losers_round += 1
                survivors = [
                    Source(
                        "winner",
                        match=self._add(
                            f"L{losers_round}-{i + 1}",
                            "L",
                            losers_round,
                            i + 1,
                            survivors[2 * i],
                            survivors[2 * i + 1],
                        ),
                    )
                    for i in range(len(survivors) // 2)
                ]
        return survivors[0]

    # -- play ---------------------------------------------------------------------

    def _entrant_from(self, source: Source) -> int | None:
        if source.kind == "seed":
            return source.seed if source.seed <= self.entrants else BYE
        match = self.matches[source.match]
        if match.status == "void":
            return BYE
        return match.winner if source.kind == "winner" else match.loser

    def _resolve(self) -> None:
        """Recompute every slot and outcome from the seeds and the recorded winners."""
        for match in self.matches.values():  # creation order is a topological order
            match.entrants = [self._entrant_from(source) for source in match.sources]
            match.winner = match.loser = None
            first, second = match.entrants
            if first is None or second is None:
                match.status = "pending"
            elif match.id == "GF2" and self._reset_not_needed():
                match.status = "void"
            elif first == BYE or second == BYE:
                match.status = "bye"
                match.winner = first if second == BYE else second
                match.loser = BYE
            elif match.id in self._results:
                match.status = "done"
                match.winner = self._results[match.id]
                match.loser = second if match.winner == first else first
            else:
                match.status = "ready"

    def _reset_not_needed(self) -> bool:
        final = self.matches["GF"]
        return final.status in ("done", "bye") and final.winner == final.entrants[0]

    def report(self, match_id: str, winner: int) -> None:
        """Record that seed ``winner`` won match ``match_id`` (which must be playable)."""
        match = self.matches.get(match_id)
        if match is None:
            raise KnockoutError(f"there is no match {match_id!r} in this bracket")
        if match.status != "ready":
            raise KnockoutError(f"match {match_id} cannot take a result: it is {match.status}")
        if winner not in match.entrants:
            raise KnockoutError(
                f"seed {winner} does not play in match {match_id} "
                f"(seeds {match.entrants[0]} and {match.entrants[1]})"
            )
        self._results[match_id] = winner
        self._resolve()

    def undo(self, match_id: str) -> None:
        """Withdraw the result of ``match_id``, if no later result depends on it."""
        if match_id not in self._results:
            raise KnockoutError(f"match {match_id!r} has no recorded result")
        saved = dict(self._results)
        del self._results[match_id]
        self._resolve()
        lost = [m for m in saved if m != match_id and self.matches[m].status != "done"]
        if lost:
            self._results = saved
            self._resolve()
            raise KnockoutError(
                f"the result of {match_id} cannot be withdrawn: {', '.join(lost)} depend on it"
            )

    def playable(self) -> list[Match]:
        """Matches whose two entrants are known and whose result is awaited."""
        return [m for m in self.matches.values() if m.status == "ready"]

    @property
    def finished(self) -> bool:
        return not any(m.status in ("pending", "ready") for m in self.matches.values())

    @property
    def champion(self) -> int | None:
        if not self.finished:
            return None
        last = self.matches["GF2"] if self.grand_final_reset else None
        if last is None or last.status == "void":
            last = self.matches["GF"] if self.format == "double" else self._final()
        return last.winner

    def _final(self) -> Match:
        return self.matches[f"W{self.rounds}-1"]

    # -- names --------------------------------------------------------------------

    def label(self, match_id: str) -> str:
        """What a director calls the match: "Final", "Semi-final 2", "Third-place match",
        "Winners' round 1, match 3", "Losers' final", "Grand final (reset)"...

        >>> bracket = Bracket.single(8, third_place=True)
        >>> [bracket.label(m) for m in ("W1-4", "W2-1", "W3-1", "3RD")]
        ['Quarter-final 4', 'Semi-final 1', 'Final', 'Third-place match']
        """
        template, params = self.label_template(match_id)
        return template % params

    def label_template(self, match_id: str) -> tuple[str, dict[str, int]]:
        """:meth:`label` as a marked template and its parameters (a shell translates the
        template, then fills it in)."""
        match = self.matches.get(match_id)
        if match is None:
            raise KnockoutError(f"there is no match {match_id!r} in this bracket")
        numbers = {"round": match.round, "match": match.index}
        if match.bracket == "3rd":
            return N_("Third-place match"), {}
        if match.bracket == "GF":
            return (N_("Grand final (reset)") if match.round == 2 else N_("Grand final")), {}
        if match.bracket == "L":
            last = max(m.round for m in self.matches.values() if m.bracket == "L")
            if match.round == last:
                return N_("Losers' final"), {}
            return N_("Losers' round %(round)d, match %(match)d"), numbers
        stage = self.rounds - match.round
        if self.format == "double":
            names = {0: N_("Winners' final"), 1: N_("Winners' semi-final %(match)d"),
                     2: N_("Winners' quarter-final %(match)d")}
            other = N_("Winners' round %(round)d, match %(match)d")
        else:
            names = {0: N_("Final"), 1: N_("Semi-final %(match)d"),
                     2: N_("Quarter-final %(match)d")}
            other = N_("Round %(round)d, match %(match)d")
        return names.get(stage, other), numbers

    # -- placement ----------------------------------------------------------------

    def _elimination_stage(self, match: Match) -> float:
        """How late a loss in ``match`` eliminates: larger is a better place."""
        if match.bracket == "W":
            return float(match.round)
        if match.bracket == "3rd":
            return self.rounds - 0.5
        if match.bracket == "L":
            return float(match.round)
        return float(2 * self.rounds)  # grand final

    def placement(self) -> dict[int, int | None]:
        """Final place per seed: shared for entrants knocked out at the same stage.

        An entrant still in the running has None. Places of those already out are
        final: everyone still in will finish above them.
        """
        stage: dict[int, float] = {}
        semi_round = self.rounds - 1
        for match in self.matches.values():
            winner, loser = match.winner, match.loser
            if match.bracket == "3rd" and match.status in ("done", "bye") and winner:
                stage[winner] = self.rounds - 0.25
            if match.status != "done" or not loser:
                continue
            if self.format == "double" and match.bracket == "W":
                continue  # drops into the losers' bracket
            if self.third_place and match.bracket == "W" and match.round == semi_round:
                continue  # plays on for third place
            if match.id == "GF" and self.grand_final_reset and winner != match.entrants[0]:
                continue  # the winners' champion gets a second chance
            stage[loser] = self._elimination_stage(match)
        champion = self.champion
        places: dict[int, int | None] = {}
        alive = self.entrants - len(stage)
        for seed in range(1, self.entrants + 1):
            if seed == champion:
                places[seed] = 1
            elif seed in stage:
                better = alive + sum(1 for s in stage.values() if s > stage[seed])
                places[seed] = better + 1
            else:
                places[seed] = None
        return places

    # -- serialisation --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "entrants": self.entrants,
            "size": self.size,
            "third_place": self.third_place,
            "grand_final_reset": self.grand_final_reset,
            "finished": self.finished,
            "champion": self.champion,
            "matches": [match.to_dict() for match in self.matches.values()],
        }

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> Bracket:
        """Rebuild a bracket from :meth:`to_dict` output, replaying its recorded results."""
        if not isinstance(document, dict):
            raise KnockoutError("a bracket document is a mapping")
        try:
            bracket = cls(
                document["entrants"],
                document.get("format", "single"),
                third_place=bool(document.get("third_place", False)),
                grand_final_reset=bool(document.get("grand_final_reset", True)),
            )
            matches = document["matches"]
        except KeyError as missing:
            raise KnockoutError(f"the bracket document lacks {missing}") from None
        if not isinstance(matches, list):
            raise KnockoutError("'matches' in a bracket document is a list")
        results = {}
        for item in matches:
            if not isinstance(item, dict) or "id" not in item:
                raise KnockoutError("every match in a bracket document is a mapping with an id")
            if item.get("status") == "done":
                winner = item.get("winner")
                if isinstance(winner, bool) or not isinstance(winner, int):
                    raise KnockoutError(f"match {item['id']} is done but names no winning seed")
                results[item["id"]] = winner
        for match_id in bracket.matches:  # creation order: a result never precedes its inputs
            if match_id in results:
                bracket.report(match_id, results.pop(match_id))
        if results:
            raise KnockoutError(f"unknown matches in the bracket document: {sorted(results)}")
        return bracket


def _drop_order(dropped: list[Source], drop: int) -> list[Source]:
    """Reorder the losers falling from the winners' bracket, to put rematches off."""
    if len(dropped) < 2:
        return dropped
    if drop % 2:
        return dropped[::-1]
    half = len(dropped) // 2
    return dropped[half:] + dropped[:half]
