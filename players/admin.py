from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from config.errors import ApplicationError
from players import permissions
from players.models import Club, Player, Team, TeamMembership
from players.selectors import installed_bots
from players.services import player_check_bot


class ClubScopedAdmin(admin.ModelAdmin):
    """Organizers see everything but change only their own clubs' objects."""

    def club_of(self, obj: Any) -> Club | None:
        return obj.club

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return permissions.is_organizer(request.user) or super().has_change_permission(request)
        return permissions.can_manage_club(request.user, self.club_of(obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(getattr(request.user, "is_superuser", False))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_organizer(request.user) or super().has_view_permission(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user) or super().has_module_permission(request)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "club" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = permissions.managed_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Organizers and staff look; nobody edits by hand (derived data, logs): the one
    read-only admin base of the project."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_organizer(request.user) or super().has_view_permission(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user) or super().has_module_permission(request)


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    list_display = ["name", "slug", "player_count", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]

    def club_of(self, obj: Club) -> Club:
        return obj

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(getattr(request.user, "is_superuser", False))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(n_players=Count("players"))

    @admin.display(description="players", ordering="n_players")
    def player_count(self, obj: Any) -> int:
        return int(obj.n_players)


class PlayerForm(forms.ModelForm):
    """Offers the bots installed in this host's bots directory and runs the services'
    bot checks, so that errors show next to their fields."""

    installed_bot = forms.ChoiceField(
        required=False,
        help_text="For the kind 'Installed program': a bot installed in the bots directory "
        "(BOTS_DIR) of this web host; every worker needs the same bots directory.",
    )

    class Meta:
        model = Player
        fields = ["display_name", "club", "user", "is_bot", "bot_kind", "bot_settings",
                  "installed_bot", "fide_id"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "---------")] + [
            (bot.name, f"{bot.name} by {bot.author} (plays {', '.join(bot.games)})")
            for bot in installed_bots()
        ]
        current = self.instance.installed_bot if self.instance.pk else ""
        if current and current not in {name for name, _ in choices}:
            choices.append((current, f"{current} (not installed here)"))
        field = self.fields["installed_bot"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        original = Player.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        candidate = Player(**{name: data[name] for name in self.Meta.fields if name in data})
        try:
            player_check_bot(candidate, original=original)
        except ApplicationError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.message)
        return data


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    form = PlayerForm
    list_display = ["display_name", "club", "is_bot", "bot_kind", "installed_bot", "user",
                    "created_at"]
    list_filter = ["is_bot", "bot_kind", "club"]
    search_fields = ["display_name", "club__name", "user__username", "fide_id"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["user"]


class MembershipInline(admin.TabularInline):
    model = TeamMembership
    extra = 1
    autocomplete_fields = ["player"]


@admin.register(Team)
class TeamAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "member_names", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name", "players__display_name"]
    list_select_related = ["club"]
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Team]:
        return super().get_queryset(request).prefetch_related("memberships__player")

    @admin.display(description="current members")
    def member_names(self, obj: Team) -> str:
        names = [m.player.display_name for m in obj.memberships.all() if m.left_on is None]
        return ", ".join(names)
