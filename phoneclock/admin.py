"""The clock sessions in the admin: read-only records, and the director's confirmation
of a flag or a resignation (a button on the session's page), which records the result
through the one result writer."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from phoneclock import services
from phoneclock.models import ClockSession, ClockTap
from players.admin import ReadOnlyAdmin
from players.permissions import can_manage_club


class ClockTapInline(admin.TabularInline):
    model = ClockTap
    extra = 0
    can_delete = False
    fields = ("sequence", "kind", "seat", "at_ms", "amount_ms", "used_ms", "left_ms")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ClockSession)
class ClockSessionAdmin(ReadOnlyAdmin):
    list_display = ["id", "pairing", "game_number", "setting", "finish", "winner_side",
                    "agreed_a", "agreed_b", "confirmed_at"]
    list_filter = ["finish"]
    list_select_related = ["pairing__round__tournament"]
    readonly_fields = ["pairing", "game_number", "setting", "odds", "opened_by_user",
                       "opened_by_link", "started_at", "finished_at", "finish", "winner_side",
                       "record", "runner", "agreed_a", "agreed_b", "confirmed_at",
                       "confirmed_by"]
    exclude = ["follow_token"]
    inlines = [ClockTapInline]
    change_form_template = "phoneclock/admin/session_change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[ClockSession]:
        queryset = super().get_queryset(request)
        if getattr(request.user, "is_superuser", False):
            return queryset
        return queryset.filter(pairing__round__tournament__club__organizers=request.user)

    def get_urls(self) -> list[Any]:
        return [path("<int:object_id>/confirm/", self.admin_site.admin_view(self.confirm_view),
                     name="phoneclock_clocksession_confirm"), *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        session = self.get_object(request, object_id)
        if session is not None and session.is_finished and session.confirmed_at is None \
                and can_manage_club(request.user, session.pairing.round.tournament.club):
            context["confirm_url"] = reverse("admin:phoneclock_clocksession_confirm",
                                             args=[session.pk])
        return super().change_view(request, object_id, form_url, context)

    def confirm_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        return _confirm(request, object_id)


@require_POST
def _confirm(request: HttpRequest, object_id: int) -> HttpResponse:
    session = get_object_or_404(ClockSession, pk=object_id)
    back = reverse("admin:phoneclock_clocksession_change", args=[session.pk])
    try:
        services.session_result_confirm(actor=request.user, session=session)
    except (ApplicationError, PermissionDenied) as error:
        messages.error(request, getattr(error, "message", None) or str(error))
        return HttpResponseRedirect(back)
    messages.success(request, _("The clock's result is confirmed."))
    return HttpResponseRedirect(back)
