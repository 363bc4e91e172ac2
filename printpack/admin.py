"""The print pack in the admin: a "Print" block on the tournament dashboard and on the
round page, and the download behind its buttons (one PDF per document, A4 or Letter; the
whole event as one PDF or a zip).

The tournament and round admins are completed from this floor, as the matches floor
completes the tournament admin: the classes registered now are subclassed (whatever floor
registered them last) and registered again, so that arrows keep pointing down.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from matches.admin import RoundAdmin
from printpack import pack
from printpack.layout import PAPERS
from printpack.selectors import may_print
from tournaments.admin import TournamentAdmin
from tournaments.models import Round, Tournament

#: The whole event: kind -> label.
WHOLE_EVENT = {"event": _("Whole event: one PDF"), "zip": _("Whole event: zip of PDFs")}


def print_block(tournament: Tournament, *, number: int | None = None) -> dict[str, Any]:
    """The Print block's context: where its form goes, the documents, the rounds."""
    rounds = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    return {
        "url": reverse("admin:tournaments_tournament_print", args=[tournament.pk]),
        "papers": PAPERS,
        "round": number,
        "rounds": rounds,
        "round_kinds": [(kind, label) for kind, (label, _build) in pack.ROUND_KINDS.items()],
        "event_kinds": [(kind, label) for kind, (label, _build) in pack.EVENT_KINDS.items()
                        if _offered(tournament, kind)],
        "whole": list(WHOLE_EVENT.items()),
    }


def _offered(tournament: Tournament, kind: str) -> bool:
    """Whether the event's ``kind`` of document has a button: lineups for team events, the
    crosstable for round robins, no standings or wall chart for a bracket."""
    if kind == "lineups":
        return tournament.entrant_kind == "teams"
    if kind == "crosstable":
        return tournament.system.table_kind == "crosstable"
    if kind in ("standings", "wall_chart"):
        return not tournament.system.has_bracket
    return True


class PrintTournamentAdmin(TournamentAdmin):
    """Mixed in before the registered tournament admin (see :func:`_complete`)."""

    def get_urls(self) -> list[Any]:
        return [
            path("<int:object_id>/print/", self.admin_site.admin_view(self.print_view),
                 name="tournaments_tournament_print"),
            *super().get_urls(),
        ]

    def dashboard_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        response = super().dashboard_view(request, object_id)
        if isinstance(response, TemplateResponse) and response.context_data is not None:
            tournament = response.context_data.get("tournament")
            if isinstance(tournament, Tournament) and may_print(request.user, tournament):
                response.context_data["print_pack"] = print_block(tournament)
                response.template_name = "printpack/admin/dashboard.html"
        return response

    def print_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """A PDF (or the zip) of ``kind``: ``paper`` A4 or Letter, ``round`` for a round's
        documents. Only the club's organizers print (draft rounds included)."""
        tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=object_id)
        if not may_print(request.user, tournament):
            raise PermissionDenied
        kind = request.GET.get("kind", "")
        paper = request.GET.get("paper", "A4")
        if kind not in (*pack.KINDS, *WHOLE_EVENT):
            return HttpResponseBadRequest(gettext("Unknown document: choose one of the Print "
                                                  "block's buttons."))
        if paper not in PAPERS:
            return HttpResponseBadRequest(gettext("Paper: A4 or Letter."))
        number = None
        if kind in pack.ROUND_KINDS:
            text = request.GET.get("round", "")
            if not text.isascii() or not text.isdecimal() or len(text) > 5:
                return HttpResponseBadRequest(gettext("Round: a round's number."))
            number = int(text)
        base_url = request.build_absolute_uri("/")
        if kind == "zip":
            body = pack.event_zip(tournament, paper=paper, base_url=base_url)
            return _download(body, "application/zip",
                             pack.filename(tournament, "print-pack", paper, "zip"))
        if kind == "event":
            body = pack.event_pdf(tournament, paper=paper, base_url=base_url)
            return _download(body, "application/pdf",
                             pack.filename(tournament, "print-pack", paper))
        found = pack.kind_pdf(tournament, kind, number=number, paper=paper, base_url=base_url,
                              data=pack.load(tournament, links=kind == "slips"))
        if found is None:
            raise Http404("Nothing to print: no such round, or no standings yet.")
        what = f"round-{number}-{kind}" if number is not None else kind
        return _download(found, "application/pdf",
                         pack.filename(tournament, what.replace("_", "-"), paper))


class PrintRoundAdmin(RoundAdmin):
    """Mixed in before the registered round admin (see :func:`_complete`)."""

    change_form_template = "printpack/admin/round_change_form.html"

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        round_ = (Round.objects.select_related("tournament__club").filter(pk=object_id).first()
                  if str(object_id).isdecimal() else None)
        if round_ is not None and may_print(request.user, round_.tournament):
            context["print_pack"] = print_block(round_.tournament, number=round_.number)
        return super().change_view(request, object_id, form_url, context)


def _download(body: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    # draft rounds and private links' codes: never kept by a cache on the way
    response["Cache-Control"] = "private, no-store"
    return response


def _complete(model: type[Model], mixin: type[admin.ModelAdmin[Any]]) -> None:
    """Register ``model`` again with ``mixin`` in front of its admin class as registered
    now, so that the floors' completions chain whatever their order."""
    current = type(admin.site.get_model_admin(model))
    if issubclass(current, mixin):
        return
    completed = type(f"{mixin.__name__}Of{current.__name__}", (mixin, current), {})
    admin.site.unregister(model)
    admin.site.register(model, cast(Any, completed))


_complete(Tournament, PrintTournamentAdmin)
_complete(Round, PrintRoundAdmin)
