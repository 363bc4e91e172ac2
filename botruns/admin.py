"""Admin for bot tournaments: start one on the workers and follow its progress."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from botruns import selectors as bot_runs
from botruns import services as bot_tournaments
from botruns.models import DEFAULT_GAME_SECONDS, BotRun
from core.errors import ApplicationError
from players import permissions
from players.admin import ClubScopedAdmin, ServiceForm, add_service_error
from tournaments.models import Tournament


class _ProgressChangeList(ChangeList):
    """Reads the progress of a page of runs at once (three columns per row show it)."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        runs = list(self.result_list)
        progress = bot_runs.bot_runs_progress(runs)
        for run in runs:
            run._progress_reading = progress[run.pk]  # type: ignore[attr-defined]
        self.result_list = runs  # type: ignore[assignment]


_START_FIELDS = ["seed", "move_seconds", "game_seconds", "game_timeout_seconds"]


class BotRunForm(ServiceForm):
    """Checks the run through the service's checks (a dry run would pair a round twice);
    the save starts it through the service."""

    class Meta:
        model = BotRun
        fields = ["tournament", *_START_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "game_seconds" in self.fields:
            self.fields["game_seconds"].required = False

    def _values(self) -> dict[str, Any]:
        values = {name: self.cleaned_data.get(name) for name in _START_FIELDS}
        values["game_seconds"] = values["game_seconds"] or DEFAULT_GAME_SECONDS
        return values

    def clean(self) -> dict[str, Any]:
        data = forms.ModelForm.clean(self) or {}
        if not self.errors:
            try:
                bot_tournaments.bot_run_check(actor=self.actor, tournament=data["tournament"],
                                              **self._values())
            except (ApplicationError, PermissionDenied) as error:
                add_service_error(self, error)
        return data

    def save_through_service(self) -> BotRun:
        return bot_tournaments.bot_tournament_start(
            actor=self.actor, tournament=self.cleaned_data["tournament"], **self._values())


@admin.register(BotRun)
class BotRunAdmin(ClubScopedAdmin):
    form = BotRunForm
    list_display = ["tournament", "status", "progress", "rate", "eta", "started_at"]
    list_filter = ["status"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]

    def club_of(self, obj: BotRun) -> Any:
        return obj.tournament.club

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return _ProgressChangeList

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        return ["tournament", *_START_FIELDS, "status", "message", "progress", "rate", "eta",
                "started_at", "finished_at"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = Tournament.objects.filter(
                club__in=permissions.managed_clubs(request.user))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @staticmethod
    def _progress(run: BotRun) -> bot_runs.Progress:
        """One progress reading per row, shared by the row's three columns."""
        cached = getattr(run, "_progress_reading", None)
        if cached is None:
            cached = bot_runs.bot_run_progress(run)
            run._progress_reading = cached  # type: ignore[attr-defined]
        return cached

    @admin.display(description=_("games"))
    def progress(self, run: BotRun) -> str:
        p = self._progress(run)
        return gettext("%(done)d / ~%(total)d (rounds %(rounds_done)d/%(rounds_total)s)") % {
            "done": p.games_done, "total": p.games_total, "rounds_done": p.rounds_done,
            "rounds_total": p.rounds_total or "?"}

    @admin.display(description=_("games/s"))
    def rate(self, run: BotRun) -> float:
        return self._progress(run).games_per_second

    @admin.display(description=_("time left"))
    def eta(self, run: BotRun) -> str:
        eta = self._progress(run).eta_seconds
        if eta is None:
            return ""
        return gettext("%(minutes)s min") % {"minutes": number_format(eta / 60, 1)}
