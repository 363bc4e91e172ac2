"""Admin for tournament directors: thin, every write goes through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest

from config.errors import ApplicationError
from games.series.format import MatchScore
from players.admin import ClubScopedAdmin
from players.models import Club
from tournaments import services
from tournaments.models import (
    FORFEIT_OUTCOMES,
    Entrant,
    Outcome,
    Pairing,
    ResultChange,
    Round,
    Tournament,
)
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

    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]
        if self.errors:
            return
        try:
            validate_tournament(self.instance)
        except ApplicationError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.message)


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


class PairingResultForm(forms.ModelForm):
    """One board's result; ``version`` travels hidden to catch concurrent edits."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = Pairing
        fields = ["wins_a", "wins_b", "draws", "outcome", "version"]

    def _post_clean(self) -> None:
        """No model validation here: the result service checks the typed score against the
        match format (a score typed while the outcome still says pending is fine)."""


class PairingInline(admin.TabularInline):
    """Fast result entry: type the games won by each side; saving calls the result service."""

    model = Pairing
    form = PairingResultForm
    fields = ["board", "entrant_a", "entrant_b", "bye_kind", "wins_a", "wins_b", "draws",
              "outcome", "version"]
    readonly_fields = ["board", "entrant_a", "entrant_b", "bye_kind"]
    extra = 0
    can_delete = False
    ordering = ["board"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pairing]:
        return super().get_queryset(request).select_related(
            "entrant_a__player", "entrant_a__team", "entrant_b__player", "entrant_b__team")


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    list_display = ["tournament", "number", "status", "created_at"]
    list_filter = ["status", "tournament__club"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament__club"]
    readonly_fields = ["tournament", "number", "status", "created_at"]
    fields = ["tournament", "number", "status", "clock", "time_slot_minutes", "created_at"]
    inlines = [PairingInline]

    def club_of(self, obj: Round) -> Club:
        return obj.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds come from "pair the next round"

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Pairing:
            super().save_formset(request, form, formset, change)
            return
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for pairing_form in formset.forms:
            changed = set(pairing_form.changed_data) - {"version"}
            if not changed or pairing_form.instance.entrant_b_id is None:
                continue
            self._record(request, pairing_form, changed)

    def _record(self, request: HttpRequest, pairing_form: Any, changed: set[str]) -> None:
        data = pairing_form.cleaned_data
        pairing = Pairing.objects.select_related("round__tournament__club").get(
            pk=pairing_form.instance.pk)
        outcome = data["outcome"] if "outcome" in changed else None
        score = None
        if outcome not in (*FORFEIT_OUTCOMES, Outcome.PENDING):
            score = MatchScore(data["wins_a"], data["wins_b"], data["draws"])
        recorded: list[Any] = []
        ok = _run(self, request, lambda: recorded.append(services.result_record(
            actor=request.user, pairing=pairing, expected_version=data["version"],
            score=score, outcome=outcome)), "")
        if not ok:
            self.message_user(request, f"Board {pairing.board} was not saved.", messages.ERROR)
        elif recorded[0].warning:
            self.message_user(request, recorded[0].warning, messages.WARNING)


@admin.register(Pairing)
class PairingAdmin(ClubScopedAdmin):
    list_display = ["__str__", "outcome", "wins_a", "wins_b", "draws", "version", "updated_at"]
    list_filter = ["outcome", "round__tournament__club"]
    search_fields = ["round__tournament__name", "entrant_a__player__display_name",
                     "entrant_b__player__display_name"]
    list_select_related = ["round__tournament", "entrant_a__player", "entrant_a__team",
                           "entrant_b__player", "entrant_b__team"]

    def club_of(self, obj: Pairing) -> Club:
        return obj.round.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # results are typed in the round's page, through the result service


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["pairing", "changed_by", "changed_at", "before", "after", "warning"]
    list_select_related = ["pairing__round__tournament", "changed_by"]
    list_filter = ["pairing__round__tournament__club"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
