"""Admin: stored game analyses, read only (the API and the workers write them; the
analyses are public on the game pages anyway)."""

from __future__ import annotations

from django.contrib import admin

from analysis.models import GameAnalysis
from players.admin import ReadOnlyAdmin


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "moves_done", "moves_total", "created_at", "finished_at"]
    list_filter = ["status"]
    list_select_related = ["game"]
    raw_id_fields = ["game", "requested_by"]
