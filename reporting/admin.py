"""The director's side of players' reports: every submission (read only), the conflict
queue (both claims side by side: pick one or enter the result), confirming agreed boards
one by one or a whole round, and each tournament's reporting settings. Every write goes
through ``reporting.services`` (and from there through the one result writer)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from games.series.format import MatchScore
from players import permissions
from players.admin import ClubScopedAdmin, ReadOnlyAdmin
from reporting import board, selectors, services
from reporting.models import ReportingSettings, ResultReport
from tournaments.models import FORFEIT_OUTCOMES, Outcome, Pairing, Round, Tournament


def _is_organizer(request: HttpRequest) -> bool:
    """``is_organizer`` once per request: the admin asks each model admin four times on
    every page (the sidebar), and these two are on every page."""
    known = getattr(request, "_reporting_is_organizer", None)
    if known is None:
        known = permissions.is_organizer(request.user)
        setattr(request, "_reporting_is_organizer", known)  # noqa: B010
    return bool(known)


class _OrganizerOnce:
    """The permission checks that ask only "is this user an organizer?", memoised."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _is_organizer(request) or super().has_module_permission(request)  # type: ignore[misc]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_organizer(request) or super().has_view_permission(  # type: ignore[misc]
            request, obj)


def _managed(queryset: QuerySet[Any], request: HttpRequest, path_to_club: str) -> QuerySet[Any]:
    if getattr(request.user, "is_superuser", False):
        return queryset
    return queryset.filter(**{f"{path_to_club}__in": permissions.managed_clubs(request.user)})


@admin.register(ResultReport)
class ResultReportAdmin(_OrganizerOnce, ReadOnlyAdmin):
    """Every submission: who, from which link, when, from where, what; and how it stands."""

    list_display = ["submitted_at", "tournament", "round_board", "entrant", "holder", "kind",
                    "claim", "status", "address"]
    list_filter = ["kind"]
    list_select_related = ["pairing__round__tournament", "entrant__player", "entrant__team",
                           "link__player", "pairing__entrant_a__player",
                           "pairing__entrant_a__team", "pairing__entrant_b__player",
                           "pairing__entrant_b__team"]
    search_fields = ["entrant__player__display_name", "entrant__team__name",
                     "pairing__round__tournament__name"]
    date_hierarchy = "submitted_at"
    change_list_template = "reporting/admin/report_change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[ResultReport]:
        latest = (ResultReport.objects.filter(pairing=OuterRef("pairing"),
                                              entrant=OuterRef("entrant"))
                  .order_by("-id").values("id")[:1])
        found = super().get_queryset(request).annotate(latest_id=Subquery(latest))
        return _managed(found, request, "pairing__round__tournament__club")

    @admin.display(description=_("tournament"))
    def tournament(self, obj: ResultReport) -> str:
        return obj.pairing.round.tournament.name

    @admin.display(description=_("board"))
    def round_board(self, obj: ResultReport) -> str:
        return f"{obj.pairing.round.number}.{obj.pairing.board}"

    @admin.display(description=_("holder of the link"))
    def holder(self, obj: ResultReport) -> str:
        return obj.link.player.display_name

    @admin.display(description=_("claim"))
    def claim(self, obj: ResultReport) -> str:
        return selectors.claim_text(obj, selectors.names_of(obj.pairing))

    @admin.display(description=_("status"))
    def status(self, obj: ResultReport) -> str:
        pairing = obj.pairing
        result = None if pairing.outcome == Outcome.PENDING else (
            pairing.outcome, pairing.wins_a, pairing.wins_b, pairing.draws)
        latest = {getattr(obj, "latest_id", obj.pk)}
        code = board.claim_status(obj.pk, latest, result, obj.result)
        return str(CLAIM_STATUS[code])

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("queue/", view(self.queue_view), name="reporting_queue"),
            path("resolve/<int:pairing_id>/", view(self.resolve_view),
                 name="reporting_resolve"),
            path("confirm/<int:pairing_id>/", view(self.confirm_view),
                 name="reporting_confirm"),
            path("confirm-round/<int:round_id>/", view(self.confirm_round_view),
                 name="reporting_confirm_round"),
            *super().get_urls(),
        ]

    # -- the conflict queue -----------------------------------------------------------------

    def queue_view(self, request: HttpRequest) -> HttpResponse:
        if not permissions.is_organizer(request.user):
            raise PermissionDenied
        tournament_ids = None
        if not request.user.is_superuser:
            tournament_ids = list(_managed(
                Round.objects.all(), request, "tournament__club")
                .values_list("tournament_id", flat=True).distinct())
        boards = selectors.conflict_queue(tournament_ids)
        outcomes = [(o.value, o.label) for o in Outcome if o not in (Outcome.PENDING,
                                                                    Outcome.BYE)]
        return TemplateResponse(request, "reporting/admin/queue.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": gettext("Conflict queue: players' reports to settle"),
            "boards": boards, "outcomes": outcomes,
        })

    def _back(self, request: HttpRequest) -> HttpResponseRedirect:
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()},
                                               require_https=request.is_secure()):
            target = reverse("admin:reporting_queue")
        return HttpResponseRedirect(target)

    def _pairing(self, request: HttpRequest, pairing_id: int) -> Pairing:
        pairing = get_object_or_404(Pairing.objects.select_related("round__tournament__club"),
                                    pk=pairing_id)
        if not permissions.can_manage_club(request.user, pairing.round.tournament.club):
            raise PermissionDenied
        return pairing

    def resolve_view(self, request: HttpRequest, pairing_id: int) -> HttpResponse:
        return require_POST(self._resolve)(request, pairing_id)

    def _resolve(self, request: HttpRequest, pairing_id: int) -> HttpResponse:
        pairing = self._pairing(request, pairing_id)
        try:
            report = None
            score = outcome = None
            picked = request.POST.get("report", "")
            if picked:
                report = ResultReport.objects.filter(
                    pk=int(picked) if picked.isdecimal() and len(picked) < 19 else 0,
                    pairing=pairing).first()
                if report is None:
                    raise ApplicationError(gettext("Pick a side's latest claim about this "
                                                   "board."), field="report")
            else:
                outcome = request.POST.get("outcome", "") or None
                if outcome not in FORFEIT_OUTCOMES:
                    score = MatchScore(*(_count(request.POST.get(name, "")) for name in
                                         ("wins_a", "wins_b", "draws")))
            services.report_resolve(actor=request.user, pairing=pairing, report=report,
                                    score=score, outcome=outcome)
        except ApplicationError as error:
            self.message_user(request, gettext("Board %(board)d: %(problem)s") % {
                "board": pairing.board, "problem": error.message}, messages.ERROR)
        else:
            self.message_user(request, gettext("Board %(board)d of round %(round)d is "
                                               "settled.") % {
                "board": pairing.board, "round": pairing.round.number}, messages.SUCCESS)
        return self._back(request)

    def confirm_view(self, request: HttpRequest, pairing_id: int) -> HttpResponse:
        return require_POST(self._confirm)(request, pairing_id)

    def _confirm(self, request: HttpRequest, pairing_id: int) -> HttpResponse:
        pairing = self._pairing(request, pairing_id)
        try:
            services.report_confirm(actor=request.user, pairing=pairing)
        except ApplicationError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            self.message_user(request, gettext("Board %(board)d confirmed.")
                              % {"board": pairing.board}, messages.SUCCESS)
        return self._back(request)

    def confirm_round_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        return require_POST(self._confirm_round)(request, round_id)

    def _confirm_round(self, request: HttpRequest, round_id: int) -> HttpResponse:
        round_ = get_object_or_404(Round.objects.select_related("tournament__club"),
                                   pk=round_id)
        if not permissions.can_manage_club(request.user, round_.tournament.club):
            raise PermissionDenied
        try:
            count = services.reports_confirm_agreed(actor=request.user, round_=round_)
        except ApplicationError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            self.message_user(request, gettext("%(count)d agreed boards confirmed.")
                              % {"count": count}, messages.SUCCESS)
        return self._back(request)


def _count(value: str) -> int:
    value = value.strip()
    if not value:
        return 0
    if not value.isdecimal() or len(value) > 4:
        raise ApplicationError(gettext("Enter a whole number of games."), field="score")
    return int(value)


CLAIM_STATUS = {
    "open": _("open"),
    "superseded": _("superseded by a later report"),
    "accepted": _("accepted"),
    "overridden": _("overridden by the director"),
}


@admin.register(ReportingSettings)
class ReportingSettingsAdmin(_OrganizerOnce, ClubScopedAdmin):
    list_display = ["tournament", "enabled", "auto_confirm"]
    list_select_related = ["tournament"]
    fields = ["tournament", "enabled", "auto_confirm"]

    def club_of(self, obj: Any) -> Any:
        return obj.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_organizer(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return _is_organizer(request) or super().has_change_permission(request)
        return super().has_change_permission(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ReportingSettings]:
        return _managed(super().get_queryset(request), request, "tournament__club")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["tournament"] if obj is not None else []

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = Tournament.objects.filter(
                club__in=permissions.managed_clubs(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: ReportingSettings, form: Any,
                   change: bool) -> None:
        saved = services.reporting_settings_set(
            actor=request.user, tournament=obj.tournament, enabled=obj.enabled,
            auto_confirm=obj.auto_confirm)
        obj.pk = saved.pk
