"""Admin for the games of matches: read-only; games are entered on a pairing's page (or
implied by a match score typed on the round page). Administrators may delete a game (a
wrong record), after which the pool's ratings are replayed."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from matches.models import Game
from players.admin import ClubScopedAdmin
from players.models import Club


def _recompute_ratings(games: list[Game]) -> None:
    from ratings.services import rating_recompute_after_correction

    pools = {}
    for game in games:
        if game.pairing.round.tournament.rated:
            pools[(game.pairing.round.tournament.club_id, game.game)] = game
    for game in pools.values():
        rating_recompute_after_correction(game)


@admin.register(Game)
class GameAdmin(ClubScopedAdmin):
    list_display = ["__str__", "game", "winner", "termination", "move_count", "played_at",
                    "recorded_by"]
    list_filter = ["game", "termination", "pairing__round__tournament__club"]
    search_fields = ["pairing__round__tournament__name"]
    list_select_related = ["pairing__round__tournament", "pairing__entrant_a__player",
                           "pairing__entrant_a__team", "pairing__entrant_b__player",
                           "pairing__entrant_b__team", "recorded_by"]
    readonly_fields = ("pairing_link", "number", "game", "options", "first_side", "deal_seed",
                       "winner_side", "termination", "score_detail", "move_count", "clock_left",
                       "played_at", "recorded_by", "created_at", "record")
    fields = readonly_fields

    def club_of(self, obj: Game) -> Club:
        return obj.pairing.round.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="winner")
    def winner(self, obj: Game) -> str:
        return {0: "A", 1: "B", None: "draw"}.get(obj.winner_side, "?")

    @admin.display(description="pairing")
    def pairing_link(self, obj: Game) -> str:
        from django.urls import reverse

        url = reverse("admin:tournaments_pairing_change", args=[obj.pairing_id])
        return format_html('<a href="{}">{}</a>', url, obj.pairing)

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        with transaction.atomic():
            super().delete_model(request, obj)
            _recompute_ratings([obj])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        with transaction.atomic():
            games = list(queryset.select_related("pairing__round__tournament"))
            super().delete_queryset(request, queryset)
            _recompute_ratings(games)
