"""The notices log (read-only: what was sent to whom, in which language, and how it went),
players' notice preferences and clubs' embed settings (saved through the services)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from notices import services
from notices.models import EmbedSettings, Notice, NoticePreference
from players.admin import ClubScopedAdmin, ReadOnlyAdmin, ServiceForm
from players.models import Club
from players.permissions import managed_clubs


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "kind", "tournament", "round_number", "player", "email",
                    "language", "status", "attempts", "sent_at"]
    list_filter = ["kind", "status", "language"]
    search_fields = ["email", "player__display_name", "tournament__name", "subject"]
    readonly_fields = ["kind", "tournament", "round_number", "subject_key", "player", "email",
                       "language", "status", "attempts", "error", "created_at", "claimed_at",
                       "sent_at", "subject", "body", "digest"]
    actions = ["send_again"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Notice]:
        queryset = super().get_queryset(request).select_related("tournament", "player")
        if getattr(request.user, "is_superuser", False):
            return queryset
        return queryset.filter(tournament__club__in=managed_clubs(request.user))

    @admin.action(description=_("Send again (failed, or lost while sending)"))
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notice]) -> None:
        try:
            count = services.notices_resend(actor=request.user, notices=queryset)
        except ApplicationError as error:
            self.message_user(request, str(error), messages.ERROR)
            return
        self.message_user(request, ngettext("%(count)d notice queued again.",
                                            "%(count)d notices queued again.", count)
                          % {"count": count})


class NoticePreferenceForm(ServiceForm):
    class Meta:
        model = NoticePreference
        fields = ["player", "language", "opted_out"]

    def save_through_service(self) -> NoticePreference:
        return services.preference_update(
            actor=self.actor, player=self.cleaned_data["player"],
            language=self.cleaned_data["language"], opted_out=self.cleaned_data["opted_out"])


@admin.register(NoticePreference)
class NoticePreferenceAdmin(ClubScopedAdmin):
    form = NoticePreferenceForm
    list_display = ["player", "language", "opted_out", "updated_at"]
    list_filter = ["language", "opted_out"]
    search_fields = ["player__display_name"]
    raw_id_fields = ["player"]

    def club_of(self, obj: NoticePreference) -> Club | None:
        return obj.player.club

    def get_queryset(self, request: HttpRequest) -> QuerySet[NoticePreference]:
        return super().get_queryset(request).select_related("player__club")


class EmbedSettingsForm(ServiceForm):
    origins = forms.CharField(
        label=_("Allowed origins"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One per line, such as https://club.example.org: the sites that may "
                    "show this club's embeds. Empty: no site may."))

    class Meta:
        model = EmbedSettings
        fields = ["club", "origins"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["origins"] = "\n".join(self.instance.origins or [])

    def save_through_service(self) -> EmbedSettings:
        lines = [line for line in (self.cleaned_data.get("origins") or "").splitlines()
                 if line.strip()]
        return services.embed_settings_update(actor=self.actor, club=self.cleaned_data["club"],
                                              origins=lines)


@admin.register(EmbedSettings)
class EmbedSettingsAdmin(ClubScopedAdmin):
    form = EmbedSettingsForm
    list_display = ["club", "updated_at"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[EmbedSettings]:
        return super().get_queryset(request).select_related("club")
