"""Prize lists: who wins which prize from the final standings. Pure Python, no Django.

An organizer sets up prize groups: the overall prizes and any category (a rating band,
juniors by birth year, women, unrated players, club members, any player field), each a
predicate over a player's facts and an ordered list of prizes (1st, 2nd, ...). A prize is
cash (a :class:`~decimal.Decimal`), a non-cash item (a trophy, a book), or both; its
``value`` compares prizes across groups (the cash unless the organizer says otherwise).

Allocation, in two steps:

1. **Places** (one prize per player, the most valuable wins). Every prize of every group is
   taken in order of value, highest first (equal values: the earlier group, then the
   earlier place); each goes to the best-placed eligible player in the standings'
   tie-break order who holds no prize yet. So a player who ranks for the 3rd overall prize
   and the 1st prize of a rating band takes the more valuable one, and the other goes down
   to the next player of that group (promotion). Within a group the prizes' values must
   not increase from one place to the next. Promotion is decided on the prizes' undivided
   values, before any sharing.
2. **Ties** (players with equal points) follow the organizer's ``method``:

   - ``"tiebreak"``: the tie-break order decides; nobody shares.
   - ``"split"``: within a group, the players tied on points who occupy consecutive places
     of that group pool the cash of those places and share it equally.
   - ``"hort"`` (the Hort system, as Swiss-Manager and most prize regulations define it):
     half of the pooled cash is shared equally among the tied players, the other half goes
     by tie-break order: the player in place *i* of the tied block receives half of the
     cash of place *i* plus an equal share of the other half of the pool.

   A group's places are counted over its eligible players in standings order without
   those who hold a prize of another group, so a tied block may reach past the group's
   last prize: those places bring no cash to the pool, but their players (if they hold
   no other prize) share it, and they are listed in ``tied_at_cut``. Players tied at the
   cut-off who already hold another group's prize keep it (listed, not sharing); a
   player without a prize tied at the cut-off of several groups shares in the group
   listed first only.
   Non-cash items are never split: the place's holder by tie-break order receives the
   item; only the cash part of a prize is pooled.

Amounts are rounded down to cents; what rounding leaves of a pool is stated as the share's
``remainder`` (the organizer decides where it goes).

>>> overall = PrizeGroup("overall", (Prize(Decimal(300)), Prize(Decimal(200)), Prize(Decimal(100))))
>>> rows = [Standing("A", 5), Standing("B", 4), Standing("C", 4), Standing("D", 3)]
>>> result = allocate(rows, [overall], method="split")
>>> [(a.player, a.cash) for a in result.awards]
[('A', Decimal('300.00')), ('B', Decimal('150.00')), ('C', Decimal('150.00'))]
>>> result.groups[0].shares[0].pool, result.groups[0].shares[0].players
(Decimal('300'), ('B', 'C'))
>>> [(a.player, a.cash) for a in allocate(rows, [overall], method="hort").awards]
[('A', Decimal('300.00')), ('B', Decimal('175.00')), ('C', Decimal('125.00'))]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import Literal

Method = Literal["hort", "split", "tiebreak"]
METHODS: tuple[Method, ...] = ("hort", "split", "tiebreak")
CENT = Decimal("0.01")
ZERO = Decimal(0)


@dataclass(frozen=True)
class PlayerFacts:
    """What prize categories look at; ``fields`` holds any other player field by name."""

    rating: int | None = None
    birth_year: int | None = None
    sex: str = ""
    club: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)


Predicate = Callable[[PlayerFacts], bool]


@dataclass(frozen=True)
class Standing:
    """One row of the final standings, given in the tie-break-decided order."""

    player: Hashable
    points: int | float | Decimal | Fraction
    facts: PlayerFacts = PlayerFacts()


@dataclass(frozen=True)
class Prize:
    """Cash, a non-cash item, or both; ``value`` (default: the cash) ranks prizes."""

    cash: Decimal = ZERO
    item: str = ""
    value: Decimal | None = None

    def __post_init__(self) -> None:
        if self.cash < 0:
            raise ValueError("a prize's cash cannot be negative")
        if self.value is not None and self.value < 0:
            raise ValueError("a prize's value cannot be negative")
        if self.cash == 0 and not self.item:
            raise ValueError("a prize needs cash or an item")

    @property
    def worth(self) -> Decimal:
        return self.cash if self.value is None else self.value


def everyone(facts: PlayerFacts) -> bool:
    return True


@dataclass(frozen=True)
class PrizeGroup:
    """A named group of prizes in place order, for the players ``eligible`` accepts."""

    name: str
    prizes: tuple[Prize, ...]
    eligible: Predicate = everyone

    def __post_init__(self) -> None:
        worths = [prize.worth for prize in self.prizes]
        if any(later > earlier for earlier, later in zip(worths, worths[1:], strict=False)):
            raise ValueError(f"the prizes of {self.name!r} must not grow from place to place")


# Categories: predicates over a player's facts.

def rating_band(low: int | None, high: int | None) -> Predicate:
    """Rated players with ``low <= rating <= high`` (either bound may be open)."""

    def accepts(facts: PlayerFacts) -> bool:
        rating = facts.rating
        return (rating is not None and (low is None or rating >= low)
                and (high is None or rating <= high))

    return accepts


def born_in_or_after(year: int) -> Predicate:
    """Juniors: players born in ``year`` or later."""
    return lambda facts: facts.birth_year is not None and facts.birth_year >= year


def women(facts: PlayerFacts) -> bool:
    return facts.sex.upper() in {"F", "W"}


def unrated(facts: PlayerFacts) -> bool:
    return facts.rating is None or facts.rating == 0


def club_member(club: str) -> Predicate:
    return lambda facts: facts.club == club


def field_is(name: str, value: str) -> Predicate:
    """Any category from a player field, e.g. ``field_is("federation", "KEN")``."""
    return lambda facts: facts.fields.get(name) == value


# Results.

@dataclass(frozen=True)
class Award:
    """The prize a player won: the group, the place, the cash received and the item."""

    player: Hashable
    group: str
    place: int
    prize: Prize | None
    """``None`` for a tied player past the group's last prize who shares its cash."""
    cash: Decimal
    item: str
    shared_with: tuple[Hashable, ...] = ()


@dataclass(frozen=True)
class Share:
    """Players tied on points who shared the cash of ``places`` (first..last, 1-based,
    places past the group's last prize bring nothing)."""

    method: Method
    places: tuple[int, int]
    players: tuple[Hashable, ...]
    pool: Decimal
    amounts: tuple[Decimal, ...]
    remainder: Decimal


@dataclass(frozen=True)
class GroupResult:
    name: str
    awards: tuple[Award, ...]
    shares: tuple[Share, ...]
    tied_at_cut: tuple[Hashable, ...]
    unawarded: tuple[int, ...]


@dataclass(frozen=True)
class PrizeList:
    awards: tuple[Award, ...]
    """In standings order, one per prize winner."""
    groups: tuple[GroupResult, ...]

    def award_of(self, player: Hashable) -> Award | None:
        return next((award for award in self.awards if award.player == player), None)


def _cents(amount: Decimal | Fraction) -> Decimal:
    if isinstance(amount, Fraction):
        amount = Decimal(amount.numerator) / Decimal(amount.denominator)
    return amount.quantize(CENT, rounding=ROUND_DOWN)


def _places(rows: Sequence[Standing],
            groups: Sequence[PrizeGroup]) -> dict[Hashable, tuple[int, int]]:
    """Step 1: player -> (group index, place index), the most valuable prize first."""
    order = sorted(((group.prizes[place].worth, index, place)
                    for index, group in enumerate(groups) for place in range(len(group.prizes))),
                   key=lambda key: (-key[0], key[1], key[2]))
    held: dict[Hashable, tuple[int, int]] = {}
    for _, index, place in order:
        group = groups[index]
        winner = next((row.player for row in rows
                       if row.player not in held and group.eligible(row.facts)), None)
        if winner is not None:
            held[winner] = (index, place)
    return held


def _shares(pool: Decimal, place_cash: Sequence[Decimal], method: Method) -> list[Fraction]:
    count = len(place_cash)
    if method == "split":
        return [Fraction(pool) / count] * count
    return [Fraction(cash) / 2 + Fraction(pool) / (2 * count) for cash in place_cash]


def _group_result(index: int, group: PrizeGroup, rows: Sequence[Standing],
                  held: Mapping[Hashable, tuple[int, int]], method: Method,
                  shared_past_cut: set[Hashable]) -> GroupResult:
    """One group's awards; ``shared_past_cut`` collects the players without a prize of
    their own who share this group's cash, so that no later group counts them again."""
    ladder = [row for row in rows if group.eligible(row.facts)
              and row.player not in shared_past_cut
              and held.get(row.player, (index, 0))[0] == index]
    prizes = group.prizes
    awards: list[Award] = []
    shares: list[Share] = []
    start = 0
    while start < min(len(ladder), len(prizes)):
        end = start + 1
        if method != "tiebreak":
            while end < len(ladder) and ladder[end].points == ladder[start].points:
                end += 1
        block = ladder[start:end]
        place_cash = [prizes[place].cash if place < len(prizes) else ZERO
                      for place in range(start, end)]
        pool = sum(place_cash, ZERO)
        sharing = len(block) > 1 and pool > 0
        amounts = [_cents(share) for share in _shares(pool, place_cash, method)] if sharing \
            else [_cents(cash) for cash in place_cash]
        players = tuple(row.player for row in block)
        if sharing:
            shares.append(Share(method, (start + 1, end), players, pool, tuple(amounts),
                                pool - sum(amounts, ZERO)))
        for offset, (row, amount) in enumerate(zip(block, amounts, strict=True)):
            place = start + offset
            prize = prizes[place] if place < len(prizes) else None
            if prize is None and amount == 0:
                continue
            if prize is None:
                shared_past_cut.add(row.player)
            awards.append(Award(
                row.player, group.name, place + 1, prize,
                amount, prize.item if prize is not None else "",
                tuple(other for other in players if other != row.player) if sharing else ()))
        start = end
    last_place = min(len(ladder), len(prizes))
    tied_at_cut: tuple[Hashable, ...] = ()
    if last_place:
        cut_points = ladder[last_place - 1].points
        cut_player = ladder[last_place - 1].player
        after = [row for row in rows if group.eligible(row.facts)]
        position = next(i for i, row in enumerate(after) if row.player == cut_player)
        tied_at_cut = tuple(row.player for row in after[position + 1:]
                            if row.points == cut_points)
    return GroupResult(group.name, tuple(awards), tuple(shares), tied_at_cut,
                       tuple(range(last_place + 1, len(prizes) + 1)))


def allocate(rows: Iterable[Standing], groups: Sequence[PrizeGroup],
             method: Method = "tiebreak") -> PrizeList:
    """The prize list of the final standings ``rows`` (tie-break-decided order) for
    ``groups`` (listed in the order that wins between prizes of equal value) under the
    organizer's tie ``method``; see the module's text for the rules."""
    if method not in METHODS:
        raise ValueError(f"unknown tie method {method!r}")
    rows = list(rows)
    if len({row.player for row in rows}) != len(rows):
        raise ValueError("a player appears twice in the standings")
    if len({group.name for group in groups}) != len(groups):
        raise ValueError("two prize groups have the same name")
    held = _places(rows, groups)
    shared_past_cut: set[Hashable] = set()
    results = tuple(_group_result(index, group, rows, held, method, shared_past_cut)
                    for index, group in enumerate(groups))
    rank = {row.player: position for position, row in enumerate(rows)}
    awards = sorted((award for result in results for award in result.awards),
                    key=lambda award: rank[award.player])
    return PrizeList(tuple(awards), results)
