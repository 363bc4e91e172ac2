"""The admin's prizes page of a tournament: the tie rule, currency and entry fee, the
prize groups with their prizes (add, change, move, remove), a preview of the prize list
at any time (provisional until the tournament is finished) and its CSV. Every write goes
through ``tournaments.services.prizes``; the entrants page's fee columns post here too
(:func:`fees_post`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from players.models import Club, Title
from tournaments.models import PrizeGroup, PrizeKind, PrizeTies, Tournament
from tournaments.prize_lists import category_text, fee_totals, prize_list, prize_list_csv
from tournaments.services import prizes as prize_services
from tournaments.services.prizes import PrizeSpec

MAX_PRIZES_TEXT = 20_000


def urls(model_admin: Any) -> list[URLPattern]:
    wrap = model_admin.admin_site.admin_view
    return [
        path("<int:object_id>/prizes/", wrap(partial(prizes_view, model_admin)),
             name="tournaments_tournament_prizes"),
        path("<int:object_id>/prizes.csv", wrap(partial(prizes_csv_view, model_admin)),
             name="tournaments_tournament_prizes_csv"),
    ]


def prize_urls(tournament: Tournament) -> dict[str, str]:
    return {"prizes": reverse("admin:tournaments_tournament_prizes", args=[tournament.pk]),
            "prizes_csv": reverse("admin:tournaments_tournament_prizes_csv",
                                  args=[tournament.pk])}


def parse_prizes(text: str) -> list[PrizeSpec]:
    """The prizes textarea: one place a line, ``cash``, ``cash; item`` or
    ``cash; item; value`` (cash may be empty or 0 for an item alone)."""
    if len(text) > MAX_PRIZES_TEXT:
        raise ApplicationError(gettext("The prizes are too long a text."), field="prizes")
    specs = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split(";")]
        if len(parts) > 3:
            raise ApplicationError(gettext("%(line)r: give cash; item; value (at most three "
                                           "parts).") % {"line": line[:40]}, field="prizes")
        parts += [""] * (3 - len(parts))
        specs.append(PrizeSpec(cash=parts[0] or 0, item=parts[1], value=parts[2] or None))
    return specs


def prizes_text(group: PrizeGroup) -> str:
    lines = []
    for prize in group.prizes.all():
        parts = [f"{prize.cash:.2f}" if prize.cash else "", prize.item,
                 f"{prize.value:.2f}" if prize.value is not None else ""]
        while parts and not parts[-1]:
            parts.pop()
        lines.append("; ".join(parts))
    return "\n".join(lines)


class SettingsForm(forms.Form):
    prize_ties = forms.ChoiceField(choices=PrizeTies.choices, label=_("Ties on points"))
    currency = forms.CharField(required=False, max_length=3, label=_("Currency"),
                               help_text=_('A code: "EUR", "KES"...'))
    entry_fee = forms.CharField(required=False, max_length=20, label=_("Entry fee"),
                                help_text=_("Due from each new entrant (0: free)."))


class GroupForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    kind = forms.ChoiceField(choices=PrizeKind.choices, label=_("For"))
    rating_min = forms.IntegerField(required=False, min_value=0, max_value=4000,
                                    label=_("Rating from"))
    rating_max = forms.IntegerField(required=False, min_value=0, max_value=4000,
                                    label=_("Rating up to"))
    born_in_or_after = forms.IntegerField(required=False, min_value=1900, max_value=2100,
                                          label=_("Born in or after"))
    club = forms.ModelChoiceField(queryset=Club.objects.order_by("name"), required=False,
                                  label=_("Club"))
    federation = forms.CharField(required=False, max_length=3, label=_("Federation"))
    title = forms.ChoiceField(choices=[("", "---------"), *Title.choices], required=False,
                              label=_("Title"))
    prizes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "cols": 30}), required=False,
        max_length=MAX_PRIZES_TEXT, label=_("Prizes"),
        help_text=_("One place a line: cash; item; value. For example \"500\", "
                    "\"300; Trophy\" or \"; Chess clock; 80\" (the value ranks an item "
                    "against other groups' prizes)."))

    def values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"name": data["name"], "kind": data["kind"], "rating_min": data["rating_min"],
                "rating_max": data["rating_max"],
                "born_in_or_after": data["born_in_or_after"], "club": data["club"],
                "federation": data["federation"], "title": data["title"],
                "prizes": parse_prizes(data["prizes"] or "")}


def _initial(group: PrizeGroup) -> dict[str, Any]:
    return {"name": group.name, "kind": group.kind, "rating_min": group.rating_min,
            "rating_max": group.rating_max, "born_in_or_after": group.born_in_or_after,
            "club": group.club_id, "federation": group.federation, "title": group.title,
            "prizes": prizes_text(group)}


def _run(request: HttpRequest, call: Callable[[], Any], done: str) -> bool:
    try:
        call()
    except (ApplicationError, PermissionDenied) as error:
        messages.error(request, str(error))
        return False
    if done:
        messages.success(request, done)
    return True


def prizes_view(model_admin: Any, request: HttpRequest, object_id: int) -> HttpResponse:
    tournament = model_admin._tournament(request, object_id)
    if request.method == "POST":
        _post(request, tournament)
        return HttpResponseRedirect(request.path)
    groups = list(tournament.prize_groups.select_related("club").prefetch_related("prizes")
                  .order_by("order", "id"))
    return model_admin._page(
        request, tournament, gettext("Prizes: %(tournament)s") % {"tournament": tournament.name},
        "tournaments/admin/prizes.html", {
            "settings_form": SettingsForm(initial={
                "prize_ties": tournament.prize_ties, "currency": tournament.currency,
                "entry_fee": f"{tournament.entry_fee:.2f}"}),
            "groups": [(group, category_text(group),
                        GroupForm(initial=_initial(group), prefix=f"g{group.pk}"))
                       for group in groups],
            "new_form": GroupForm(prefix="new", initial={"kind": PrizeKind.OVERALL}),
            "prize_list": prize_list(tournament),
            "fee_totals": fee_totals(tournament),
            "csv_url": prize_urls(tournament)["prizes_csv"],
        })


def _post(request: HttpRequest, tournament: Tournament) -> None:
    action = request.POST.get("action", "")
    actor = request.user
    group = None
    if action in ("group_update", "group_delete", "group_up", "group_down"):
        group_id = str(request.POST.get("group", ""))
        group = tournament.prize_groups.filter(
            pk=int(group_id) if group_id.isascii() and group_id.isdigit() else 0).first()
        if group is None:
            messages.error(request, gettext("Choose a prize group of this tournament."))
            return
    if action == "settings":
        settings_form = SettingsForm(request.POST)
        if not settings_form.is_valid():
            messages.error(request, settings_form.errors.as_text())
            return
        data = settings_form.cleaned_data
        _run(request, lambda: prize_services.prize_settings_update(
            actor=actor, tournament=tournament, prize_ties=data["prize_ties"],
            currency=data["currency"], entry_fee=data["entry_fee"] or "0"),
            gettext("Saved."))
    elif action in ("group_add", "group_update"):
        form = GroupForm(request.POST, prefix="new" if group is None else f"g{group.pk}")
        if not form.is_valid():
            messages.error(request, form.errors.as_text())
            return

        def save() -> None:
            values = form.values()
            if group is None:
                prize_services.prize_group_create(actor=actor, tournament=tournament, **values)
            else:
                prize_services.prize_group_update(actor=actor, group=group, **values)

        _run(request, save, gettext("Prize group saved."))
    elif action == "group_delete" and group is not None:
        _run(request, lambda: prize_services.prize_group_delete(actor=actor, group=group),
             gettext("Prize group removed."))
    elif action in ("group_up", "group_down") and group is not None:
        _run(request, lambda: prize_services.prize_group_move(
            actor=actor, group=group, up=action == "group_up"), "")
    else:
        messages.error(request, gettext("Unknown action %(action)r.") % {"action": action[:30]})


def prizes_csv_view(model_admin: Any, request: HttpRequest, object_id: int) -> HttpResponse:
    """The prize list as CSV for organizers, provisional or final."""
    tournament = model_admin._tournament(request, object_id)
    response = HttpResponse(prize_list_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-prizes.csv"'
    return response


# -- the entrants page's fees -----------------------------------------------------------------

def fees_post(request: HttpRequest, tournament: Tournament, entrants: Any) -> None:
    """The entrants page's fee actions: ``fees`` saves every changed due/paid,
    ``paid_in_full`` marks the ticked entrants as having paid what is due."""
    action = request.POST.get("action", "")
    actor = request.user
    if action == "paid_in_full":
        chosen = [int(value) for value in request.POST.getlist("paid")[:10_001]
                  if value.isascii() and value.isdigit() and len(value) < 12]
        if not chosen:
            messages.error(request, gettext("Tick at least one name."))
            return
        _run(request, lambda: prize_services.entrants_paid_in_full(
            actor=actor, tournament=tournament, entrants=chosen),
            gettext("Marked as paid in full."))
        return

    @transaction.atomic
    def save() -> None:
        for entrant in entrants:
            due = request.POST.get(f"due-{entrant.pk}")
            paid = request.POST.get(f"paid-{entrant.pk}")
            if due is None and paid is None:
                continue
            try:
                prize_services.entrant_fee_update(actor=actor, entrant=entrant, due=due,
                                                  paid=paid)
            except ApplicationError as error:
                raise ApplicationError(f"{entrant.name}: {error.message}",
                                       field=error.field) from None

    _run(request, save, gettext("Fees saved."))
