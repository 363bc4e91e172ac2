"""Reads for prize lists and entry fees: what the public page, the CSV, the admin's
preview and the print helpers (the prize list PDF, the check-in sheet) show.

:func:`prize_list` gives the pure core (``tournaments.prizes``) the standings the public
pages show (``tournaments.cache.standings``: released rounds only) and each entrant's
facts, and returns plain rows: group, place, player(s), amounts, shares and the tied
players at each group's cut-off. It is final once the tournament is finished; before that
the same list is a provisional preview for the organizers.

:func:`fee_sheet` lists each entrant's entry fee (due, paid, outstanding) with the totals.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, Sum
from django.utils.translation import gettext

from tournaments import cache, prizes
from tournaments.csv_cells import csv_text
from tournaments.models import Entrant, Prize, PrizeGroup, PrizeKind, Status, Tournament

ZERO = Decimal(0)


# -- the pure core's input ----------------------------------------------------------------

def eligibility(group: PrizeGroup) -> prizes.Predicate:
    """The pure core's test of who may win ``group``'s prizes."""
    kind = group.kind
    if kind == PrizeKind.RATING_BAND:
        return prizes.rating_band(group.rating_min, group.rating_max)
    if kind == PrizeKind.JUNIORS:
        return prizes.born_in_or_after(group.born_in_or_after or 0)
    if kind == PrizeKind.WOMEN:
        return prizes.women
    if kind == PrizeKind.UNRATED:
        return prizes.unrated
    if kind == PrizeKind.CLUB:
        return prizes.club_member(str(group.club_id))
    if kind == PrizeKind.FEDERATION:
        return prizes.field_is("federation", group.federation)
    if kind == PrizeKind.TITLE:
        return prizes.field_is("title", group.title)
    return prizes.everyone


def core_prize(prize: Prize) -> prizes.Prize:
    return prizes.Prize(cash=prize.cash, item=prize.item, value=prize.value)


def core_group(group: PrizeGroup, places: Sequence[Prize]) -> prizes.PrizeGroup:
    """``group`` with its prizes ``places`` (in place order) for the pure core; raises
    ``ValueError`` when a later place is worth more than an earlier one."""
    return prizes.PrizeGroup(str(group.pk), tuple(core_prize(p) for p in places),
                             eligibility(group))


def facts_of(entrant: Entrant) -> prizes.PlayerFacts:
    """What the categories look at: the rating at entry (0: unrated), the player's birth
    year, sex, club, federation and title (a team: its rating and club)."""
    player = entrant.player
    if player is None:
        club = entrant.team.club_id if entrant.team is not None else None
        return prizes.PlayerFacts(rating=entrant.rating or None, club=str(club or ""))
    return prizes.PlayerFacts(
        rating=entrant.rating or None, birth_year=player.birth_year,
        sex=player.sex, club=str(player.club_id or ""),
        fields={"federation": player.federation, "title": player.title})


def groups_of(tournament: Tournament) -> list[PrizeGroup]:
    """The tournament's prize groups in order, with their prizes: two queries."""
    return list(tournament.prize_groups.select_related("club").prefetch_related(
        Prefetch("prizes", queryset=Prize.objects.order_by("place"))).order_by("order", "id"))


# -- the prize list -------------------------------------------------------------------------

@dataclass(frozen=True)
class PrizeLine:
    """One place of a group: the prize offered and who receives what (``name`` empty for
    a place nobody could take). Places past the group's last prize appear only for tied
    players who share its cash (``prize_cash`` None)."""

    place: int
    prize_cash: Decimal | None
    prize_item: str
    entrant: int | None
    name: str
    rank: int | None
    points: Any
    cash: Decimal
    item: str
    shared_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class ShareNote:
    """Tied players who pooled the cash of ``places`` (first, last)."""

    places: tuple[int, int]
    names: tuple[str, ...]
    pool: Decimal
    remainder: Decimal


@dataclass(frozen=True)
class GroupList:
    name: str
    kind: str
    kind_label: str
    lines: tuple[PrizeLine, ...]
    shares: tuple[ShareNote, ...]
    tied_at_cut: tuple[str, ...]


@dataclass(frozen=True)
class PrizeListResult:
    """The whole list: ``final`` once the tournament is finished (until then a
    provisional preview), the tie rule, the currency, the groups in order."""

    final: bool
    ties: str
    ties_label: str
    currency: str
    after_round: int
    groups: tuple[GroupList, ...]

    @property
    def total_cash(self) -> Decimal:
        return sum((line.cash for group in self.groups for line in group.lines), ZERO)

    @property
    def total_offered(self) -> Decimal:
        return sum((line.prize_cash or ZERO for group in self.groups for line in group.lines),
                   ZERO)


def _standings_rows(tournament: Tournament, table: dict[str, Any],
                    facts: dict[int, prizes.PlayerFacts]) -> list[prizes.Standing]:
    """The standings in order as the pure core's rows. A knockout's places are its
    points: players knocked out at the same stage share a place (and tie)."""
    bracket = tournament.system.has_bracket
    rows = []
    for row in table["rows"]:
        entrant = row["entrant"]
        if entrant is None:
            continue
        points = -(row["rank"] or 10**6) if bracket else row["points"]
        rows.append(prizes.Standing(entrant, points, facts.get(entrant, prizes.PlayerFacts())))
    return rows


def prize_list(tournament: Tournament) -> PrizeListResult:
    """The tournament's prize list from its public standings (see the module's text)."""
    groups = groups_of(tournament)
    table = cache.standings(tournament)
    by_id = {row["entrant"]: row for row in table["rows"] if row["entrant"] is not None}
    entrants = tournament.entrants.select_related("player", "team")
    facts = {entrant.pk: facts_of(entrant) for entrant in entrants} if groups else {}
    core_groups = []
    for group in groups:
        try:
            core_groups.append(core_group(group, list(group.prizes.all())))
        except ValueError:  # the services refuse this; a row written around them
            core_groups.append(prizes.PrizeGroup(str(group.pk), (), eligibility(group)))
    result = prizes.allocate(_standings_rows(tournament, table, facts), core_groups,
                             method=tournament.prize_ties)  # type: ignore[arg-type]
    return PrizeListResult(
        final=tournament.status == Status.FINISHED, ties=tournament.prize_ties,
        ties_label=tournament.get_prize_ties_display(), currency=tournament.currency,
        after_round=int(table.get("after_round") or 0),
        groups=tuple(_group_list(group, outcome, by_id)
                     for group, outcome in zip(groups, result.groups, strict=True)))


def _group_list(group: PrizeGroup, outcome: prizes.GroupResult,
                by_id: dict[Hashable, dict[str, Any]]) -> GroupList:
    def name(entrant: Hashable) -> str:
        return str(by_id.get(entrant, {}).get("name") or "")

    offered = {prize.place: prize for prize in group.prizes.all()}
    awards: dict[int, prizes.Award] = {award.place: award for award in outcome.awards}
    lines = []
    for place in sorted(set(offered) | set(awards)):
        prize, award = offered.get(place), awards.get(place)
        row = by_id.get(award.player, {}) if award is not None else {}
        lines.append(PrizeLine(
            place=place, prize_cash=prize.cash if prize is not None else None,
            prize_item=prize.item if prize is not None else "",
            entrant=award.player if award is not None else None,  # type: ignore[arg-type]
            name=name(award.player) if award is not None else "",
            rank=row.get("rank"), points=row.get("points"),
            cash=award.cash if award is not None else ZERO,
            item=award.item if award is not None else "",
            shared_with=tuple(name(other) for other in award.shared_with)
            if award is not None else ()))
    return GroupList(
        name=group.name, kind=group.kind, kind_label=category_text(group),
        lines=tuple(lines),
        shares=tuple(ShareNote(share.places, tuple(name(p) for p in share.players),
                               share.pool, share.remainder) for share in outcome.shares),
        tied_at_cut=tuple(name(player) for player in outcome.tied_at_cut))


def category_text(group: PrizeGroup) -> str:
    """Who the group is for, in words of the active language."""
    kind = group.kind
    if kind == PrizeKind.RATING_BAND:
        if group.rating_min is not None and group.rating_max is not None:
            return gettext("rating %(low)d to %(high)d") % {"low": group.rating_min,
                                                            "high": group.rating_max}
        if group.rating_max is not None:
            return gettext("rating up to %(high)d") % {"high": group.rating_max}
        return gettext("rating %(low)d and above") % {"low": group.rating_min or 0}
    if kind == PrizeKind.JUNIORS:
        return gettext("born in %(year)d or later") % {"year": group.born_in_or_after or 0}
    if kind == PrizeKind.CLUB:
        return gettext("members of %(club)s") % {"club": group.club.name if group.club else ""}
    if kind == PrizeKind.FEDERATION:
        return gettext("federation %(code)s") % {"code": group.federation}
    if kind == PrizeKind.TITLE:
        return gettext("title %(title)s") % {"title": group.title}
    return str(PrizeKind(kind).label) if kind in PrizeKind.values else kind


def money(amount: Decimal | None, currency: str = "") -> str:
    """``1 000.50 EUR``-free plain form: ``1000.50`` and the code, if any."""
    if amount is None:
        return ""
    text = f"{amount:.2f}"
    return f"{text} {currency}" if currency else text


CSV_HEADER = ["group", "category", "place", "prize_cash", "prize_item", "name", "rank",
              "points", "cash", "item", "shared_with", "currency", "status"]


def prize_list_csv(tournament: Tournament, result: PrizeListResult | None = None) -> str:
    """The prize list as CSV (every cell made safe: ``tournaments.csv_cells``), one row per
    place, then the tied players at each cut-off (place empty, name, ``tied at cut-off``)."""
    result = result or prize_list(tournament)
    status = "final" if result.final else "provisional"
    rows: list[list[object]] = [list(CSV_HEADER)]
    for group in result.groups:
        for line in group.lines:
            rows.append([group.name, group.kind, line.place,
                         f"{line.prize_cash:.2f}" if line.prize_cash is not None else "",
                         line.prize_item, line.name, line.rank, line.points,
                         f"{line.cash:.2f}", line.item, "; ".join(line.shared_with),
                         result.currency, status])
        for tied in group.tied_at_cut:
            rows.append([group.name, group.kind, "", "", "", tied, "", "", "", "",
                         "", result.currency, "tied at cut-off"])
    return csv_text(rows)


# -- entry fees ------------------------------------------------------------------------------

@dataclass(frozen=True)
class FeeRow:
    entrant: int
    seed: int | None
    name: str
    due: Decimal
    paid: Decimal

    @property
    def outstanding(self) -> Decimal:
        return max(self.due - self.paid, ZERO)

    @property
    def paid_in_full(self) -> bool:
        return self.paid >= self.due


@dataclass(frozen=True)
class FeeTotals:
    due: Decimal
    paid: Decimal
    outstanding: Decimal
    entrants: int
    unpaid: int


@dataclass(frozen=True)
class FeeSheet:
    """Each entrant's fee by starting number (then name), with the totals: the receipt
    lines of the check-in sheet."""

    currency: str
    rows: tuple[FeeRow, ...]
    totals: FeeTotals


def fee_totals(tournament: Tournament) -> FeeTotals:
    """Due, paid and outstanding over every entrant (one query)."""
    rows = list(tournament.entrants.values_list("fee_due", "fee_paid"))
    due = sum((d for d, _ in rows), ZERO)
    paid = sum((p for _, p in rows), ZERO)
    outstanding = sum((max(d - p, ZERO) for d, p in rows), ZERO)
    return FeeTotals(due, paid, outstanding, len(rows), sum(1 for d, p in rows if p < d))


def fee_sheet(tournament: Tournament) -> FeeSheet:
    entrants = sorted(tournament.entrants.select_related("player", "team"),
                      key=lambda e: (e.seed is None, e.seed or 0, e.name.casefold(), e.pk))
    rows = tuple(FeeRow(e.pk, e.seed, e.name, e.fee_due, e.fee_paid) for e in entrants)
    due = sum((row.due for row in rows), ZERO)
    paid = sum((row.paid for row in rows), ZERO)
    totals = FeeTotals(due, paid, sum((row.outstanding for row in rows), ZERO), len(rows),
                       sum(1 for row in rows if not row.paid_in_full))
    return FeeSheet(tournament.currency, rows, totals)


def fees_collected(tournament: Tournament) -> Decimal:
    return tournament.entrants.aggregate(paid=Sum("fee_paid"))["paid"] or ZERO
