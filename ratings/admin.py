"""Read-only admin for ratings: derived data, rebuilt by ``manage.py recompute_ratings``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from players.admin import ClubScopedAdmin, ReadOnlyAdmin, ServiceForm
from players.models import Club
from ratings import services
from ratings.admin_players import PlayerRecordAdmin  # noqa: F401  (replaces the registration)
from ratings.models import ClubRatingSettings, Rating, RatingChange
from ratings.settings import rating_config_parse


class ClubRatingSettingsForm(ServiceForm):
    """Checks the settings as the API does; the save rebuilds the club's pools (a dry run
    would rebuild them twice, so ``clean()`` runs the settings' parser alone)."""

    class Meta:
        model = ClubRatingSettings
        fields = ["rating_settings"]

    def clean(self) -> dict[str, Any]:
        data = forms.ModelForm.clean(self) or {}
        if "rating_settings" in data:
            try:
                rating_config_parse(data["rating_settings"])
            except ApplicationError as error:
                self.add_error("rating_settings", error.message)
        return data

    def save_through_service(self) -> Club:
        return services.club_rating_settings_update(
            actor=self.actor, club=Club.objects.get(pk=self.instance.pk),
            rating_settings=self.cleaned_data["rating_settings"])


@admin.register(ClubRatingSettings)
class ClubRatingSettingsAdmin(ClubScopedAdmin):
    """A club's rating system and parameters (``{"system": "glicko2", "tau": 0.5}``,
    ``{"system": "elo", "k": 20}``); saving rebuilds the club's ratings."""

    form = ClubRatingSettingsForm
    list_display = ["name", "rating_settings"]
    fields = ["name", "rating_settings"]
    readonly_fields = ["name"]
    search_fields = ["name"]

    def club_of(self, obj: Club) -> Club:
        return obj

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


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

    @admin.display(description=_("rating"), ordering="rating")
    def rounded_rating(self, obj: Rating) -> str:
        return f"{obj.rating:.0f}"

    @admin.display(description=_("RD"), ordering="rd")
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

    @admin.display(description=_("before"), ordering="rating_before")
    def before(self, obj: RatingChange) -> str:
        return f"{obj.rating_before:.0f}"

    @admin.display(description=_("after"), ordering="rating_after")
    def after(self, obj: RatingChange) -> str:
        return f"{obj.rating_after:.0f}"

    @admin.display(description=_("change"))
    def rating_delta(self, obj: RatingChange) -> str:
        return f"{obj.delta:+.1f}"
