"""Writes for prize lists and entry fees: the tournament's prize settings (tie rule,
currency, entry fee), prize groups with their prizes, and each entrant's fee due and paid.

Every service takes the acting user as ``actor=``, checks that they organize the
tournament's club, validates everything (errors name the field) and then saves in one
transaction, with a line in the tournament's history.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from players.models import Club, Title
from players.permissions import Actor, ensure_can_manage_club
from tournaments.history import EventKind, record
from tournaments.models import Entrant, Prize, PrizeGroup, PrizeKind, PrizeTies, Tournament
from tournaments.prize_lists import core_group
from tournaments.services.tournaments import lock_tournament

#: Bounds: the most prize groups per tournament, places per group, and the largest amount.
MAX_GROUPS = 30
MAX_PLACES = 100
MAX_AMOUNT = Decimal("99999999.99")
MAX_FEE = Decimal("999999.99")
MAX_RATING = 4000
YEARS = (1900, 2100)
CURRENCY = re.compile(r"[A-Z]{3}")
FEDERATION = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True)
class PrizeSpec:
    """One place's prize as given: cash, an item, or both; ``value`` ranks it."""

    cash: Any = 0
    item: str = ""
    value: Any = None


def amount(value: Any, *, field: str, limit: Decimal = MAX_AMOUNT,
           label: str = "") -> Decimal:
    """``value`` as money: a number of at most two decimals, from 0 to ``limit``."""
    if isinstance(value, bool) or value is None:
        raise ApplicationError(_("%(what)s must be an amount.") % {
            "what": label or _("The amount")}, field=field)
    text = str(value).strip().replace(",", ".")
    if "\x00" in text or len(text) > 20:
        raise ApplicationError(_("%(what)s must be an amount.") % {
            "what": label or _("The amount")}, field=field)
    try:
        number = Decimal(text or "0")
    except InvalidOperation:
        raise ApplicationError(_("%(value)r is not an amount.") % {"value": text[:20]},
                               field=field) from None
    if not number.is_finite() or number.as_tuple().exponent < -2:  # type: ignore[operator]
        raise ApplicationError(_("An amount has at most two decimals."), field=field)
    if number < 0:
        raise ApplicationError(_("An amount cannot be negative."), field=field)
    if number > limit:
        raise ApplicationError(_("An amount is at most %(limit)s.") % {"limit": limit},
                               field=field)
    return number.quantize(Decimal("0.01"))


def _text(value: Any, *, field: str, limit: int, required: bool = False) -> str:
    text = str(value or "").strip()
    if "\x00" in text or any(ord(char) < 32 for char in text):
        raise ApplicationError(_("Control characters are not allowed."), field=field)
    if len(text) > limit:
        raise ApplicationError(_("At most %(limit)d characters.") % {"limit": limit},
                               field=field)
    if required and not text:
        raise ApplicationError(_("This cannot be empty."), field=field)
    return text


def _whole(value: Any, *, field: str, low: int, high: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        text = str(value).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 6):
            raise ApplicationError(_("A whole number from %(low)d to %(high)d.")
                                   % {"low": low, "high": high}, field=field)
        value = int(text)
    if not low <= value <= high:
        raise ApplicationError(_("A whole number from %(low)d to %(high)d.")
                               % {"low": low, "high": high}, field=field)
    return int(value)


def _criteria(kind: Any, *, rating_min: Any = None, rating_max: Any = None,
              born_in_or_after: Any = None, club: Club | None = None, federation: Any = "",
              title: Any = "") -> dict[str, Any]:
    """The group's kind and its criteria, checked; the criteria of other kinds cleared."""
    if kind not in PrizeKind.values:
        raise ApplicationError(_("Unknown prize category %(kind)r.") % {"kind": str(kind)[:30]},
                               field="kind")
    found: dict[str, Any] = {"kind": kind, "rating_min": None, "rating_max": None,
                             "born_in_or_after": None, "club": None, "federation": "",
                             "title": ""}
    if kind == PrizeKind.RATING_BAND:
        low = _whole(rating_min, field="rating_min", low=0, high=MAX_RATING)
        high = _whole(rating_max, field="rating_max", low=0, high=MAX_RATING)
        if low is None and high is None:
            raise ApplicationError(_("A rating band needs a lowest or a highest rating."),
                                   field="rating_min")
        if low is not None and high is not None and high < low:
            raise ApplicationError(_("The highest rating of a band is at least its lowest."),
                                   field="rating_max")
        found.update(rating_min=low, rating_max=high)
    elif kind == PrizeKind.JUNIORS:
        year = _whole(born_in_or_after, field="born_in_or_after", low=YEARS[0], high=YEARS[1])
        if year is None:
            raise ApplicationError(_("Juniors' prizes need a birth year."),
                                   field="born_in_or_after")
        found["born_in_or_after"] = year
    elif kind == PrizeKind.CLUB:
        if not isinstance(club, Club) or club.pk is None:
            raise ApplicationError(_("Choose the club whose members the prizes are for."),
                                   field="club")
        found["club"] = club
    elif kind == PrizeKind.FEDERATION:
        code = str(federation or "").strip().upper()
        if not FEDERATION.fullmatch(code):
            raise ApplicationError(_("A federation is a code of three letters (KEN, RUS)."),
                                   field="federation")
        found["federation"] = code
    elif kind == PrizeKind.TITLE:
        code = str(title or "").strip().upper()
        if code not in Title.values:
            raise ApplicationError(_("Unknown title %(title)r.") % {"title": code[:10]},
                                   field="title")
        found["title"] = code
    return found


def _prizes(specs: Iterable[PrizeSpec | dict[str, Any]] | None) -> list[Prize]:
    """Unsaved prizes for places 1, 2, ... from ``specs``, checked."""
    specs = list(specs or [])[:MAX_PLACES + 1]
    if len(specs) > MAX_PLACES:
        raise ApplicationError(_("A prize group has at most %(limit)d places.")
                               % {"limit": MAX_PLACES}, field="prizes")
    found = []
    for place, spec in enumerate(specs, start=1):
        if isinstance(spec, dict):
            unknown = set(spec) - {"cash", "item", "value"}
            if unknown:
                raise ApplicationError(_("Unknown field %(name)r.") % {
                    "name": sorted(unknown)[0]}, field="prizes")
            spec = PrizeSpec(**spec)
        if not isinstance(spec, PrizeSpec):
            raise ApplicationError(_("Place %(place)d: give cash, an item or both.")
                                   % {"place": place}, field="prizes")
        try:
            cash = amount(spec.cash if spec.cash not in ("", None) else 0, field="prizes")
            item = _text(spec.item, field="prizes", limit=120)
            value = None if spec.value in (None, "") else amount(spec.value, field="prizes")
        except ApplicationError as error:
            raise ApplicationError(_("Place %(place)d: %(problem)s") % {
                "place": place, "problem": error.message}, field="prizes") from None
        if cash == 0 and not item:
            raise ApplicationError(_("Place %(place)d: give cash, an item or both.")
                                   % {"place": place}, field="prizes")
        found.append(Prize(place=place, cash=cash, item=item, value=value))
    return found


def _check_ladder(group: PrizeGroup, places: Sequence[Prize]) -> None:
    try:
        core_group(group, places)
    except ValueError:
        raise ApplicationError(_(
            "A later place cannot be worth more than an earlier one (give the item a value, "
            "or put the places in order)."), field="prizes") from None


def _prize_facts(places: Sequence[Prize]) -> list[list[str]]:
    return [[f"{p.cash:.2f}", p.item] for p in places]


def _tournament_of(actor: Actor, tournament: Tournament) -> Tournament:
    ensure_can_manage_club(actor, tournament.club)
    return lock_tournament(tournament)


def _save_group(group: PrizeGroup, places: list[Prize] | None) -> None:
    try:
        with transaction.atomic():
            group.save()
    except IntegrityError:
        raise ApplicationError(_("This tournament already has a prize group of that name."),
                               field="name") from None
    if places is not None:
        group.prizes.all().delete()
        for prize in places:
            prize.group = group
        Prize.objects.bulk_create(places)


def _unique_name(tournament: Tournament, name: str, exclude: int | None = None) -> None:
    others = PrizeGroup.objects.filter(tournament=tournament, name__iexact=name)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    if others.exists():
        raise ApplicationError(_("This tournament already has a prize group of that name."),
                               field="name")


@transaction.atomic
def prize_group_create(*, actor: Actor, tournament: Tournament, name: str,
                       kind: str = PrizeKind.OVERALL,
                       prizes: Iterable[PrizeSpec | dict[str, Any]] = (),
                       **criteria: Any) -> PrizeGroup:
    """A new prize group, listed after the others, with its prizes for places 1, 2, ...;
    ``criteria`` are those of its kind (``rating_min``/``rating_max``,
    ``born_in_or_after``, ``club``, ``federation``, ``title``)."""
    tournament = _tournament_of(actor, tournament)
    name = _text(name, field="name", limit=80, required=True)
    unknown = set(criteria) - {"rating_min", "rating_max", "born_in_or_after", "club",
                               "federation", "title"}
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]},
                               field=sorted(unknown)[0])
    fields = _criteria(kind, **criteria)
    if tournament.prize_groups.count() >= MAX_GROUPS:
        raise ApplicationError(_("A tournament has at most %(limit)d prize groups.")
                               % {"limit": MAX_GROUPS}, field="name")
    _unique_name(tournament, name)
    places = _prizes(prizes)
    order = int(tournament.prize_groups.aggregate(n=Max("order"))["n"] or 0) + 1
    group = PrizeGroup(tournament=tournament, name=name, order=order, **fields)
    _check_ladder(group, places)
    _save_group(group, places)
    record(tournament, EventKind.PRIZES_CHANGED, actor=actor, action="added", group=name,
           prizes=_prize_facts(places))
    return group


@transaction.atomic
def prize_group_update(*, actor: Actor, group: PrizeGroup, name: str | None = None,
                       kind: str | None = None,
                       prizes: Iterable[PrizeSpec | dict[str, Any]] | None = None,
                       **criteria: Any) -> PrizeGroup:
    """Change a group's name, category or criteria, and (given ``prizes``) replace its
    places' prizes."""
    tournament = _tournament_of(actor, group.tournament)
    group = PrizeGroup.objects.select_for_update().get(pk=group.pk, tournament=tournament)
    unknown = set(criteria) - {"rating_min", "rating_max", "born_in_or_after", "club",
                               "federation", "title"}
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]},
                               field=sorted(unknown)[0])
    if name is not None:
        group.name = _text(name, field="name", limit=80, required=True)
        _unique_name(tournament, group.name, exclude=group.pk)
    current = {"rating_min": group.rating_min, "rating_max": group.rating_max,
               "born_in_or_after": group.born_in_or_after, "club": group.club,
               "federation": group.federation, "title": group.title}
    fields = _criteria(kind if kind is not None else group.kind, **{**current, **criteria})
    for key, value in fields.items():
        setattr(group, key, value)
    places = _prizes(prizes) if prizes is not None else None
    _check_ladder(group, places if places is not None else list(group.prizes.order_by("place")))
    _save_group(group, places)
    shown = places if places is not None else list(group.prizes.order_by("place"))
    record(tournament, EventKind.PRIZES_CHANGED, actor=actor, action="changed",
           group=group.name, prizes=_prize_facts(shown))
    return group


@transaction.atomic
def prize_group_delete(*, actor: Actor, group: PrizeGroup) -> None:
    """Remove a group and its prizes; the later groups move up."""
    tournament = _tournament_of(actor, group.tournament)
    found = PrizeGroup.objects.filter(pk=group.pk, tournament=tournament).first()
    if found is None:
        raise ApplicationError(_("Choose a prize group of this tournament."), field="group")
    found.delete()
    _renumber(tournament)
    record(tournament, EventKind.PRIZES_CHANGED, actor=actor, action="removed",
           group=found.name, prizes=[])


def _renumber(tournament: Tournament, ordered: Sequence[PrizeGroup] | None = None) -> None:
    groups = list(ordered if ordered is not None
                  else PrizeGroup.objects.filter(tournament=tournament).order_by("order", "id"))
    # out of the way first: the orders are unique per tournament
    top = int(PrizeGroup.objects.filter(tournament=tournament)
              .aggregate(n=Max("order"))["n"] or 0)
    for index, group in enumerate(groups, start=1):
        group.order = top + index
    PrizeGroup.objects.bulk_update(groups, ["order"])
    for index, group in enumerate(groups, start=1):
        group.order = index
    PrizeGroup.objects.bulk_update(groups, ["order"])


@transaction.atomic
def prize_group_move(*, actor: Actor, group: PrizeGroup, up: bool) -> None:
    """Move a group one step up (more important) or down the order."""
    tournament = _tournament_of(actor, group.tournament)
    groups = list(PrizeGroup.objects.filter(tournament=tournament).order_by("order", "id"))
    index = next((i for i, g in enumerate(groups) if g.pk == group.pk), None)
    if index is None:
        raise ApplicationError(_("Choose a prize group of this tournament."), field="group")
    other = index - 1 if up else index + 1
    if not 0 <= other < len(groups):
        return
    groups[index], groups[other] = groups[other], groups[index]
    _renumber(tournament, groups)
    record(tournament, EventKind.PRIZES_CHANGED, actor=actor, action="moved",
           group=group.name, prizes=[], order=[g.name for g in groups])


@transaction.atomic
def prize_settings_update(*, actor: Actor, tournament: Tournament, prize_ties: str | None = None,
                          currency: str | None = None, entry_fee: Any = None) -> Tournament:
    """The tie rule of the prizes (Hort, split, tie-break), the currency and the entry fee
    due from each new entrant (entrants already entered keep theirs)."""
    tournament = _tournament_of(actor, tournament)
    changes: list[tuple[str, Any]] = []
    if prize_ties is not None:
        if prize_ties not in PrizeTies.values:
            raise ApplicationError(_("Unknown tie rule %(rule)r; choose %(choices)s.") % {
                "rule": str(prize_ties)[:20], "choices": ", ".join(PrizeTies.values)},
                field="prize_ties")
        changes.append(("prize_ties", prize_ties))
    if currency is not None:
        code = str(currency).strip().upper()
        if code and not CURRENCY.fullmatch(code):
            raise ApplicationError(_("A currency is a code of three capital letters."),
                                   field="currency")
        changes.append(("currency", code))
    if entry_fee is not None:
        changes.append(("entry_fee", amount(entry_fee, field="entry_fee", limit=MAX_FEE)))
    done = []
    for name, value in changes:
        before = getattr(tournament, name)
        if before != value:
            done.append({"field": name, "before": str(before), "after": str(value)})
            setattr(tournament, name, value)
    if done:
        tournament.save(update_fields=[change["field"] for change in done] + ["updated_at"])
        record(tournament, EventKind.SETTINGS_CHANGED, actor=actor, changes=done)
    return tournament


# -- entry fees ---------------------------------------------------------------------------------

def _entrant_of(actor: Actor, tournament: Tournament, entrant: Entrant | int) -> Entrant:
    pk = entrant.pk if isinstance(entrant, Entrant) else entrant
    found = (Entrant.objects.select_for_update(of=("self",)).select_related("player", "team")
             .filter(tournament=tournament, pk=pk).first()
             if isinstance(pk, int) and not isinstance(pk, bool) else None)
    if found is None:
        raise ApplicationError(_("Choose an entrant of this tournament."), field="entrant")
    return found


@transaction.atomic
def entrant_fee_update(*, actor: Actor, entrant: Entrant, due: Any = None,
                       paid: Any = None) -> Entrant:
    """Set an entrant's fee due and/or the amount paid (a payment is a history line)."""
    tournament = _tournament_of(actor, entrant.tournament)
    entrant = _entrant_of(actor, tournament, entrant)
    new_due = entrant.fee_due if due is None else amount(due, field="fee_due", limit=MAX_FEE)
    new_paid = entrant.fee_paid if paid is None else amount(paid, field="fee_paid",
                                                            limit=MAX_FEE)
    _fee_write(actor, tournament, [(entrant, new_due, new_paid)])
    return entrant


@transaction.atomic
def entrants_paid_in_full(*, actor: Actor, tournament: Tournament,
                          entrants: Sequence[Entrant | int]) -> int:
    """Mark entrants as having paid what is due; how many changed. All or none."""
    tournament = _tournament_of(actor, tournament)
    if len(entrants) > 10_000:
        raise ApplicationError(_("Too many entrants at once."), field="entrant")
    found = list({entrant.pk: entrant for entrant in (
        _entrant_of(actor, tournament, entrant) for entrant in entrants)}.values())
    return _fee_write(actor, tournament, [(e, e.fee_due, e.fee_due) for e in found])


def _fee_write(actor: Actor, tournament: Tournament,
               changes: Sequence[tuple[Entrant, Decimal, Decimal]]) -> int:
    changed = []
    for entrant, due, paid in changes:
        if (due, paid) == (entrant.fee_due, entrant.fee_paid):
            continue
        record(tournament, EventKind.FEE_PAID, actor=actor, name=entrant.name,
               due_before=f"{entrant.fee_due:.2f}", due=f"{due:.2f}",
               paid_before=f"{entrant.fee_paid:.2f}", paid=f"{paid:.2f}",
               currency=tournament.currency)
        entrant.fee_due, entrant.fee_paid = due, paid
        changed.append(entrant)
    Entrant.objects.bulk_update(changed, ["fee_due", "fee_paid"])
    return len(changed)
