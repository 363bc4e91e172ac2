"""Admin of the sign-up: its settings per tournament, and the sign-ups to decide (accept or
decline one by one from its page, or many at once from the list). Every write goes through
the services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from players import permissions
from players.admin import ClubScopedAdmin, ServiceForm
from signup import selectors, services
from signup.models import ENTRY_FIELDS, SignUp, SignUpSettings, SignUpStatus
from tournaments.models import Tournament

_SETTINGS_FIELDS = ["is_open", "opens_at", "closes_at", "cap", "waitlist", "acceptance",
                    *(f"ask_{name}" for name in ENTRY_FIELDS), "message"]


def _is_organizer(request: HttpRequest) -> bool:
    """Whether the user organizes a club, read once per request (the admin's menu asks
    every model admin four times)."""
    if getattr(request, "is_club_organizer", False):  # the admin site's check found it
        return True
    cached = getattr(request, "_signup_is_organizer", None)
    if cached is None:
        cached = permissions.is_organizer(request.user)
        request._signup_is_organizer = cached  # type: ignore[attr-defined]
    return bool(cached)


class _OnceAdmin(ClubScopedAdmin):
    """:class:`ClubScopedAdmin` with the organizer check read once per request."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _is_organizer(request) or bool(getattr(request.user, "is_superuser", False))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_organizer(request) or bool(getattr(request.user, "is_superuser", False))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_organizer(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return _is_organizer(request)
        return permissions.can_manage_club(request.user, self.club_of(obj))


class SignUpSettingsForm(ServiceForm):
    class Meta:
        model = SignUpSettings
        fields = ["tournament", *_SETTINGS_FIELDS]

    def save_through_service(self) -> SignUpSettings:
        tournament = self.cleaned_data.get("tournament") or self.instance.tournament
        return services.signup_settings_update(
            actor=self.actor, tournament=tournament,
            **{name: self.cleaned_data[name] for name in _SETTINGS_FIELDS})


@admin.register(SignUpSettings)
class SignUpSettingsAdmin(_OnceAdmin):
    form = SignUpSettingsForm
    list_display = ["tournament", "is_open", "opens_at", "closes_at", "cap", "acceptance",
                    "signups_link"]
    list_select_related = ["tournament__club"]
    search_fields = ["tournament__name"]

    def club_of(self, obj: SignUpSettings) -> Any:
        return obj.tournament.club

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["tournament", "public_page"] if obj is not None else []

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ["tournament", *_SETTINGS_FIELDS]
        return ["tournament", "public_page", *_SETTINGS_FIELDS]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = Tournament.objects.filter(
                club__in=permissions.managed_clubs(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.display(description=_("public page"))
    def public_page(self, obj: SignUpSettings) -> str:
        url = reverse("signup:signup", args=[obj.tournament.club.slug, obj.tournament.slug])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description=_("sign-ups to decide"))
    def signups_link(self, obj: SignUpSettings) -> str:
        count = selectors.open_signups(obj.tournament).count()
        url = (reverse("admin:signup_signup_changelist")
               + f"?tournament__id__exact={obj.tournament_id}")
        return format_html('<a href="{}">{}</a>', url, count)


class _OpenFilter(admin.SimpleListFilter):
    """Pending and waitlisted sign-ups by default: what is left to decide."""

    title = _("status")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("all", _("All")), *SignUpStatus.choices]

    def choices(self, changelist: Any) -> Any:
        yield {"selected": self.value() is None,
               "query_string": changelist.get_query_string(remove=[self.parameter_name]),
               "display": _("To decide")}
        for lookup, title in self.lookup_choices:
            yield {"selected": self.value() == str(lookup),
                   "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                   "display": title}

    def queryset(self, request: HttpRequest, queryset: QuerySet[SignUp]) -> QuerySet[SignUp]:
        value = self.value()
        if value is None:
            return queryset.filter(status__in=[SignUpStatus.PENDING, SignUpStatus.WAITLISTED])
        if value in SignUpStatus.values:
            return queryset.filter(status=value)
        return queryset


@admin.register(SignUp)
class SignUpAdmin(_OnceAdmin):
    list_display = ["name", "tournament", "status", "place", "player", "email",
                    "birth_year", "rating_claim", "created_at"]
    list_filter = [_OpenFilter, "tournament"]
    list_select_related = ["tournament__club", "player"]
    search_fields = ["name", "email", "tournament__name"]
    ordering = ["tournament", "-status", "created_at", "id"]
    actions = ["accept_selected", "decline_selected"]
    readonly_fields = ["tournament", "name", "birth_year", "sex", "federation", "email",
                       "rating_claim", "note", "status", "place", "player", "entrant",
                       "created_at", "decided_at", "decided_by", "status_link"]
    fields = ("tournament", "name", "birth_year", "sex", "federation", "email",
              "rating_claim", "note", "status", "place", "player", "entrant", "created_at",
              "decided_at", "decided_by", "status_link")
    change_form_template = "admin/signup/signup/change_form.html"

    def club_of(self, obj: SignUp) -> Any:
        return obj.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Nothing is edited by hand: decisions go through the services (the buttons)."""

    def changeform_view(self, request: HttpRequest, object_id: str | None = None,
                        form_url: str = "", extra_context: Any = None) -> HttpResponse:
        hidden = {"show_save": False, "show_save_and_continue": False,
                  "show_save_and_add_another": False}
        return super().changeform_view(request, object_id, form_url,
                                       {**(extra_context or {}), **hidden})

    def get_queryset(self, request: HttpRequest) -> QuerySet[SignUp]:
        found = super().get_queryset(request)
        if not getattr(request.user, "is_superuser", False):
            found = found.filter(tournament__club__in=permissions.managed_clubs(request.user))
        return selectors.with_waitlist_places(found)

    @admin.display(description=_("place on the waiting list"))
    def place(self, obj: SignUp) -> Any:
        if obj.status != SignUpStatus.WAITLISTED:
            return ""
        return obj.waitlist_ahead + 1  # type: ignore[attr-defined]  # with_waitlist_places

    @admin.display(description=_("status link"))
    def status_link(self, obj: SignUp) -> str:
        url = reverse("signup:status", args=[selectors.status_token(obj)])
        return format_html('<a href="{}" rel="noreferrer">{}</a>', url, url)

    def get_urls(self) -> list[Any]:
        return [path("<int:pk>/decide/", self.admin_site.admin_view(self.decide_view),
                     name="signup_signup_decide"), *super().get_urls()]

    def _decide(self, request: HttpRequest, signups: Any, decision: str) -> None:
        done = 0
        for signup in signups:
            try:
                if decision == "accept":
                    services.signup_accept(actor=request.user, signup=signup)
                else:
                    services.signup_decline(actor=request.user, signup=signup)
                done += 1
            except (ApplicationError, PermissionDenied) as error:
                self.message_user(request, getattr(error, "message", str(error)),
                                  messages.ERROR)
        if done:
            text = (ngettext("%(count)d sign-up accepted.", "%(count)d sign-ups accepted.",
                             done) if decision == "accept"
                    else ngettext("%(count)d sign-up declined.", "%(count)d sign-ups declined.",
                                  done))
            self.message_user(request, text % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Accept the selected sign-ups"))
    def accept_selected(self, request: HttpRequest, queryset: QuerySet[SignUp]) -> None:
        self._decide(request, list(queryset.order_by("created_at", "id")), "accept")

    @admin.action(description=_("Decline the selected sign-ups"))
    def decline_selected(self, request: HttpRequest, queryset: QuerySet[SignUp]) -> None:
        self._decide(request, list(queryset.order_by("created_at", "id")), "decline")

    def decide_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Accept or decline one sign-up from its page (a POST with ``decision``)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        signup = get_object_or_404(SignUp.objects.select_related("tournament__club"), pk=pk)
        chosen = [name for name in ("accept", "decline") if request.POST.get(name)]
        decision = chosen[0] if len(chosen) == 1 else ""
        if decision not in ("accept", "decline"):
            self.message_user(request, gettext("Choose accept or decline."), messages.ERROR)
        else:
            self._decide(request, [signup], decision)
        return HttpResponseRedirect(reverse("admin:signup_signup_change", args=[pk]))
