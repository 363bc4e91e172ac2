"""Admin for tournament directors: tournaments and their entrants; every write goes
through the services (rounds, boards and games are in ``matches.admin``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest

from config.errors import ApplicationError
from players.admin import ClubScopedAdmin
from tournaments import services
from tournaments.models import Entrant, Tournament
from tournaments.services.tournaments import EDITABLE_FIELDS, validate_tournament


def _run(admin_: admin.ModelAdmin, request: HttpRequest, call: Callable[[], Any],
         done: str) -> bool:
    """Call a service; report its user error (or refusal) as an admin message."""
    try:
        call()
    except (ApplicationError, PermissionDenied) as error:
        admin_.message_user(request, str(error), messages.ERROR)
        return False
    if done:
        admin_.message_user(request, done, messages.SUCCESS)
    return True


class EntrantInline(admin.TabularInline):
    """Entrants, read-only: entries and withdrawals go through the services (API)."""

    model = Entrant
    fields = ["seed", "player", "team", "rating", "joined_round", "withdrawn_from_round"]
    readonly_fields = ["seed", "player", "team", "rating", "joined_round",
                       "withdrawn_from_round"]
    extra = 0
    can_delete = False
    ordering = ["seed", "id"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TournamentForm(forms.ModelForm):
    """Runs the services' validation, so that errors show next to their fields."""

    class Meta:
        model = Tournament
        fields = [
            "club", "name", "game", "game_options", "format", "match_format", "points_win",
            "points_draw", "points_loss", "points_bye", "tiebreaks", "rated", "clock",
            "rounds_planned", "third_place_match", "grand_final_reset",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        candidate = Tournament(**{name: data[name] for name in self.Meta.fields
                                  if name in data})
        try:
            validate_tournament(candidate)
        except ApplicationError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.message)
        return data


@admin.register(Tournament)
class TournamentAdmin(ClubScopedAdmin):
    form = TournamentForm
    list_display = ["name", "club", "game", "format", "status", "created_at"]
    list_filter = ["status", "format", "game", "club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    readonly_fields = ["slug", "status", "entrant_kind", "created_by", "created_at",
                       "updated_at"]
    inlines = [EntrantInline]
    actions = ["open_registration", "start", "pair_next_round", "finish"]

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            original = Tournament.objects.get(pk=obj.pk)
            changes = {name: form.cleaned_data[name] for name in form.changed_data
                       if name in EDITABLE_FIELDS}
            _run(self, request, lambda: services.tournament_update(
                actor=request.user, tournament=original, **changes), "")
            obj.refresh_from_db()
            return
        fields = {name: form.cleaned_data[name] for name in EDITABLE_FIELDS
                  if name in form.cleaned_data and name not in ("name", "game", "format")}
        created: list[Tournament] = []
        ok = _run(self, request, lambda: created.append(services.tournament_create(
            actor=request.user, club=obj.club, name=obj.name, game=obj.game,
            format=obj.format, **fields)), "")
        if not ok:
            raise PermissionDenied("The tournament was not created; see the message above.")
        obj.pk = created[0].pk
        obj.refresh_from_db()

    def _each(self, request: HttpRequest, queryset: QuerySet[Tournament],
              service: Callable[..., Any], verb: str) -> None:
        for tournament in queryset.select_related("club"):
            def call(t: Tournament = tournament) -> Any:
                return service(actor=request.user, tournament=t)

            _run(self, request, call, f"{tournament}: {verb}.")

    @admin.action(description="Open registration")
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_open_registration,
                   "registration open")

    @admin.action(description="Start (seed the entrants)")
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_start, "started")

    @admin.action(description="Pair the next round")
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.round_pair_next, "next round paired")

    @admin.action(description="Finish")
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_finish, "finished")
