"""Admin for the games of matches: read-only; games are entered on a pairing's page (or
implied by a match score typed on the round page). Administrators may delete a game (a
wrong record, a game entered twice): the games service renumbers the later games, brings
the pairing's result back in line and logs it, and the rating pool replays."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from matches.models import Game
from matches.services.games import game_delete
from players.admin import ClubScopedAdmin
from players.models import Club


def winner_letter(game: Game) -> str:
    return {0: "A", 1: "B", None: gettext("draw")}.get(game.winner_side, "?")


@admin.register(Game)
class GameAdmin(ClubScopedAdmin):
    list_display = ["__str__", "game", "winner", "termination", "move_count", "played_at",
                    "order_recorded", "recorded_by"]
    list_filter = ["game", "termination", "order_recorded", "pairing__round__tournament__club"]
    search_fields = ["pairing__round__tournament__name"]
    list_select_related = ["pairing__round__tournament", "pairing__entrant_a__player",
                           "pairing__entrant_a__team", "pairing__entrant_b__player",
                           "pairing__entrant_b__team", "recorded_by"]
    readonly_fields = ("pairing_link", "number", "game", "options", "first_side", "deal_seed",
                       "winner_side", "termination", "forfeit_reason", "order_recorded",
                       "score_detail",
                       "move_count", "clock_left", "played_at", "recorded_by", "created_at",
                       "record")
    fields = readonly_fields

    def club_of(self, obj: Game) -> Club:
        return obj.pairing.round.tournament.club

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("winner"))
    def winner(self, obj: Game) -> str:
        return winner_letter(obj)

    @admin.display(description=_("pairing"))
    def pairing_link(self, obj: Game) -> str:
        url = reverse("admin:tournaments_pairing_change", args=[obj.pairing_id])
        return format_html('<a href="{}">{}</a>', url, obj.pairing)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """The rating changes a game cascades to are derived data that the rating pool
        replays after the deletion: they need no delete permission of their own."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # the admin names a missing permission by the model's verbose name (ratings')
        return deleted, counts, perms_needed - {gettext("rating change")}, protected

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        try:
            game_delete(actor=request.user, game=obj)
        except ApplicationError as error:
            raise PermissionDenied(error.message) from None

    @transaction.atomic
    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        # the last games first, so that renumbering never moves a game still to delete
        for game in queryset.select_related("pairing__round__tournament").order_by(
                "pairing_id", "-number"):
            self.delete_model(request, game)
