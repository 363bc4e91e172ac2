"""Admin for bot tournaments: start one on the workers and follow its progress."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.http import HttpRequest

from botruns import services as bot_tournaments
from botruns.models import BotRun
from config.errors import ApplicationError
from players import permissions


class _ProgressChangeList(ChangeList):
    """Reads the progress of a page of runs at once (three columns per row show it)."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        runs = list(self.result_list)
        progress = bot_tournaments.bot_runs_progress(runs)
        for run in runs:
            run._progress_reading = progress[run.pk]  # type: ignore[attr-defined]
        self.result_list = runs  # type: ignore[assignment]


class BotRunForm(forms.ModelForm):
    class Meta:
        model = BotRun
        fields = ["tournament", "seed", "move_seconds", "game_timeout_seconds"]


@admin.register(BotRun)
class BotRunAdmin(admin.ModelAdmin):
    form = BotRunForm
    list_display = ["tournament", "status", "progress", "rate", "eta", "started_at"]
    list_filter = ["status"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return _ProgressChangeList

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        return ["tournament", "seed", "move_seconds", "game_timeout_seconds", "status",
                "message", "progress", "rate", "eta", "started_at", "finished_at"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_organizer(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: BotRun, form: Any, change: bool) -> None:
        try:
            run = bot_tournaments.bot_tournament_start(
                actor=request.user, tournament=obj.tournament, seed=obj.seed,
                move_seconds=obj.move_seconds, game_timeout_seconds=obj.game_timeout_seconds,
            )
        except ApplicationError as error:
            messages.error(request, error.message)
            raise _Refused from None
        obj.pk = run.pk

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        try:
            return super().add_view(request, form_url, extra_context)
        except _Refused:
            from django.shortcuts import redirect

            return redirect(request.path)

    @staticmethod
    def _progress(run: BotRun) -> bot_tournaments.Progress:
        """One progress reading per row, shared by the row's three columns."""
        cached = getattr(run, "_progress_reading", None)
        if cached is None:
            cached = bot_tournaments.bot_run_progress(run)
            run._progress_reading = cached  # type: ignore[attr-defined]
        return cached

    @admin.display(description="games")
    def progress(self, run: BotRun) -> str:
        p = self._progress(run)
        return f"{p.games_done} / ~{p.games_total} (rounds {p.rounds_done}/{p.rounds_total or '?'})"

    @admin.display(description="games/s")
    def rate(self, run: BotRun) -> float:
        return self._progress(run).games_per_second

    @admin.display(description="time left")
    def eta(self, run: BotRun) -> str:
        eta = self._progress(run).eta_seconds
        return "" if eta is None else f"{eta / 60:.1f} min"


class _Refused(Exception):
    """The service refused the start; its message was shown."""
