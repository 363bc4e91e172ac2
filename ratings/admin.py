"""Read-only admin for ratings: derived data, rebuilt by ``manage.py recompute_ratings``."""

from __future__ import annotations

from django.contrib import admin

from players.admin import ReadOnlyAdmin
from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = [
        "player", "club", "family", "system", "rounded_rating", "rounded_rd", "games",
        "is_provisional", "last_played_at",
    ]
    list_filter = ["club", "family", "system", "is_provisional", "player__is_bot"]
    search_fields = ["player__display_name", "club__name"]
    list_select_related = ["player", "club"]
    ordering = ["club", "family", "-rating"]

    @admin.display(description="rating", ordering="rating")
    def rounded_rating(self, obj: Rating) -> str:
        return f"{obj.rating:.0f}"

    @admin.display(description="RD", ordering="rd")
    def rounded_rd(self, obj: Rating) -> str:
        return "" if obj.rd is None else f"{obj.rd:.0f}"


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "played_at", "player", "game_id", "club", "family", "before", "after", "rating_delta",
    ]
    list_filter = ["club", "family"]
    search_fields = ["player__display_name", "=game__id", "game__pairing__round__tournament__name"]
    list_select_related = ["player", "club"]
    date_hierarchy = "played_at"
    ordering = ["-played_at", "-game_id"]

    @admin.display(description="before", ordering="rating_before")
    def before(self, obj: RatingChange) -> str:
        return f"{obj.rating_before:.0f}"

    @admin.display(description="after", ordering="rating_after")
    def after(self, obj: RatingChange) -> str:
        return f"{obj.rating_after:.0f}"

    @admin.display(description="change")
    def rating_delta(self, obj: RatingChange) -> str:
        return f"{obj.delta:+.1f}"
